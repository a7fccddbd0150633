import DrinkShop
import Foundation
import HTTPServer
import PickupDisplay
import Synchronization

/// The pickup screen of `drinkshop serve`, fed by the shop's services: the `OrderQueue`'s tickets (never
/// read from records here), made into a board by the display's own model (`PickupBoard(tickets:today:)`:
/// numeric order, earlier days apart, the newest ready), and it changes when the server's own store is written. Each
/// successful write request the server answers is a change signal (`noteWrite`); a slow tick catches
/// what no request announces (a new business day, a counter writing the database file directly).
/// Boards are computed once per change however many screens are open: the first screen to ask after a change
/// reads the day, and every other screen asking meanwhile waits for that one reading (never a reading each,
/// which with a hundred screens is a hundred copies of the day in memory at once).
final class ServedPickupBoard: PickupBoardSource {
    private struct State {
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var generation = 0
        var cached: (generation: Int, board: PickupBoard)?
        /// The reading under way, and the generation it answers.
        var reading: (generation: Int, task: Task<PickupBoard, any Error>)?
    }

    private let queue: OrderQueue
    private let state = Mutex(State())

    init(queue: OrderQueue) {
        self.queue = queue
    }

    func currentBoard() async throws -> PickupBoard {
        enum Answer {
            case board(PickupBoard)
            case reading(Task<PickupBoard, any Error>)
        }
        let answer = state.withLock { state -> Answer in
            if let cached = state.cached, cached.generation == state.generation { return .board(cached.board) }
            if let reading = state.reading, reading.generation == state.generation { return .reading(reading.task) }
            let queue = queue
            let task = Task<PickupBoard, any Error> { try await Self.read(queue) }
            state.reading = (state.generation, task)
            return .reading(task)
        }
        let task: Task<PickupBoard, any Error>
        switch answer {
        case .board(let board): return board
        case .reading(let reading): task = reading
        }
        let result = await task.result
        state.withLock { state in
            guard let reading = state.reading, reading.task == task else { return }
            state.reading = nil
            if case .success(let board) = result, (state.cached?.generation ?? -1) <= reading.generation {
                state.cached = (reading.generation, board)
            }
        }
        return try result.get()
    }

    private static func read(_ queue: OrderQueue) async throws -> PickupBoard {
        let (today, tickets) = try await queue.pickupTickets()
        return PickupBoard(tickets: tickets.map {
            PickupTicket(number: $0.number, businessDay: $0.businessDay.description, stage: $0.isReady ? .ready : .preparing,
                         readyAt: $0.readyAt, formerNumber: $0.keptText)
        }, today: today.description)
    }

    func boardChanges() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            state.nextID += 1
            state.subscribers[state.nextID] = continuation
            return state.nextID
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The board may have changed: every open screen reads it again (and gets it only if it did change).
    func changed() {
        let subscribers = state.withLock { state in
            state.generation += 1
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield() }
    }

    /// Whether `request`, answered with `response`, wrote to the store.
    static func isWrite(_ request: HTTPRequest, _ response: HTTPResponse) -> Bool {
        request.method != "GET" && request.method != "HEAD" && request.method != "OPTIONS" && response.status < 400
    }

    /// Ends every screen's subscription (the server is stopping).
    func finish() {
        let subscribers = state.withLock { state in
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
