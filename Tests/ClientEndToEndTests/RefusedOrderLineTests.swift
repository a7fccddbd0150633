import Airtable
@testable import DrinkShop
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// The built `drinkshop` binary placing one-shot orders on a base that refuses them with a 429: the order
/// is kept in the outbox and the counter says why in one line (the rate limit, or the monthly quota and
/// what it means), never the generic "cannot be reached"; the kept orders are sent later, once each.
@Suite struct RefusedOrderLineTests {
    @Test func rateLimitedAndOverQuotaOrdersAreKeptWithAClearLine() async throws {
        let refusal = Mutex<String?>(nil)
        try await ServerHarness.with(intercept: { request, forward in
            if let type = refusal.withLock({ $0 }), request.method != "GET", request.path.contains("OrderDrink") {
                var refused = HTTPResponse.json(#"{"error":{"type":"\#(type)","message":"refused by the test"}}"#, status: 429)
                // A short penalty, so the counter's own wait (and this test) stays short.
                refused.headers.add(name: "Retry-After", value: "1")
                return refused
            }
            return await forward(request)
        }) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            let order = ["order", "熟成紅茶", "中杯", "半糖", "少冰", "for"]

            refusal.withLock { $0 = "PUBLIC_API_BILLING_LIMIT_EXCEEDED" }
            let overQuota = try await RemoteCommandLineTests.drinkshop(order + ["Amy"], server: server, token: server.token)
            #expect(overQuota.output.contains("not yet sent: the base's monthly API call quota is used up "
                + "(429 PUBLIC_API_BILLING_LIMIT_EXCEEDED); orders are kept on this counter until the quota resets "
                + "or the plan is upgraded"), "\(overQuota.output)")
            #expect(!overQuota.output.contains("cannot be reached"))

            refusal.withLock { $0 = "RATE_LIMIT_REACHED" }
            let limited = try await RemoteCommandLineTests.drinkshop(order + ["Ben"], server: server, token: server.token)
            #expect(limited.output.contains("not yet sent: the store is rate limiting this base (429, too many requests "
                + "at once, about 30 s); kept on this counter and sent once the base takes requests again"), "\(limited.output)")
            #expect(!limited.output.contains("cannot be reached"))
            #expect(try await server.base.allRecords(in: ShopSchema.orderTable).isEmpty)

            refusal.withLock { $0 = nil }
            let later = try await RemoteCommandLineTests.drinkshop(order + ["Cy"], server: server, token: server.token)
            #expect(later.status == 0, "\(later.output)")
            let lines = try await server.base.allRecords(in: ShopSchema.orderTable)
            let byName = Dictionary(lines.map { ($0.fields["orderName"]?.stringValue ?? "?", $0.fields["pickupNumber"]?.intValue ?? 0) },
                                    uniquingKeysWith: { first, _ in first })
            #expect(Set(byName.keys) == ["Amy", "Ben", "Cy"], "every order arrives once: \(byName)")
            #expect(lines.count == 3)
            #expect(Set(byName.values).count == 3)
        }
    }

    /// Airtable's penalty after a 429 is 30 s, and the counter's deadline is 30 s: before, every order in
    /// that half minute waited for the base to take requests again (about 30 s each) and then failed.
    /// Now the first refusal hands the order to the outbox and the next ones go there without a request.
    @Test("a REPL on a base answering 429 keeps every order at once, with one refused request")
    func aRateLimitedCounterDoesNotStall() async throws {
        let refusing = Mutex(false)
        let refusedWrites = Mutex(0)
        try await ServerHarness.with(intercept: { request, forward in
            if refusing.withLock({ $0 }), request.method != "GET", request.path.contains("OrderDrink") {
                refusedWrites.withLock { $0 += 1 }
                var refused = HTTPResponse.json(#"{"error":{"type":"RATE_LIMIT_REACHED","message":"refused by the test"}}"#, status: 429)
                refused.headers.add(name: "Retry-After", value: "30")
                return refused
            }
            return await forward(request)
        }) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            refusing.withLock { $0 = true }
            let input = (1...3).map { "order 熟成紅茶 中杯 半糖 少冰 for P\($0)\n" }.joined()
            let started = Date()
            let repl = try await RemoteCommandLineTests.drinkshop([], server: server, token: server.token, input: input)
            let seconds = Date().timeIntervalSince(started)
            // The first order keeps the number it claimed before its lines were refused; the others wait
            // for theirs.
            #expect(repl.output.contains("Order placed — 取餐號 #1\nnot yet sent: the store is rate limiting"), "\(repl.output)")
            // The counter claimed its letter (A) before its first prompt: no order is written there.
            for number in 1...2 {
                #expect(repl.output.contains("kept on this counter as #A-P\(number)"), "\(repl.output)")
            }
            #expect(refusedWrites.withLock { $0 } == 1, "only the first order was sent before the base's hold was known")
            // A guard against the half-minute wait, not a speed target: three holds would be 90 s.
            #expect(seconds < 25, "the counter was held \(seconds) s")
            #expect(try await server.base.allRecords(in: ShopSchema.orderTable).isEmpty)
        }
    }
}
