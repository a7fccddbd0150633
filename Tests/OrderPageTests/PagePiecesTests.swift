import Testing
@testable import OrderPage

@Suite struct NetworkQuotaTests {
    @Test func aBurstThenOneMorePerInterval() {
        var quota = NetworkQuota(.init(burst: 3, every: 60))
        for _ in 0..<3 { #expect(quota.take("10.0.0.1", now: 0) == .allowed) }
        #expect(quota.take("10.0.0.1", now: 0) == .wait(seconds: 60))
        // Another address has its own bucket.
        #expect(quota.take("10.0.0.2", now: 0) == .allowed)
        #expect(quota.take("10.0.0.1", now: 45) == .wait(seconds: 15))
        #expect(quota.take("10.0.0.1", now: 60) == .allowed)
        #expect(quota.take("10.0.0.1", now: 61) == .wait(seconds: 59))
        // Refilled, but never past the burst.
        for _ in 0..<3 { #expect(quota.take("10.0.0.1", now: 10_000) == .allowed) }
        #expect(quota.take("10.0.0.1", now: 10_000) != .allowed)
    }

    @Test func addressesWhoseBucketsAreFullAgainAreForgotten() {
        var quota = NetworkQuota(.init(burst: 2, every: 10), pruneAbove: 100)
        for index in 0..<100 { _ = quota.take("10.0.\(index / 256).\(index % 256)", now: 0) }
        #expect(quota.count == 100)
        // Much later every bucket is full again: the next new address drops them.
        _ = quota.take("192.168.0.1", now: 1_000)
        #expect(quota.count <= 1)
        // An address still short of tokens is kept (forgetting it would hand it a fresh burst).
        var busy = NetworkQuota(.init(burst: 1, every: 1_000), pruneAbove: 2)
        _ = busy.take("a", now: 0)
        _ = busy.take("b", now: 0)
        _ = busy.take("c", now: 1)
        #expect(busy.count == 3)
        #expect(busy.take("a", now: 2) != .allowed)
    }
}

@Suite struct FormFieldsTests {
    @Test func browsersFormsAreRead() throws {
        let body = "drink=%E7%86%9F%E6%88%90%E7%B4%85%E8%8C%B6&size=%E5%A4%A7%E6%9D%AF&addon=%E5%8A%A0%E7%99%BD%E7%8E%89&addon=%E5%8A%A0%E6%B0%B4%E7%8E%89&note=less+ice+%26+more&cups=2&empty="
        let form = try #require(FormFields(Array(body.utf8)))
        #expect(form["drink"] == "熟成紅茶")
        #expect(form["size"] == "大杯")
        #expect(form.all("addon") == ["加白玉", "加水玉"])
        #expect(form["note"] == "less ice & more")
        #expect(form["empty"] == "")
        #expect(form["missing"] == nil)
    }

    @Test func malformedFormsAreRefusedWhole() {
        #expect(FormFields(Array("a=%E7%86".utf8)) == nil)   // cut UTF-8
        #expect(FormFields(Array("a=%zz".utf8)) == nil)
        #expect(FormFields(Array("a=%4".utf8)) == nil)
        #expect(FormFields(Array(repeating: UInt8(ascii: "a"), count: FormFields.maximumBytes + 1)) == nil)
        #expect(FormFields(Array(String(repeating: "a=1&", count: FormFields.maximumFields + 1).utf8)) == nil)
    }

    @Test func encodingRoundTrips() throws {
        let text = "白玉歐蕾 & co/?#"
        let form = try #require(FormFields(query: "d=" + FormFields.encode(text)))
        #expect(form["d"] == text)
        #expect(!FormFields.encode(text).contains(" "))
    }

    @Test func theCookieKeyIsFoundAmongOthersAndCheckedForShape() {
        let key = BrowserKey.make()
        #expect(BrowserCookie.key(in: ["theme=dark; dsorder=\(key.hex); other=1"]) == key)
        #expect(BrowserCookie.key(in: ["a=b", "dsorder=\(key.hex)"]) == key)
        #expect(BrowserCookie.key(in: ["dsorder=not-a-key"]) == nil)
        #expect(BrowserCookie.key(in: ["xdsorder=\(key.hex)"]) == nil)
        let setting = BrowserCookie.setting(key)
        #expect(setting.contains("HttpOnly") && setting.contains("SameSite=Lax") && setting.contains("Path=/order"))
    }

    @Test func routesAreExactAndGroupIdsWellFormed() {
        let id = GroupID.make()
        #expect(OrderPage.Route(path: "/order") == .landing)
        #expect(OrderPage.Route(path: "/order/") == .landing)
        #expect(OrderPage.Route(path: "/order/start") == .start)
        #expect(OrderPage.Route(path: "/order/g/\(id.hex)") == .group(id))
        #expect(OrderPage.Route(path: "/order/g/\(id.hex)/lines/3/delete") == .deleteLine(id, 3))
        #expect(OrderPage.Route(path: "/order/g/\(id.hex)/lines/0") == nil)
        #expect(OrderPage.Route(path: "/order/g/\(id.hex)/lines/-1") == nil)
        #expect(OrderPage.Route(path: "/order/g/NOTANID/menu") == nil)
        #expect(OrderPage.Route(path: "/order/g/\(id.hex)/../../v0") == nil)
        #expect(OrderPage.Route(path: "/order/staff") == nil)
    }
}
