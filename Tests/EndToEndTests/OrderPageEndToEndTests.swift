import Foundation
import Testing
import TestSupport

/// `drinkshop serve` carries the customers' ordering page at /order: tokenless, closed until a manager's
/// `online on` at any counter, its order placed through the shop and seen by the counter and the pickup screen.
@Suite(.timeLimit(.minutes(3)), .clearOfShopMidnight) struct OrderPageEndToEndTests {
    @Test func theServedPageTakesAnOrderOnceOnlineIsOnAndTheCounterSeesIt() async throws {
        let shop = try Drinkshop()
        let token = "pat" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let (database, directory) = (shop.database, shop.directory)
        let server = try await offThePool { try ServeProcess(database: database, directory: directory, token: token) }
        defer { server.stop() }
        let port = server.port
        func http(_ request: String) async throws -> String {
            try await offThePool { try RawHTTP.exchange(port: port, request) }
        }
        let counter = ["AIRTABLE_TOKEN": token, "AIRTABLE_BASE_ID": server.baseID,
                       "AIRTABLE_ENDPOINT_URL": "http://127.0.0.1:\(port)", "DRINKSHOP_OUTBOX": shop.directory + "/outbox.sqlite"]

        let closed = try await http("GET /order HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(closed.hasPrefix("HTTP/1.1 503") && closed.contains("目前未開放網路點餐"))
        let cookie = try #require(closed.split(separator: "\r\n").first { $0.hasPrefix("Set-Cookie: ") }?
            .dropFirst("Set-Cookie: ".count).split(separator: ";").first.map(String.init))
        #expect(try await shop.run(["online", "on"], database: false, environment: counter).status == 0)
        // The open page's forms carry this browser's token; a post sends it as the form does.
        let landing = try await http("GET /order HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n")
        let tokenStart = try #require(landing.range(of: #"name="token" value=""#))
        let formToken = landing[tokenStart.upperBound...].prefix { $0 != "\"" }

        func post(_ path: String, _ fields: String) async throws -> String {
            let body = "token=\(formToken)" + (fields.isEmpty ? "" : "&" + fields)
            return try await http("POST \(path) HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        }
        let started = try await post("/order/start", "name=Amy")
        #expect(started.hasPrefix("HTTP/1.1 303"))
        let group = try #require(started.split(separator: "\r\n").first { $0.hasPrefix("Location: ") }?.dropFirst("Location: ".count))
        let line = "drink=%E7%86%9F%E6%88%90%E7%B4%85%E8%8C%B6&size=%E5%A4%A7%E6%9D%AF&ice=%E5%B0%91%E5%86%B0&sugar=%E5%8D%8A%E7%B3%96&cups=1"
        #expect(try await post("\(group)/lines", line).hasPrefix("HTTP/1.1 303"))
        #expect(try await post("\(group)/send", "").hasPrefix("HTTP/1.1 303"))
        let page = try await http("GET \(group) HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n")
        #expect(page.contains(#"id="pickup-number">1<"#))

        // The counter (on the served base) sees the order, placed online, its line naming Amy.
        let listed = try await shop.run(["orders", "--json"], database: false, environment: counter)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains(#""note":"for Amy""#) && listed.stdout.contains(#""placedBy":"網路點單 online""#))
        // The pickup screen shows it; the API still wants its token.
        let events = try await offThePool { try RawHTTP.EventReader(port: port) }
        defer { events.close() }
        #expect(try await offThePool { try events.read(until: #""preparing":[1]"#) })
        #expect(try await http("GET /v0/\(server.baseID)/OrderDrink HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").hasPrefix("HTTP/1.1 401"))
        // Closed again at the counter: refused with the next request.
        #expect(try await shop.run(["online", "off"], database: false, environment: counter).status == 0)
        #expect(try await post("/order/start", "name=Ben").hasPrefix("HTTP/1.1 503"))
    }
}
