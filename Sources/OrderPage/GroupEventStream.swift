import DrinkShop
import DrinkShopCore
import HTTPServer

/// One group page's live feed, as Server-Sent Events: `group` with the group's version whenever it moves on
/// (someone added, changed or deleted a line, or the order was sent), and, once sent, `status` with the
/// order's status each time it changes at the counter. It wakes on the group book's changes and on the
/// server's store-change signal (the pickup screen's: every write the server answers, and its slow tick), and
/// reads the status again only then; a heartbeat keeps idle connections open.
enum GroupEventStream {
    static let retryMilliseconds = 1_000

    static func start(
        group id: GroupID, viewer: BrowserKey, book: GroupBook, counter: Counter,
        storeChanges: AsyncStream<Void>, heartbeat: Duration
    ) -> HTTPResponseStream {
        let stream = HTTPResponseStream()
        let groupChanges = book.changes()
        let (wake, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let feed = Task {
            await withTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    for await _ in groupChanges { waker.yield() }
                }
                tasks.addTask {
                    for await _ in storeChanges { waker.yield() }
                }
                tasks.addTask {
                    await relay(id, viewer: viewer, book: book, counter: counter, wake: wake, to: stream)
                }
                tasks.addTask { await beat(stream, every: heartbeat) }
                // Whichever ends first (the page went, the group expired, the server stops) ends the rest.
                await tasks.next()
                tasks.cancelAll()
                waker.finish()
            }
            stream.finish()
        }
        stream.onClose { feed.cancel() }
        return stream
    }

    private static func relay(
        _ id: GroupID, viewer: BrowserKey, book: GroupBook, counter: Counter, wake: AsyncStream<Void>,
        to stream: HTTPResponseStream
    ) async {
        var sentVersion: Int?
        var sentStatus: OrderStatus?
        var first = true
        func send(_ event: String, _ data: String) -> Bool {
            defer { first = false }
            return stream.send(ServerSentEvent(event: event, data: data, retryMilliseconds: first ? retryMilliseconds : nil).bytes)
        }
        /// Sends what changed; false once the stream is closed or the group is gone.
        func check() async -> Bool {
            guard let group = try? book.snapshot(id, for: viewer), group.isMember else { return false }
            if group.version != sentVersion {
                sentVersion = group.version
                guard send("group", "{\"version\":\(group.version)}") else { return false }
            }
            if case .sent(let ticket, _) = group.state, let status = try? await counter.onlineOrderStatus(ticket), status != sentStatus {
                sentStatus = status
                let label = "\(status.chineseLabel) \(GroupPage.englishStatus(status))"
                let data = "{\"status\":\"\(status.rawValue)\",\"label\":\"\(label)\",\"number\":\(ticket.number)}"
                guard send("status", data) else { return false }
            }
            return !stream.isClosed
        }
        guard await check() else { return }
        for await _ in wake {
            guard !Task.isCancelled, await check() else { return }
        }
    }

    private static func beat(_ stream: HTTPResponseStream, every interval: Duration) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            guard stream.send(ServerSentEvent.heartbeat) else { return }
        }
    }
}
