import Airtable
import DrinkShop
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
}
