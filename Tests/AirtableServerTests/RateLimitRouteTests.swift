import Airtable
import Testing
@testable import AirtableServer

/// `--rate-limit`: over the limit the API answers 429 with Retry-After, performs nothing, and keeps
/// refusing for the penalty (reference §8, §12.6).
@Suite struct RateLimitRouteTests {
    @Test func overTheLimitWritesAreRefusedUnperformedWithRetryAfter() async throws {
        let api = try await APIHarness(rateLimit: 5, penalty: 30)
        for index in 0..<5 {
            let reply = await api.send("POST", api.path(), json: ["fields": kebukeLine(name: "cup \(index)")])
            #expect(reply.status == 200)
        }
        let refused = await api.send("POST", api.path(), json: ["fields": kebukeLine(name: "one too many")])
        #expect(refused.status == 429)
        #expect(refused.json == ["error": ["type": "RATE_LIMIT_REACHED", "message": "Rate limit exceeded. Please try again later"]])
        #expect(refused.header("Retry-After") == "30")
        // Everything is refused during the penalty, reads, deletes and retries alike, and nothing happens.
        api.clock.advance(by: 12)
        let ids = try await api.orders().keys.sorted()
        let retry = await api.send("POST", api.path(), json: ["fields": kebukeLine(name: "one too many")])
        #expect(retry.status == 429 && retry.header("Retry-After") == "18")
        #expect(await api.send("DELETE", api.path("OrderDrink", "/\(ids[0])")).status == 429)
        #expect(await api.get(api.path()).status == 429)
        let stored = try await api.orders()
        #expect(stored.count == 5)
        #expect(!stored.values.contains { $0["orderName"] == "one too many" })
        // After the penalty the base answers again.
        api.clock.advance(by: 18.5)
        let after = await api.send("POST", api.path(), json: ["fields": kebukeLine(name: "later")])
        #expect(after.status == 200)
        #expect(try await api.orders().count == 6)
    }

    @Test func withoutALimitBurstsAreServed() async throws {
        let api = try await APIHarness()
        for _ in 0..<50 { #expect(await api.get(api.path()).status == 200) }
    }

    @Test func preflightsAndRefusedCredentialsDoNotSpendTheBudget() async throws {
        let api = try await APIHarness(rateLimit: 2, penalty: 30)
        for _ in 0..<5 {
            _ = await api.send("OPTIONS", api.path(), token: nil)
            _ = await api.get(api.path(), token: "patWRONG12345678")
        }
        #expect(await api.get(api.path()).status == 200)
        #expect(await api.get(api.path()).status == 200)
        #expect(await api.get(api.path()).status == 429)
    }
}
