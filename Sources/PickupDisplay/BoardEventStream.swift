import HTTPServer

/// Relays one source's boards to one open page as Server-Sent Events: the board at once, then each
/// real change, and a heartbeat comment when nothing has been sent for a while. Stops when the page
/// goes (the stream closes) or the source ends.
enum BoardEventStream {
    /// Milliseconds the browser waits before reconnecting after the connection drops.
    static let retryMilliseconds = 1_000

    static func start(source: any PickupBoardSource, heartbeat: Duration) -> HTTPResponseStream {
        let stream = HTTPResponseStream()
        let changes = source.boardChanges()
        let relay = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await relayBoards(from: source, changes: changes, to: stream) }
                group.addTask { await beat(stream, every: heartbeat) }
                // Whichever ends first (the source finished, or the page went) ends the other.
                await group.next()
                group.cancelAll()
            }
            stream.finish()
        }
        stream.onClose { relay.cancel() }
        return stream
    }

    private static func relayBoards(
        from source: any PickupBoardSource, changes: AsyncStream<Void>, to stream: HTTPResponseStream
    ) async {
        var last: PickupBoard?
        var first = true
        func sendCurrent() async -> Bool {
            guard let board = try? await source.currentBoard() else { return !stream.isClosed }
            guard board != last else { return !stream.isClosed }
            last = board
            let event = ServerSentEvent(
                event: "board", data: board.json, retryMilliseconds: first ? retryMilliseconds : nil)
            first = false
            return stream.send(event.bytes)
        }
        guard await sendCurrent() else { return }
        for await _ in changes {
            guard !Task.isCancelled, await sendCurrent() else { return }
        }
    }

    private static func beat(_ stream: HTTPResponseStream, every interval: Duration) async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: interval) } catch { return }
            guard stream.send(ServerSentEvent.heartbeat) else { return }
        }
    }
}
