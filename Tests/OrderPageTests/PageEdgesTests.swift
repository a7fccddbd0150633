@testable import DrinkShop
import DrinkShopCore
import Foundation
import Testing
@testable import OrderPage

/// The page's edges: markup hidden in a grapheme cluster stays text, no script runs inline, and a post from
/// anywhere but the browser's own page (its form token) changes nothing.
@Suite(.timeLimit(.minutes(2))) struct PageEdgesTests {
    @Test func markupBehindCombiningMarksAndNumberSignsStaysText() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser(), ben = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            _ = try await ben.get(group)
            // A quote with a combining mark: one Character, and once no `"` to escape.
            #expect(try await ben.post(group + "/join", [("name", "x\"\u{301} onclick=alert(1) y")]).status == 303)
            #expect(try await ben.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖",
                                                                     note: "<\u{301}svg onload=alert(2)>")).status == 303)
            let page = try await amy.get(group)
            #expect(page.status == 200)
            #expect(!page.body.contains("\"\u{301} onclick") && page.body.contains("x&quot;\u{301} onclick=alert(1) y"))
            #expect(!page.body.unicodeScalars.contains { $0 == "<" } || !page.body.contains("<\u{301}svg"))
            #expect(page.body.contains("&lt;\u{301}svg onload=alert(2)&gt;"))
            // A number sign (U+0600) is a hidden scalar: refused in a note, and a drink link carrying one is text.
            let hidden = try await ben.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖",
                                                                          note: "\u{600}<svg onload=alert(3)>"))
            #expect(hidden.status == 422 && hidden.body.contains("不可有隱藏字元"))
            let link = try await ben.get(group + "/drink?d=%D8%80%3Csvg%20onload%3Dalert(4)%3E")
            #expect(!link.body.contains("<svg") && link.body.contains("&lt;svg onload=alert(4)&gt;"))
        }
    }

    @Test func namesAndNotesAreBoundedInBytesAndVisible() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            // Twenty Chinese characters are 60 bytes: a name. (Six starts fit one address's burst.)
            #expect(try await amy.post("/order/start", [("name", String(repeating: "王", count: 20))]).status == 303)
            // 20 "characters", 2.5 KB.
            let heavy = String(repeating: "a" + String(repeating: "\u{301}", count: 60), count: 20)
            #expect(try await amy.post("/order/start", [("name", heavy)]).status == 422)
            for hidden in ["Amy\u{202E}", "A\u{200B}my", "A\u{1B}[2Kmy", "\u{410}my"] {
                #expect(try await amy.post("/order/start", [("name", hidden)]).status == 422, "\(hidden.debugDescription)")
            }
        }
    }

    @Test func aPostWithoutThePagesTokenChangesNothing() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser(), mallory = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            #expect(try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖")).status == 303)
            // Another page of the same site posts Amy's send with her cookie, through a redirect (`Origin: null`).
            amy.sendsFormToken = false
            amy.origin = "null"
            let foreign = try await amy.post(group + "/send")
            #expect(foreign.status == 403 && foreign.body.contains("重新整理"))
            // Nor does another browser's token pass for hers.
            _ = try await mallory.get("/order")
            let stolen = try await mallory.post("/order/start", [("name", "Mallory")])
            #expect(stolen.status == 303)
            #expect(try await amy.post(group + "/send", [("token", String(repeating: "0", count: 64))]).status == 403)
            #expect(try await amy.get(group).body.contains("id=\"send\""))
            // Her own page's form still sends.
            amy.sendsFormToken = true
            amy.origin = nil
            _ = try await amy.get(group)
            #expect(try await amy.post(group + "/send").status == 303)
            #expect(try await amy.get(group).body.contains("pickup-number"))
        }
    }
}
