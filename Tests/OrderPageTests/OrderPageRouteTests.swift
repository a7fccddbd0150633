@testable import DrinkShop
import DrinkShopCore
import Foundation
import Testing
@testable import OrderPage

// Waits are generous (the full suite saturates the two-core pool); how fast the page follows the counter is
// measured in a real browser by scripts/order-check, not asserted here.
@Suite(.timeLimit(.minutes(2))) struct OrderPageRouteTests {
    @Test func threePeopleOrderAsOneGroupAndTheCounterSeesOneOrderWithThreeNamedLines() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser(), ben = live.browser(), cara = live.browser()
            let landing = try await amy.get("/order")
            #expect(landing.status == 200 && landing.body.contains("開始點餐"))
            #expect(amy.cookieValue != nil)
            let started = try await amy.post("/order/start", [("name", "Amy"), ("mobile", "")])
            #expect(started.status == 303)
            let group = try #require(started.location)

            // Ben and Cara open the link in their own browsers and join with their names.
            for (browser, name) in [(ben, "Ben"), (cara, "Cara")] {
                let invite = try await browser.get(group)
                #expect(invite.status == 200 && invite.body.contains("加入揪團") && invite.body.contains("Amy 的揪團"))
                #expect(try await browser.post(group + "/join", [("name", name)]).status == 303)
            }

            // 菓玉 in a hot drink is refused with the shop's words, the choices kept; corrected, it is taken.
            let hot = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "大杯", ice: "熱", sugar: "半糖", addOns: ["加菓玉"]))
            #expect(hot.status == 422)
            #expect(hot.body.contains("菓玉無法於溫熱飲中製作"))
            #expect(hot.body.contains(#"value="熱" checked"#) && hot.body.contains(#"value="加菓玉" checked"#))
            #expect(try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "大杯", ice: "少冰", sugar: "半糖", addOns: ["加菓玉"])).status == 303)
            #expect(try await ben.post(group + "/lines", drinkFields("白玉歐蕾", size: "中杯", ice: "去冰", sugar: "微糖", cups: 2, note: "少一點奶")).status == 303)
            #expect(try await cara.post(group + "/lines", drinkFields("雪花冷露", size: "大杯", ice: "正常冰", sugar: "無糖")).status == 303)

            // Everyone sees every line and the running total; only their own lines have buttons.
            let seen = try await cara.get(group)
            for name in ["Amy", "Ben", "Cara", "熟成紅茶", "白玉歐蕾", "雪花冷露", "合計"] { #expect(seen.body.contains(name)) }
            #expect(seen.body.components(separatedBy: "/delete\"").count - 1 == 1)
            // Ben cannot delete Amy's line, nor send the group.
            #expect(try await ben.post(group + "/lines/1/delete").status == 403)
            #expect(try await ben.post(group + "/send").status == 403)

            let sent = try await amy.post(group + "/send")
            #expect(sent.status == 303)
            #expect(live.placed.value == 1)
            let after = try await ben.get(group)
            #expect(after.body.contains(#"id="pickup-number">1<"#))
            #expect(after.body.contains("付款請至櫃台"))

            // The counter: one order, for Amy, placed online, each line naming its person.
            let (orders, _) = try await live.shop.orders.today()
            #expect(orders.count == 1)
            let order = try #require(orders.first).order
            #expect(order.orderName == "Amy")
            #expect(order.placedBy == Counter.onlineFront)
            #expect(order.lines.map(\.drinkName) == ["熟成紅茶", "白玉歐蕾", "雪花冷露"])
            #expect(order.lines.map(\.note) == ["for Amy", "for Ben · 少一點奶", "for Cara"])
            #expect(order.lines.map(\.quantity) == [1, 2, 1])
            // Nothing changes once sent.
            #expect(try await cara.post(group + "/lines", drinkFields("雪花冷露", size: "中杯", ice: "少冰", sugar: "無糖")).status == 409)
        }
    }

    @Test func aSentGroupsPageFollowsTheOrderThroughTheCounter() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser(), ben = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            _ = try await ben.get(group)
            _ = try await ben.post(group + "/join", [("name", "Ben")])
            let events = try ben.events(group + "/events")
            #expect(await events.read(until: "event: group") != nil)
            // Amy's line and her send each move the group on, which Ben's page hears.
            _ = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖"))
            _ = try await amy.post(group + "/send")
            #expect(await events.read(until: #""status":"placed""#) != nil)
            try await live.advance(1)
            #expect(await events.read(until: #""label":"製作中"#) != nil)
            try await live.advance(1)
            #expect(await events.read(until: #""label":"可取餐"#) != nil)
            let page = try await ben.get(group)
            #expect(page.body.contains(#"data-status="ready""#))
            events.close()
            // Another browser that is not in the group hears nothing.
            let stranger = live.browser()
            _ = try await stranger.get("/order")
            let refused = try stranger.events(group + "/events")
            #expect(await refused.read(until: "403") != nil)
        }
    }

    @Test func aCancelledOrdersPageSaysSoAndThatNothingIsDue() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            _ = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖"))
            _ = try await amy.post(group + "/send")
            #expect(try await amy.get(group).body.contains("應付"))
            _ = try await live.shop.counter.cancel(.pickup(1), reason: "客人沒來", by: live.manager)
            live.signal.changed()
            let page = try await amy.get(group)
            #expect(page.body.contains(#"data-status="cancelled""#) && page.body.contains("已取消"))
            #expect(page.body.contains("不需付款") && page.body.contains("nothing is due"))
            #expect(!page.body.contains("應付") && !page.body.contains("Due:") && !page.body.contains("id=\"steps\""))
        }
    }

    @Test func aDrinkSwappedAtTheCounterShowsOnTheCustomersPageWithItsPrice() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser(), ben = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            _ = try await ben.get(group)
            _ = try await ben.post(group + "/join", [("name", "Ben")])
            _ = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖", note: "少冰塊"))
            _ = try await ben.post(group + "/lines", drinkFields("麗春紅茶", size: "中杯", ice: "去冰", sugar: "無糖"))
            _ = try await amy.post(group + "/send")
            let before = try await amy.get(group).body
            let sentTotal = try await live.shop.orders.find(.pickup(1)).order.total
            #expect(before.contains("<div>熟成紅茶") && !before.contains("太妃紅茶") && before.contains("應付 \(PageLayout.money(sentTotal))"))
            // Staff swap Amy's drink for a dearer one: her line, her note, her name stay; the price follows.
            let edited = try await live.shop.counter.edit(.pickup(1), line: 1, change: LineChangeDraft(drink: "太妃紅茶"), by: live.manager)
            live.signal.changed()
            #expect(edited.order.total != sentTotal)
            for viewer in [amy, ben] {
                let page = try await viewer.get(group).body
                #expect(page.contains("<div>太妃紅茶") && page.contains("<div>麗春紅茶") && !page.contains("<div>熟成紅茶"))
                #expect(page.contains("應付 \(PageLayout.money(edited.order.total))") && page.contains("id=\"total\">\(PageLayout.money(edited.order.total))<"))
                #expect(page.contains("備註：少冰塊") && !page.contains("for Amy"))
            }
            // Amy's swapped line is still hers: first on her page, under her name.
            let amysPage = try await amy.get(group).body
            let amysCard = try #require(amysPage.range(of: "data-person=\"Amy\""))
            let bensCard = try #require(amysPage.range(of: "data-person=\"Ben\""))
            let swapped = try #require(amysPage.range(of: "<div>太妃紅茶"))
            #expect(amysCard.lowerBound < swapped.lowerBound && swapped.lowerBound < bensCard.lowerBound)
        }
    }

    @Test func afterTheDayIsClosedThePageTakesNoNewGroupOrSendUntilTheNextDay() async throws {
        try await LiveOrderServer.run { live in
            _ = try await live.shop.counter.openShift(float: 0, by: live.manager)
            let amy = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            #expect(try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖")).status == 303)
            _ = try await live.shop.counter.closeDrawer(counted: 0, by: live.manager)
            let landing = try await amy.get("/order")
            #expect(landing.status == 503 && landing.body.contains("今日已打烊") && !landing.body.contains("action=\"/order/start\""))
            let start = try await amy.post("/order/start", [("name", "Ben")])
            #expect(start.status == 503 && start.body.contains("今日已打烊"))
            #expect(try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖")).status == 503)
            let send = try await amy.post(group + "/send")
            #expect(send.status == 503 && send.body.contains("今日已打烊"))
            #expect(try await live.shop.orders.today().orders.isEmpty)
            // The next business day the page takes orders again.
            live.clock.advance(by: 24 * 3600)
            #expect(try await amy.get("/order").status == 200)
            #expect(try await amy.post("/order/start", [("name", "Ben")]).status == 303)
        }
    }

    @Test func onlineOffRefusesPolitelyAndAtOnce() async throws {
        try await LiveOrderServer.run(online: false) { live in
            let amy = live.browser()
            let closed = try await amy.get("/order")
            #expect(closed.status == 503 && closed.body.contains("目前未開放網路點餐"))
            #expect(!closed.body.contains("action=\"/order/start\""))
            // A form opened while online, sent after ordering closed.
            try await live.setOnline(true)
            _ = try await amy.get("/order")
            try await live.setOnline(false)
            #expect(try await amy.post("/order/start", [("name", "Amy")]).status == 503)
            try await live.setOnline(true)
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            #expect(try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖")).status == 303)
            try await live.setOnline(false)
            let refused = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖"))
            #expect(refused.status == 503 && refused.body.contains("目前未開放網路點餐"))
            let send = try await amy.post(group + "/send")
            #expect(send.status == 503 && send.body.contains("目前未開放網路點餐"))
            // The group is still there to look at, and nothing was placed.
            #expect(try await amy.get(group).body.contains("熟成紅茶"))
            #expect(try await live.shop.orders.today().orders.isEmpty)
        }
    }

    @Test func eachAddressIsLimitedInGroupsLinesAndSends() async throws {
        try await LiveOrderServer.run(limits: {
            $0.groupsPerNetwork = .init(burst: 2, every: 600)
            $0.linesPerNetwork = .init(burst: 3, every: 60)
            $0.sendsPerNetwork = .init(burst: 1, every: 300)
        }) { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            let first = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            let second = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            let third = try await amy.post("/order/start", [("name", "Amy")])
            #expect(third.status == 429 && third.header("Retry-After") == "600" && third.body.contains("開團太頻繁"))
            let line = drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖")
            for _ in 0..<3 { #expect(try await amy.post(first + "/lines", line).status == 303) }
            #expect(try await amy.post(first + "/lines", line).status == 429)
            live.clock.advance(by: 60)
            #expect(try await amy.post(second + "/lines", line).status == 303)
            #expect(try await amy.post(first + "/send").status == 303)
            let again = try await amy.post(second + "/send")
            #expect(again.status == 429 && again.body.contains("送單太頻繁"))
            live.clock.advance(by: 300)
            #expect(try await amy.post(second + "/send").status == 303)
        }
    }

    @Test func openOnlineOrdersAreBounded() async throws {
        try await LiveOrderServer.run(limits: { $0.openOnlineOrders = 1 }) { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            let line = drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖")
            let first = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            let second = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            _ = try await amy.post(first + "/lines", line)
            _ = try await amy.post(second + "/lines", line)
            #expect(try await amy.post(first + "/send").status == 303)
            let refused = try await amy.post(second + "/send")
            #expect(refused.status == 503 && refused.body.contains("1 張網路訂單在製作"))
            // The group takes changes again, and once the first order is collected the second goes.
            #expect(try await amy.post(second + "/lines", line).status == 303)
            for _ in 0..<2 { try await live.advance(1) }
            try await live.advance(1, unpaid: true)
            #expect(try await amy.post(second + "/send").status == 303)
            #expect(try await live.shop.orders.today().orders.count == 2)
        }
    }

    @Test func thePageReachesNothingButItsOwnGroups() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser(), ben = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            _ = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖"))
            // A guessed group id is nothing.
            let guessed = try await amy.get("/order/g/\(GroupID.make().hex)")
            #expect(guessed.status == 404 && guessed.body.contains("找不到這個揪團"))
            // A browser not in the group sees the join form, not the lines, and cannot open a line's form.
            _ = try await ben.get("/order")
            let invite = try await ben.get(group)
            #expect(invite.body.contains("加入揪團") && !invite.body.contains("少冰"))
            #expect(try await ben.get(group + "/lines/1").status == 403)
            #expect(try await ben.get(group + "/menu").status == 303)
            // No cookie, no change; a form from another site is refused.
            let noCookie = Browser(port: live.port)
            #expect(try await noCookie.post("/order/start", [("name", "Eve")]).status == 403)
            amy.origin = "http://evil.example"
            #expect(try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖")).status == 403)
            // A browser hiding where its form came from (`Origin: null`) still needs the page's cookie.
            amy.origin = "null"
            #expect(try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖")).status == 303)
            noCookie.origin = "null"
            #expect(try await noCookie.post("/order/start", [("name", "Eve")]).status == 403)
            amy.origin = "http://127.0.0.1:\(live.port)"
            // Paths beside the page go to the token-protected API, untouched.
            #expect(try await amy.get("/v0/app/OrderDrink").status == 401)
            #expect(try await amy.get("/orders").status == 401)
            #expect(try await amy.get("/order/staff").status == 404)
            #expect(try await amy.get("/order/start").status == 405)
            // A form that is not the page's is refused whole.
            let odd = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "特大杯", ice: "少冰", sugar: "半糖"))
            #expect(odd.status == 400 && odd.body.contains("尺寸"))
            #expect(try await amy.post(group + "/lines", drinkFields("珍珠奶茶", size: "中杯", ice: "少冰", sugar: "半糖")).status == 422)
        }
    }

    @Test func anExpiredGroupIsGoneAndSaysSo() async throws {
        try await LiveOrderServer.run(limits: { $0.groupLifetime = 60 * 60 }) { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            #expect(try await amy.get(group).body.contains("揪團保留到 13:00"))   // started at noon, on the shop's clock
            live.clock.advance(by: 60 * 60 + 1)
            let gone = try await amy.get(group)
            #expect(gone.status == 404 && gone.body.contains("已過期"))
            let late = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "中杯", ice: "少冰", sugar: "半糖"))
            #expect(late.status == 404 && late.body.contains("開新的揪團"))
            #expect(live.page.book.count == 0)
        }
    }

    @Test func theMenuShowsSoldOutDrinksWithoutLettingThemBeOrdered() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            let menu = try await amy.get(group + "/menu")
            #expect(menu.status == 200)
            // Categories in the shop's order, each drink with its prices.
            let order = ["季節限定", "單品茶", "調茶", "雲蓋", "歐蕾"].compactMap { menu.body.range(of: "<h2>\($0)")?.lowerBound }
            #expect(order.count == 5 && order == order.sorted())
            #expect(menu.body.contains("中 $35 / 大 $40"))
            // 草莓檸果 is sold out in the seeds: shown, marked, not a link.
            #expect(menu.body.contains("草莓檸果") && menu.body.contains("售完"))
            #expect(!menu.body.contains("d=" + FormFields.encode("草莓檸果")))
            let soldOut = try await amy.get(group + "/drink?d=" + FormFields.encode("草莓檸果"))
            #expect(soldOut.status == 422 && soldOut.body.contains("已售完"))
            // Sold out at a counter (another process's Shop on the same store): the next page shows it, not after
            // the catalog's 30 s.
            let counter = Shop(store: live.base, clock: live.shop.clock)
            _ = try await counter.counter.changeMenu("熟成紅茶", .soldOut, by: live.manager)
            let after = try await amy.get(group + "/menu")
            #expect(!after.body.contains("d=" + FormFields.encode("熟成紅茶")))
            _ = try await counter.counter.changeMenu("熟成紅茶", .restock, by: live.manager)
            // The drink form: the drink's sizes, all temperatures (heated ones off for a cold-only drink), sugars, add-ons.
            let form = try await amy.get(group + "/drink?d=" + FormFields.encode("熟成檸果"))
            #expect(form.body.contains(#"value="大杯""#) && form.body.contains("+$10"))
            #expect(form.body.contains(#"value="熱" disabled"#))
            #expect(form.body.components(separatedBy: #"name="sugar""#).count - 1 == 7)
            #expect(form.body.components(separatedBy: #"name="ice""#).count - 1 == 8)
            #expect(form.body.components(separatedBy: #"type="checkbox" name="addon""#).count - 1 == 3)
            // Nothing is loaded from elsewhere; the one script is the page's own file, and no script is inline.
            #expect(!form.body.contains("<link") && !form.body.contains("https://"))
            #expect(form.body.components(separatedBy: "src=").count == 2 && form.body.contains("<script src=\"/order/script/price.js\" data-prices="))
            #expect(!form.body.contains("<script>"))
            let policy = try #require(form.header("Content-Security-Policy"))
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self';") && !policy.contains("script-src 'unsafe-inline'"))
            let script = try await amy.get("/order/script/price.js")
            #expect(script.status == 200 && script.header("Content-Type") == "text/javascript; charset=utf-8" && script.body.contains("drink-form"))
        }
    }

    @Test func theRunningTotalAppliesThePromotionTheCounterWould() async throws {
        try await LiveOrderServer.run { live in
            let amy = live.browser()
            _ = try await amy.get("/order")
            let group = try #require(try await amy.post("/order/start", [("name", "Amy")]).location)
            // Two 熟成紅茶 大杯 ($40 each): 第二杯半價 takes $20 off.
            _ = try await amy.post(group + "/lines", drinkFields("熟成紅茶", size: "大杯", ice: "少冰", sugar: "半糖", cups: 2))
            let page = try await amy.get(group)
            #expect(page.body.contains("第二杯半價"))
            #expect(page.body.contains(#"id="total">$60<"#))
            // Her own line's form comes filled as she ordered it; three cups: $120 less $20.
            let form = try await amy.get(group + "/lines/1")
            #expect(form.status == 200 && form.body.contains(#"value="少冰" checked"#) && form.body.contains(#"name="cups" value="2""#))
            #expect(form.body.contains("更新 Update"))
            #expect(try await amy.post(group + "/lines/1", drinkFields("熟成紅茶", size: "大杯", ice: "少冰", sugar: "半糖", cups: 3)).status == 303)
            #expect(try await amy.get(group).body.contains(#"id="total">$100<"#))
            _ = try await amy.post(group + "/send")
            let (orders, _) = try await live.shop.orders.today()
            #expect(orders.first?.order.total == 100)
        }
    }
}
