import Synchronization

/// A ``PickupBoardSource`` that holds the board in memory and is told each new one: for a process that
/// already knows when orders move (the shop publishes after `advance`), and for tests.
public final class PickupBoardFeed: PickupBoardSource {
    private struct State {
        var board: PickupBoard
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var finished = false
    }

    private let state: Mutex<State>

    public init(_ board: PickupBoard = PickupBoard()) {
        state = Mutex(State(board: board))
    }

    /// Replaces the board and signals every subscriber.
    public func publish(_ board: PickupBoard) {
        let subscribers = state.withLock { state in
            state.board = board
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield() }
    }

    /// Ends every subscription (the process is stopping).
    public func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }

    /// Subscriptions open now (one per open page).
    public var subscriberCount: Int { state.withLock { $0.subscribers.count } }

    public func currentBoard() async throws -> PickupBoard {
        state.withLock { $0.board }
    }

    public func boardChanges() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state -> Int? in
            guard !state.finished else { return nil }
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            return id
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}
