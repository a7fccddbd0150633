import Foundation
import Testing
import TestSupport

/// `soldout 白玉` at one counter, over the served base: the customers' page greys out 加白玉 and says why 白玉歐蕾 is
/// out, a group holding 加白玉 is refused at send in the shop's words, and a second counter refuses 白玉歐蕾 with the
/// reason; a guessed name changes nothing anywhere.
@Suite(.timeLimit(.minutes(3)), .clearOfShopMidnight) struct SoldOutEndToEndTests {
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    @Test func anIngredientSoldOutAtOneCounterReachesThePageAndTheOtherCounter() async throws {
        let shop = try Drinkshop()
        let token = "pat" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let (database, directory) = (shop.database, shop.directory)
        let server = try await offThePool { try ServeProcess(database: database, directory: directory, token: token) }
        defer { server.stop() }
        let port = server.port
        func http(_ request: String) async throws -> String {
            try await offThePool { try RawHTTP.exchange(port: port, request) }
        }
        func counter(_ name: String) -> [String: String] {
            ["AIRTABLE_TOKEN": token, "AIRTABLE_BASE_ID": server.baseID, "AIRTABLE_ENDPOINT_URL": "http://127.0.0.1:\(port)",
             "DRINKSHOP_OUTBOX": shop.directory + "/\(name).sqlite"]
        }
        let first = counter("first"), second = counter("second")
        #expect(try await shop.run(["online", "on"], database: false, environment: first).status == 0)

        let landing = try await http("GET /order HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let cookie = try #require(landing.split(separator: "\r\n").first { $0.hasPrefix("Set-Cookie: ") }?
            .dropFirst("Set-Cookie: ".count).split(separator: ";").first.map(String.init))
        let tokenStart = try #require(landing.range(of: #"name="token" value=""#))
        let formToken = landing[tokenStart.upperBound...].prefix { $0 != "\"" }
        func get(_ path: String) async throws -> String {
            try await http("GET \(path) HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nConnection: close\r\n\r\n")
        }
        func post(_ path: String, _ fields: String) async throws -> String {
            let body = "token=\(formToken)" + (fields.isEmpty ? "" : "&" + fields)
            return try await http("POST \(path) HTTP/1.1\r\nHost: x\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        }
        let started = try await post("/order/start", "name=Amy")
        let group = String(try #require(started.split(separator: "\r\n").first { $0.hasPrefix("Location: ") }?.dropFirst("Location: ".count)))
        let line = ["drink": "熟成紅茶", "size": "中杯", "ice": "少冰", "sugar": "半糖", "addon": "加白玉", "cups": "1"]
            .map { "\($0.key)=\(Self.encoded($0.value))" }.joined(separator: "&")
        #expect(try await post("\(group)/lines", line).hasPrefix("HTTP/1.1 303"), "the line is taken while 白玉 is in")

        // A guess at the second counter changes nothing, and says what it could have meant.
        let guessed = try await shop.run(["soldout", "白"], database: false, environment: second)
        #expect(guessed.status != 0 && guessed.stderr.contains("加白玉 (add-on 加料)") && guessed.stderr.contains("nothing was changed"))
        let before = try await get("\(group)/menu")
        #expect(before.contains("白玉歐蕾") && !before.contains("售完（白玉已售完）"))

        let soldOut = try await shop.run(["soldout", "白玉"], database: false, environment: second)
        #expect(soldOut.status == 0, "\(soldOut.stderr)")
        #expect(soldOut.stdout.contains("白玉 is sold out (售完) on every counter. With it: 加白玉, 白玉歐蕾."))

        // The page: 白玉歐蕾 out with its reason, 加白玉 greyed out, the group holding it refused at send.
        #expect(try await get("\(group)/menu").contains("售完（白玉已售完）Sold out"))
        #expect(try await get("\(group)/drink?d=\(Self.encoded("熟成紅茶"))").contains(#"value="加白玉" disabled"#))
        let sent = try await post("\(group)/send", "")
        #expect(!sent.hasPrefix("HTTP/1.1 303") && sent.contains("加白玉已售完"), "\(sent.prefix(300))")

        // The first counter: refused with the reason; the menu says what is out.
        let order = try await shop.run(["order", "白玉歐蕾", "M", "少冰", "半糖"], database: false, environment: first)
        #expect(order.status != 0 && order.stderr.contains("白玉歐蕾 售完（白玉已售完）"), "\(order.stderr)")
        let menu = try await shop.run(["menu"], database: false, environment: first)
        #expect(menu.stdout.contains("加白玉 White Tapioca 售完 sold out"))

        // Restocked at the first counter: the page sends the group.
        #expect(try await shop.run(["restock", "白玉"], database: false, environment: first).status == 0)
        #expect(try await post("\(group)/send", "").hasPrefix("HTTP/1.1 303"))
    }
}
