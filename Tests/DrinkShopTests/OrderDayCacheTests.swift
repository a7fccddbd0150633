import Airtable
import AirtableFormula
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import TestSupport
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

    @Test func anOrderInTheCopyMovesOnWithOneWriteAndRecordsWhenEachStepWasReached() async throws {
        let fixture = try await ShopFixture()
        let (remote, counting) = Self.remoteCounter(fixture)
        _ = try await remote.orders.place(Self.tea(fixture), placedBy: "Ken")
        _ = try await remote.orders.today()
        for expected in [OrderStatus.preparing, .ready, .pickedUp] {
            fixture.clock.advance(by: 60)
            _ = try await remote.catalog.menu()
            let before = counting.requests
            let moved = try await remote.orders.advance(.pickup(1))
            #expect(moved.order.status == expected && counting.requests - before == 1)
        }
        let line = try #require(try await fixture.records(ShopSchema.orderTable).first)
        let times = [OrderField.preparingAt, .readyAt, .pickedUpAt].compactMap { line.fields[$0.rawValue]?.stringValue }
        #expect(times.count == 3 && times == times.sorted())
        // Not in the copy (an earlier day's order, a number not seen yet): found first, as before.
        _ = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken")
        let before = counting.requests
        #expect(try await remote.orders.advance(.pickup(2)).order.status == .preparing)
        #expect(counting.requests - before == 2)
    }

    @Test func aCopyOvertakenByAnotherCounterNeverMovesAnOrderBackNorUndoesACancellation() async throws {
        let fixture = try await ShopFixture()
        let (remote, _) = Self.remoteCounter(fixture)
        for _ in 0..<2 { _ = try await remote.orders.place(Self.tea(fixture), placedBy: "Ken") }
        _ = try await remote.orders.today()   // the copy: #1 and #2 placed
        // Meanwhile the make line (another counter) finishes #1 and a cashier cancels #2.
        _ = try await fixture.shop.orders.advance(.pickup(1))
        _ = try await fixture.shop.orders.advance(.pickup(1))
        _ = try await fixture.shop.orders.cancel(.pickup(2), reason: "customer left", by: "Mei")
        let first = await #expect(throws: ShopError.self) { _ = try await remote.orders.advance(.pickup(1)) }
        #expect(first?.description == "order #1 was moved on at another counter meanwhile: it is ready (nothing else changed) (已在其他櫃台變更)")
        let second = await #expect(throws: ShopError.self) { _ = try await remote.orders.advance(.pickup(2)) }
        #expect(second?.description == "order #2 was cancelled at another counter meanwhile; it stays cancelled (nothing changed) (已在其他櫃台取消)")
        let now = try await fixture.shop.orders.today().orders
        #expect(now.map(\.order.status) == [.ready, .cancelled])
        #expect(now.last?.order.cancelReason == "customer left")
        // The copy now knows: the next advance picks #1 up.
        #expect(try await remote.orders.advance(.pickup(1)).order.status == .pickedUp)
    }

    /// A remote base set up by an earlier version has no step fields: moving on still works (found
    /// first, status only), after one refused write.
    @Test func aBaseWithoutTheStepFieldsStillMovesOrdersOn() async throws {
        let clock = TestClock(TestClock.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let steps: Set<String> = [OrderField.preparingAt.rawValue, OrderField.readyAt.rawValue, OrderField.pickedUpAt.rawValue]
        for spec in ShopSchema.tables {
            var old = spec
            old.fields.removeAll { steps.contains($0.name) }
            _ = try await base.createTable(old)
        }
        let shop = Shop(store: CountingStore(base), clock: clock.shopClock)
        _ = try await shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        _ = try await shop.orders.place(OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)])]),
                                        placedBy: "Ken")
        _ = try await shop.orders.today()
        #expect(try await shop.orders.advance(.pickup(1)).order.status == .preparing)
        #expect(try await shop.orders.advance(.pickup(1)).order.status == .ready)
        #expect(try await shop.orders.today().orders.first?.order.status == .ready)
        #expect(try await base.schema().table(ShopSchema.orderTable)?.field(OrderField.preparingAt.rawValue) == nil)
    }
}
