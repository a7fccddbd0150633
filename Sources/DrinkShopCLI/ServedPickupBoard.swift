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
/// Boards are computed once per change however many screens are open.
final class ServedPickupBoard: PickupBoardSource {
    private struct State {
        var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var generation = 0
        var cached: (generation: Int, board: PickupBoard)?
    }

    private let queue: OrderQueue
    private let state = Mutex(State())

    init(queue: OrderQueue) {
        self.queue = queue
    }

    func currentBoard() async throws -> PickupBoard {
        let generation = state.withLock { $0.generation }
        if let cached = state.withLock({ $0.cached }), cached.generation == generation { return cached.board }
        let (today, tickets) = try await queue.pickupTickets()
        let shown = PickupBoard(tickets: tickets.map {
            PickupTicket(number: $0.number, businessDay: $0.businessDay.description, stage: $0.isReady ? .ready : .preparing,
                         readyAt: $0.readyAt, formerNumber: $0.provisionalNumber.map { "P\($0)" })
        }, today: today.description)
        state.withLock { state in
            if (state.cached?.generation ?? -1) <= generation { state.cached = (generation, shown) }
        }
        return shown
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
