import Airtable
@testable import DrinkShop
import Foundation
import HTTPServer
import Synchronization
import Testing
import TestSupport

/// Requests a one-shot `drinkshop order` costs on a remote base, counted at the server: the menu copy the
/// outbox keeps and the pickup number the previous process claimed spare the next process reading them.
@Suite struct OneShotRequestTests {
    @Test func backToBackOneShotOrdersCostThreeRequestsEach() async throws {
        let requests = Mutex<[String]>([])
        try await ServerHarness.with(intercept: { request, forward in
            requests.withLock { $0.append("\(request.method) \(request.path)") }
            return await forward(request)
        }) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            _ = try await Shop(store: server.base).settings.adopt(environment: [:])
            func order(_ name: String) async throws -> (output: String, requests: [String]) {
                requests.withLock { $0 = [] }
                let outcome = try await RemoteCommandLineTests.drinkshop(["order", "熟成紅茶", "中杯", "半糖", "少冰", "for", name],
                                                                          server: server, token: server.token)
                #expect(outcome.status == 0, "\(outcome.output)")
                return (outcome.output, requests.withLock { $0 })
            }
            let cold = try await order("Amy")
            #expect(cold.output.contains("取餐號 #1"))
            // The counter's letter, once for its outbox (highest, claim, check), then what every cold order costs.
            #expect(cold.requests.count == 12,
                    "letter: highest, claim, check; settings, staff (are PINs on?), menu, promotions, what is sold out (Setting), highest ticket, ticket, check, lines: \(cold.requests)")
            #expect(cold.requests.filter { $0.contains("/CounterLetter") }.count == 3)
            let warm = try await order("Ben")
            #expect(warm.output.contains("取餐號 #2"))
            #expect(warm.requests.count == 3, "ticket, check, lines: \(warm.requests)")
            #expect(!warm.requests.contains { $0.contains("/Drink") || $0.contains("/Promotion") || $0.contains("/User") })

            // A seed on this machine makes the next process read the menu again: a new drink is orderable.
            let seedFile = server.directory.appendingPathComponent("extra.json")
            try #"{"records":[{"fields":{"name":"測試奶茶","englishName":"Test Milk Tea","category":"歐蕾","medium":60,"large":70,"hotAvailable":true,"available":true}}]}"#
                .write(to: seedFile, atomically: true, encoding: .utf8)
            let seeded = try await RemoteCommandLineTests.drinkshop(["seed", seedFile.path], server: server, token: server.token)
            #expect(seeded.status == 0, "\(seeded.output)")
            requests.withLock { $0 = [] }
            let fresh = try await RemoteCommandLineTests.drinkshop(["order", "測試奶茶", "中杯", "半糖", "少冰", "for", "Cy"],
                                                                  server: server, token: server.token)
            #expect(fresh.status == 0, "\(fresh.output)")
            #expect(fresh.output.contains("取餐號 #3"))
            #expect(requests.withLock { $0 }.contains { $0.contains("/Drink") })
        }
    }
}
