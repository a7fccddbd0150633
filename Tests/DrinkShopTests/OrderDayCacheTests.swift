import Airtable
import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Testing

/// A counter on a remote base keeps a copy of the day's list and asks only what changed.
@Suite struct OrderDayCacheTests {
    static func tea(_ fixture: ShopFixture, for name: String? = nil) -> OrderDraft {
        OrderDraft(orderName: name, lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
    }

    /// A counter over the record API (the wrapper is not the embedded store) beside the embedded one.
    static func remoteCounter(_ fixture: ShopFixture) -> (Shop, CountingStore) {
        let counting = CountingStore(fixture.base)
        return (Shop(store: counting, clock: fixture.clock.shopClock), counting)
    }

    static func numbers(_ orders: [StoredOrder]) -> [Int] { orders.map(\.order.pickupNumber) }

    @Test func onceReadTheListCostsOneRequestAndShowsOtherCountersChanges() async throws {
        let fixture = try await ShopFixture()
        for _ in 0..<150 { _ = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken") }
        fixture.clock.advance(by: 60)   // placed a minute before this counter looks
        let (remote, counting) = Self.remoteCounter(fixture)
        let first = try await remote.orders.today().orders
        #expect(first.count == 150)
        fixture.clock.advance(by: 5)
        _ = try await fixture.shop.orders.advance(.pickup(5))
        _ = try await fixture.shop.orders.place(Self.tea(fixture, for: "Amy"), placedBy: "Mei")
        let before = counting.requests
        let second = try await remote.orders.today().orders
        #expect(counting.requests - before == 1, "only what changed since the last look")
        #expect(second.count == 151 && Self.numbers(second) == Array(1...151))
        #expect(second.first { $0.order.pickupNumber == 5 }?.order.status == .preparing)
        #expect(second.last?.order.orderName == "Amy")
    }

    @Test func anOrderRemovedElsewhereLeavesWithinAMinuteAndOwnRemovalsAtOnce() async throws {
        let fixture = try await ShopFixture()
        for _ in 0..<4 { _ = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken") }
        let (remote, counting) = Self.remoteCounter(fixture)
        #expect(Self.numbers(try await remote.orders.today().orders) == [1, 2, 3, 4])
        _ = try await remote.orders.delete(.pickup(4), by: "Mei")
        _ = try await fixture.shop.orders.delete(.pickup(3), by: "Ken")
        fixture.clock.advance(by: 10)
        // Its own removal at once; another counter's is not in "what changed"…
        #expect(Self.numbers(try await remote.orders.today().orders) == [1, 2, 3])
        // …and leaves with the next whole read, at most a minute later.
        fixture.clock.advance(by: OrderDayCache.fullReadIntervalForTests)
        _ = try await remote.catalog.menu()   // the menu's own re-read (every 30 s) is not the list's
        let before = counting.requests
        #expect(Self.numbers(try await remote.orders.today().orders) == [1, 2])
        #expect(counting.requests - before == 1, "a small day is one page")
    }

    @Test func anEarlierDaysOpenOrderLeavesTheListOnceFinishedAndANewDayIsReadWhole() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.orders.place(Self.tea(fixture, for: "Amy"), placedBy: "Ken")   // #1 of the 29th
        _ = try await fixture.shop.orders.place(Self.tea(fixture, for: "Ben"), placedBy: "Ken")   // #2 of the 29th
        let (remote, _) = Self.remoteCounter(fixture)
        _ = try await remote.orders.advance(.pickup(2))
        #expect(Self.numbers(try await remote.orders.today().orders) == [1, 2])
        fixture.clock.advance(by: 86_400)
        _ = try await fixture.shop.orders.place(Self.tea(fixture, for: "Cat"), placedBy: "Ken")   // #1 of the 30th
        let newDay = try await remote.orders.today().orders
        #expect(newDay.map(\.order.orderName) == ["Cat", "Amy", "Ben"])
        fixture.clock.advance(by: 5)
        for _ in 0..<2 { _ = try await fixture.shop.orders.advance(.onDay(2, day: "2026-11-29")) }   // picked up
        _ = try await fixture.shop.orders.cancel(.onDay(1, day: "2026-11-29"), reason: "never came", by: "Ken")
        #expect(try await remote.orders.today().orders.map(\.order.orderName) == ["Cat"])
    }

    /// Until the counter knows the base's clock, each look reaches 30 s back; once one of its own orders
    /// has shown the difference (here none), only 2 s, so a busy minute is not fetched again and again.
    @Test func aLookReachesBackOnlyAsFarAsTheClocksDiffer() async throws {
        let fixture = try await ShopFixture()
        for _ in 0..<150 { _ = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken") }
        let (remote, counting) = Self.remoteCounter(fixture)
        _ = try await remote.orders.today()
        fixture.clock.advance(by: 10)
        var before = counting.requests
        _ = try await remote.orders.today()
        #expect(counting.requests - before == 2, "the last 30 s again: 150 records, two pages")
        _ = try await remote.orders.place(Self.tea(fixture, for: "Amy"), placedBy: "Mei")
        _ = try await remote.orders.today()
        fixture.clock.advance(by: 10)
        before = counting.requests
        let list = try await remote.orders.today().orders
        #expect(counting.requests - before == 1 && list.count == 151)
    }
}
