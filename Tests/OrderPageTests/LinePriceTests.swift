import Foundation
import Testing
@testable import OrderPage

/// The drink page prices a line as the group's page then shows it: with the promotion the counter would give
/// the group's lines, worked out on the server (`LinePricing`), the page's script only looking the price up.
@Suite struct LinePriceTests {
    @Test func theDrinkPageShowsTheLinePriceTheGroupPageThenShows() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            // One 熟成紅茶 大杯 ($40) first; 第二杯半價 is running.
            _ = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "大杯", ice: "少冰", sugar: "半糖"))
            let form = try await amy.get(group + "/drink?d=" + FormFields.encode("熟成紅茶"))
            // As first drawn (中杯 $35, one cup): the second cup of the pair, half off.
            #expect(form.body.contains(#"id="price">$18<"#))
            #expect(form.body.contains(#"id="price-was">$35<"#))
            // What the script shows for 中杯 with 白玉, two cups ($90): one of them is the cheaper of a pair, $17 off.
            let prices = try Self.prices(in: form.body)
            let entry = try #require(prices["中杯"]?["加白玉"]?[1])
            #expect(entry == [73, 90])
            _ = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖",
                                                                  addOns: ["加白玉"], cups: 2))
            let page = try await amy.get(group).body
            // The group's page shows that line at the price the drink page showed, and its lines add up to its total.
            let amounts = Self.lineAmounts(in: page)
            #expect(amounts == [1: 40, 2: 73])
            #expect(page.contains(#"id="total">$113<"#))
            // The counter prices the sent order the same.
            _ = try await amy.post(group + "/send")
            let (orders, _) = try await live.shop.orders.today()
            #expect(orders.first?.order.total == 113)
        }
    }

    @Test func withoutAPromotionEveryChoiceIsPricedAsTheCounterPricesIt() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            // 熟成紅茶 alone, one line: no pair, no percentage; sizes and add-ons as the menu prices them.
            let form = try await amy.get(group + "/drink?d=" + FormFields.encode("熟成紅茶"))
            #expect(form.body.contains(#"id="price">$35<"#) && form.body.contains(#"id="price-was"></s>"#))
            let prices = try Self.prices(in: form.body)
            #expect(prices["中杯"]?[""]?.first == [35])
            #expect(prices["大杯"]?["加白玉,加水玉"]?.first == [60])
            // More add-ons than a cup may have are not priced: the form's post refuses them.
            #expect(prices["大杯"]?["加白玉,加水玉,加菓玉"] == nil)
            #expect(prices["大杯"]?[""]?.count == 20)
        }
    }

    /// The script's table from the page's `<script data-prices>`: each entry as `[due]` or `[due, before]`.
    static func prices(in body: String) throws -> [String: [String: [[Int]]]] {
        let start = try #require(body.range(of: #"data-prices=""#))
        let end = try #require(body[start.upperBound...].firstIndex(of: "\""))
        let text = String(body[start.upperBound..<end]).replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: [String: [Any]]])
        return json.mapValues { rows in
            rows.mapValues { entries in entries.map { ($0 as? [Int]) ?? (($0 as? Int).map { [$0] } ?? []) } }
        }
    }

    /// Each line's amount as the group's page shows it (after any strike-through of its price before the promotion).
    static func lineAmounts(in page: String) -> [Int: Int] {
        var amounts: [Int: Int] = [:]
        let pattern = #/data-line="(\d+)".*?<div class="amount">(?:<s class="was">[^<]*</s> )?\$(\d+)</div>/#
        for match in page.matches(of: pattern.dotMatchesNewlines()) {
            if let line = Int(match.1), let amount = Int(match.2) { amounts[line] = amount }
        }
        return amounts
    }
}
