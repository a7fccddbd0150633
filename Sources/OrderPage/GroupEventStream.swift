import DrinkShop
import DrinkShopCore
import HTTPServer
import Synchronization

/// One group page's live feed, as Server-Sent Events: `group` with the group's version whenever it moves on
/// (someone added, changed or deleted a line, or the order was sent), and, once sent, `status` with the
/// order's status each time it changes at the counter. Each event is a change, a few bytes, never the group or
/// the day again. It wakes on its own group's changes (another group's join wakes no one here), when it
/// compares versions in memory, and on the server's store-change signal (the pickup screen's: every write the
/// server answers, and its slow tick), when a sent group's page reads its order's status; a heartbeat keeps
/// idle connections open.
enum GroupEventStream {
    static let retryMilliseconds = 1_000

    static func start(
        group id: GroupID, viewer: BrowserKey, book: GroupBook, counter: Counter,
        storeChanges: AsyncStream<Void>, heartbeat: Duration
    ) -> HTTPResponseStream {
        let stream = HTTPResponseStream()
        let groupChanges = book.changes(of: id)
        let storeChanged = StoreChanged()
        let (wake, waker) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let feed = Task {
            await withTaskGroup(of: Void.self) { tasks in
                tasks.addTask {
                    for await _ in groupChanges { waker.yield() }
                }
                tasks.addTask {
                    for await _ in storeChanges {
                        storeChanged.mark()
                        waker.yield()
                    }
                }
                tasks.addTask {
                    await relay(id, viewer: viewer, book: book, counter: counter, wake: wake, storeChanged: storeChanged, to: stream)
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

    /// Whether the store may have changed since the relay last looked.
    private final class StoreChanged: Sendable {
        private let changed = Mutex(false)

        func mark() { changed.withLock { $0 = true } }

        /// Whether it was marked; unmarked again.
        func take() -> Bool { changed.withLock { changed in defer { changed = false }; return changed } }
    }

    private static func relay(
        _ id: GroupID, viewer: BrowserKey, book: GroupBook, counter: Counter, wake: AsyncStream<Void>,
        storeChanged: StoreChanged, to stream: HTTPResponseStream
    ) async {
        var sentVersion: Int?
        var sentStatus: OrderStatus?
        /// How many changes staff made to the sent order, as last read: the page's version counts them too.
        var revision = 0
        var first = true
        func send(_ event: String, _ data: String) -> Bool {
            defer { first = false }
            return stream.send(ServerSentEvent(event: event, data: data, retryMilliseconds: first ? retryMilliseconds : nil).bytes)
        }
        /// Sends what changed; false once the stream is closed or the group is gone. The order is read from the
        /// store only when the store may have changed, or none was sent yet (the group was just sent): its status,
        /// and whether staff changed it (then the page is drawn again, with the drinks and price as they are now).
        func check(readStatus: Bool) async -> Bool {
            guard let group = try? book.snapshot(id, for: viewer), group.isMember else { return false }
            var status: OrderStatus?
            if case .sent(let ticket, _) = group.state, readStatus || sentStatus == nil,
               let order = try? await counter.onlineOrder(ticket) {
                revision = order.revision
                status = order.status
            }
            let version = group.version + revision
            if version != sentVersion {
                sentVersion = version
                guard send("group", "{\"version\":\(version)}") else { return false }
            }
            if case .sent(let ticket, _) = group.state, let status, status != sentStatus {
                sentStatus = status
                let label = "\(status.chineseLabel) \(GroupPage.englishStatus(status))"
                let data = "{\"status\":\"\(status.rawValue)\",\"label\":\"\(label)\",\"number\":\(ticket.number)}"
                guard send("status", data) else { return false }
            }
            return !stream.isClosed
        }
        guard await check(readStatus: true) else { return }
        for await _ in wake {
            guard !Task.isCancelled, await check(readStatus: storeChanged.take()) else { return }
        }
    }

    private static func beat(_ stream: HTTPResponseStream, every interval: Duration) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            guard stream.send(ServerSentEvent.heartbeat) else { return }
        }
    }
}
