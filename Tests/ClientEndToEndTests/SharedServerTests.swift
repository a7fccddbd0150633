import Airtable
import AirtableHTTP
import AirtableServer
@testable import DrinkShop
import DrinkShopCore
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Several counters on one server, and the client's pacing against the server's rate limit.
@Suite struct SharedServerTests {
    @Test func twoCountersPlacingOrdersAtOnceGetUniquePickupNumbers() async throws {
        try await ServerHarness.with { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            // Two clients with their own throttles, as two processes would have.
            let counters = [Shop(store: try server.client()), Shop(store: try server.client())]
            let placed = try await withThrowingTaskGroup(of: [StoredOrder].self) { group in
                for (index, shop) in counters.enumerated() {
                    group.addTask {
                        var orders: [StoredOrder] = []
                        for number in 1...8 {
                            let draft = OrderDraft(orderName: "counter \(index + 1) guest \(number)", lines: [
                                LineDraft(drink: "熟成紅茶", options: [.size(.large), .ice(.less), .sugar(.half)]),
                                LineDraft(drink: "白玉歐蕾", options: [.size(.medium), .ice(.regular), .sugar(.less)]),
                            ])
                            orders.append(try await shop.orders.place(draft, placedBy: "counter \(index + 1)"))
                        }
                        return orders
                    }
                }
                var all: [StoredOrder] = []
                for try await orders in group { all += orders }
                return all
            }
            let numbers = placed.map(\.order.pickupNumber).sorted()
            // Unique; claims made in the same instant may both give way and leave a number unused.
            #expect(Set(numbers).count == 16)
            #expect(numbers.allSatisfy { $0 >= 1 })
            let lines = try await server.base.allRecords(in: ShopSchema.orderTable)
            #expect(lines.count == 32)
            #expect(Set(lines.compactMap { $0.fields["ref"]?.stringValue }).count == 32)
            let (orders, problems) = try await counters[0].orders.today()
            #expect(orders.map(\.order.pickupNumber) == numbers)
            #expect(problems.isEmpty)
        }
    }

    /// The pacing proof of `RequestThrottle`, checked against the server's own limiter: send times from
    /// the throttle, each delayed by up to 0.4 s of network jitter, never find the bucket empty.
    /// Seeded, so every run checks the same 20 histories (a fresh random one each run let the control
    /// below find no refusal now and then).
    @Test func theThrottleNeverTripsTheServersRateLimiterWithinItsJitterAllowance() {
        for seed in UInt64(1)...20 {
            for burst in [1, 2, 3] {
                let allowance = Double(5 - burst) / 5
                #expect(Self.refusals(burst: burst, jitter: allowance * 0.999, seed: seed) == 0,
                        "burst \(burst), \(allowance) s of jitter, seed \(seed)")
            }
            // The control: a client bursting as much as the bucket holds has no room for jitter at all.
            #expect(Self.refusals(burst: 5, jitter: 0.4, seed: seed) > 0, "seed \(seed)")
        }
    }

    /// Requests refused by a server limiter of 5 per second when the throttle paces 400 eager requests
    /// and the network delays each by 50 ms plus up to `jitter` seconds.
    private static func refusals(burst: Int, jitter: Double, seed: UInt64) -> Int {
        var generator = SplitMix64(seed: seed)
        let throttle = RequestThrottle(requestsPerSecond: 5, burst: burst)
        var ready = 0.0
        var arrivals: [Double] = []
        for _ in 0..<400 {
            ready += Double.random(in: 0..<0.25, using: &generator) * (Bool.random(using: &generator) ? 1 : 0)
            let send = throttle.reserve(at: ready)
            arrivals.append(send + 0.05 + Double.random(in: 0...jitter, using: &generator))
        }
        let clock = TestClock()
        let limiter = RateLimiter(requestsPerSecond: 5, penalty: 0, clock: clock.monotonic)
        var refused = 0
        for arrival in arrivals.sorted() {
            clock.advance(by: arrival - clock.seconds)
            if !limiter.admit(base: "app1").allowed { refused += 1 }
        }
        return refused
    }

    @Test func aPacedClientSeesNo429FromARateLimitedServer() async throws {
        let statuses = Mutex<[Int]>([])
        try await ServerHarness.with(rateLimiter: RateLimiter(requestsPerSecond: 5), intercept: { request, forward in
            let response = await forward(request)
            statuses.withLock { $0.append(response.status) }
            return response
        }) { server in
            try await Shop(store: server.base).createMissingSchema()
            // The defaults: 5 requests per second, bursts of 3, shared by every task of the client.
            let client = try server.client(requestsPerSecond: 5, burst: nil)
            await withTaskGroup(of: Void.self) { group in
                for task in 0..<3 {
                    group.addTask {
                        for number in 0..<7 {
                            _ = try? await client.createRecords(in: "Drink", [["name": .string("drink \(task)-\(number)")]],
                                                                options: WriteOptions())
                        }
                    }
                }
            }
            let seen = statuses.withLock { $0 }
            #expect(seen.count == 21)
            #expect(seen.allSatisfy { $0 == 200 })
            #expect(try await server.base.allRecords(in: "Drink").count == 21)
        }
    }
}
