import Airtable
import AirtableHTTP
import AirtableURLSession
import AirtableServer
@testable import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Writes whose answers are lost are sent again, and still happen exactly once: order lines are upserts
/// on `ref`, pickup numbers are claimed by upserting a ticket (a retried claim reads as taken: a gap,
/// never a duplicate).
@Suite struct ExactlyOnceTests {
    private static func draft(_ name: String, cups: Int = 1) -> OrderDraft {
        OrderDraft(orderName: name, lines: (0..<cups).map { index in
            LineDraft(drink: index % 2 == 0 ? "熟成紅茶" : "白玉歐蕾", options: [.size(.medium), .ice(.less), .sugar(.half)])
        })
    }

    /// Checks the base behind the server: every line once, one pickup number per order, no two orders
    /// sharing one. Returns the pickup numbers and the number of tickets claimed.
    private static func audit(_ server: ServerHarness, orders: [StoredOrder]) async throws -> (numbers: [Int], tickets: Int) {
        let lines = try await server.base.allRecords(in: ShopSchema.orderTable)
        let refs = lines.compactMap { $0.fields["ref"]?.stringValue }
        #expect(refs.count == lines.count)
        #expect(Set(refs).count == refs.count, "an order line was written twice")
        #expect(lines.count == orders.reduce(0) { $0 + $1.order.lines.count })
        var numberByOrder: [String: Set<Int>] = [:]
        for line in lines {
            let orderRef = line.fields["orderRef"]?.stringValue ?? "?"
            numberByOrder[orderRef, default: []].insert(line.fields["pickupNumber"]?.intValue ?? -1)
        }
        #expect(numberByOrder.count == orders.count)
        #expect(numberByOrder.values.allSatisfy { $0.count == 1 })
        let numbers = numberByOrder.values.compactMap(\.first).sorted()
        #expect(Set(numbers).count == numbers.count, "two orders share a pickup number")
        #expect(Set(orders.map(\.order.pickupNumber)) == Set(numbers))
        let tickets = try await server.base.allRecords(in: ShopSchema.ticketTable)
        return (numbers, tickets.count)
    }

    @Test func answersLostOnTheWayBackNeverDuplicateOrdersOrPickupNumbers() async throws {
        try await ServerHarness.with { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            let dropping = DroppingTransport(every: 3)
            let shop = Shop(store: try server.client(transport: dropping, retry: RetryPolicy(initialBackoff: 0.01)))

            var orders: [StoredOrder] = []
            for index in 1...6 { orders.append(try await shop.orders.place(Self.draft("guest \(index)", cups: index % 3 + 1), placedBy: "Ben")) }
            let edited = try await shop.orders.edit(.pickup(orders[0].order.pickupNumber), line: 1,
                                                  change: LineChangeDraft(options: [.size(.large)], quantity: 2))
            orders[0] = edited

            #expect(dropping.dropped >= 4, "the test must really lose answers")
            let (numbers, tickets) = try await Self.audit(server, orders: orders)
            // Each claim whose answer was lost came back as taken and the next number was claimed: gaps.
            #expect(tickets > orders.count)
            #expect(numbers == orders.map(\.order.pickupNumber).sorted())
            let stored = try await shop.orders.find(.pickup(edited.order.pickupNumber))
            #expect(stored.order.lines[0].size == .large && stored.order.lines[0].quantity == 2)
            #expect(stored.recordIDs == edited.recordIDs)
        }
    }

    @Test func aServerThatAppliesAWriteAndThenStallsGetsItOnceAndTheTicketLeavesAGap() async throws {
        let stalled = Mutex<Set<String>>([])
        let retried = Mutex<[String: AsyncGate]>([:])
        try await ServerHarness.with(intercept: { request, forward in
            let response = await forward(request)
            // The first write of each table (the ticket's create, the lines' upsert) is applied, then its answer is held back until the client,
            // out of patience, has sent the request again: as far as the client knows, the answer was lost.
            guard request.method == "PATCH" || request.method == "POST", let table = request.path.split(separator: "/").last.map(String.init) else {
                return response
            }
            let gate = retried.withLock { gates in
                if let gate = gates[table] { return gate }
                let gate = AsyncGate()
                gates[table] = gate
                return gate
            }
            if stalled.withLock({ $0.insert(table).inserted }) {
                await gate.wait()
            } else {
                gate.open()
            }
            return response
        }) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            // The attempt timeout is what makes the client give up on the held answer; the other answers
            // only have to come within it, on however busy a machine.
            let client = try server.client(retry: RetryPolicy(initialBackoff: 0.01), deadline: 60, attemptTimeout: 5)
            let shop = Shop(store: client)
            let order = try await shop.orders.place(Self.draft("Amy", cups: 2), placedBy: "Ben")

            let (numbers, tickets) = try await Self.audit(server, orders: [order])
            #expect(numbers == [2], "ticket 1 was claimed, its answer lost, and the claim moved on to the next number")
            #expect(tickets == 2)
            #expect(stalled.withLock { $0 } == ["PickupTicket", "OrderDrink"])
        }
    }
}

/// A transport in front of the real one that loses answers: every `every`-th write is sent and applied
/// by the server, and then its answer is thrown away as if the connection had dropped. The same
/// request sent again is let through, so a retry can succeed.
final class DroppingTransport: HTTPTransport {
    private struct State {
        var writes = 0
        var dropped: [TransportRequest] = []
    }

    private let every: Int
    private let state = Mutex(State())
    private let inner: any HTTPTransport

    init(every: Int, inner: any HTTPTransport = URLSessionTransport.shared) {
        self.every = every
        self.inner = inner
    }

    var dropped: Int { state.withLock { $0.dropped.count } }

    func send(_ request: TransportRequest, timeout: Double) async throws(TransportError) -> TransportResponse {
        let response = try await inner.send(request, timeout: timeout)
        guard request.method != "GET", request.method != "DELETE" else { return response }
        let drop = state.withLock { state in
            state.writes += 1
            guard state.writes % every == 0, !state.dropped.contains(request) else { return false }
            state.dropped.append(request)
            return true
        }
        if drop { throw TransportError(.interrupted, "the connection was lost (dropped by the test)") }
        return response
    }
}
