import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import TestSupport
import Testing
import TestSupport

@Suite struct AuditTrailTests {
    @Test func entriesAreListedByMomentAndByBusinessDayOldestFirst() async throws {
        let fixture = try await ShopFixture(seeded: false)
        let noon = TestClock.noon
        try await fixture.shop.audit.record(AuditEntry(at: noon.addingTimeInterval(60), by: "阿明", action: .cancelOrder,
                                                       subject: "#3", detail: "customer left"))
        try await fixture.shop.audit.record([
            AuditEntry(at: noon, by: "小美", action: .void, subject: "#2", detail: "spilled"),
            AuditEntry(at: noon.addingTimeInterval(86_400), by: "小美", action: .deleteOrder, subject: "#1", detail: "typo"),
        ])
        let today = try await fixture.shop.audit.entries(from: noon.addingTimeInterval(-3600), to: noon.addingTimeInterval(3600))
        #expect(today.map(\.subject) == ["#2", "#3"])
        #expect(today.first?.action == .void && today.first?.by == "小美" && today.first?.detail == "spilled")
        let byDay = try await fixture.shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-30")
        #expect(byDay.map(\.subject) == ["#2", "#3", "#1"])
        #expect(try await fixture.shop.audit.entries(fromDay: "2026-11-30", throughDay: "2026-11-30").map(\.subject) == ["#1"])
        let rows = try await fixture.records(ShopSchema.auditTable)
        #expect(rows.compactMap { $0.fields["businessDay"]?.stringValue }.sorted() == ["2026-11-29", "2026-11-29", "2026-11-30"])
    }
}

@Suite struct OrderAuditEntryTests {
    /// Entries kept on orders (edit, cancel) and in AuditLog (delete) over two days, in time order: on the
    /// embedded store (a lookup per day) and over the record API (one listing for the range).
    @Test func entriesKeptOnOrdersAreMergedOverARangeOfDays() async throws {
        let fixture = try await ShopFixture()
        let api = Shop(store: CountingStore(fixture.base), clock: fixture.clock.shopClock)
        let tea = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        for _ in 0..<3 { _ = try await fixture.shop.orders.place(tea, placedBy: "Ken") }
        _ = try await fixture.shop.orders.edit(.pickup(1), line: nil, change: LineChangeDraft(options: [.size(.large)]), by: "Ken")
        fixture.clock.advance(by: 60)
        _ = try await fixture.shop.orders.delete(.pickup(2), by: "Ken")
        fixture.clock.advance(by: 86_400)
        _ = try await fixture.shop.orders.place(tea, placedBy: "Mei")
        _ = try await fixture.shop.orders.cancel(.pickup(1), reason: "left", by: "Mei")
        for shop in [fixture.shop, api] {
            let both = try await shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-30")
            #expect(both.map(\.action) == [.editOrder, .deleteOrder, .cancelOrder])
            #expect(both.map(\.by) == ["Ken", "Ken", "Mei"])
            #expect(try await shop.audit.entries(fromDay: "2026-11-30", throughDay: "2026-11-30").map(\.action) == [.cancelOrder])
        }
        // Yesterday's #3, still open, cancelled today: its entry is in AuditLog under today.
        fixture.clock.advance(by: 60)
        _ = try await fixture.shop.orders.cancel(.onDay(3, day: "2026-11-29"), reason: "never came", by: "Mei")
        let today = try await fixture.shop.audit.entries(fromDay: "2026-11-30", throughDay: "2026-11-30")
        #expect(today.map(\.subject) == ["#1", "#3@2026-11-29"])
    }
}

@Suite struct ShopSettingsTests {
    @Test func aCounterOnUTCWritesTheZoneByTheNameItsTZGivesNotGMT() async throws {
        let fixture = try await ShopFixture(seeded: false)
        // Foundation calls a machine on TZ=UTC "GMT"; the store gets the name staff set.
        let gmt = try #require(TimeZone(identifier: "GMT"))
        let adopted = try await fixture.shop.settings.adopt(environment: ["TZ": "UTC"], machineTimeZone: gmt)
        #expect(adopted.written == ["timeZone": "UTC"])
        let other = try await fixture.secondCounter().settings.adopt(environment: ["TZ": ":Asia/Taipei"], machineTimeZone: gmt)
        #expect(other.written.isEmpty && other.timeZone.secondsFromGMT() == 0)
        let fresh = try await ShopFixture(seeded: false)
        let taipei = try await fresh.shop.settings.adopt(environment: ["TZ": ":Asia/Taipei"], machineTimeZone: TestClock.taipei)
        #expect(taipei.written == ["timeZone": "Asia/Taipei"])
        // A TZ naming another zone than the machine's is not believed.
        let odd = try await ShopFixture(seeded: false)
        let mismatched = try await odd.shop.settings.adopt(environment: ["TZ": "Asia/Tokyo"], machineTimeZone: TestClock.taipei)
        #expect(mismatched.written == ["timeZone": "Asia/Taipei"])
    }

    @Test func theFirstCounterWritesItsZoneAndLaterCountersGoByTheStore() async throws {
        let fixture = try await ShopFixture(seeded: false)
        let first = try await fixture.shop.settings.adopt(environment: [:], machineTimeZone: TestClock.taipei)
        #expect(first.written == ["timeZone": "Asia/Taipei"])
        let utcCounter = fixture.secondCounter()
        let second = try await utcCounter.settings.adopt(environment: [:], machineTimeZone: TimeZone(identifier: "UTC")!)
        #expect(second.timeZone.identifier == "Asia/Taipei" && second.written.isEmpty)
        #expect(utcCounter.clock.timeZone.identifier == "Asia/Taipei")
    }

    @Test func theEnvironmentSetsTheStoresSettingForEveryCounterWithAnAuditEntry() async throws {
        let fixture = try await ShopFixture(seeded: false)
        try await fixture.shop.settings.adopt(environment: [:], machineTimeZone: TestClock.taipei)
        let counter = fixture.secondCounter()
        let adopted = try await counter.settings.adopt(environment: ["DRINKSHOP_DAY_STARTS": "05:00", "DRINKSHOP_TIME_ZONE": "UTC"])
        #expect(adopted.written == ["dayStarts": "05:00", "timeZone": "UTC"])
        #expect(try await fixture.shop.settings.stored() == ["dayStarts": "05:00", "timeZone": "UTC"])
        // Another counter without the variables now counts days the same way.
        let other = fixture.secondCounter()
        try await other.settings.adopt(environment: [:], machineTimeZone: TestClock.taipei)
        #expect(other.clock.dayStart.description == "05:00" && other.clock.timeZone.secondsFromGMT() == 0)
        let log = try await fixture.shop.audit.entries(fromDay: "2026-11-01", throughDay: "2026-12-31")
        #expect(log.filter { $0.action == .changeSetting }.map(\.detail).contains("Asia/Taipei -> UTC"))
        #expect(log.filter { $0.action == .changeSetting }.map(\.detail).contains("unset -> 05:00"))
    }

    @Test func aValueThatCannotBeReadIsRefusedAndNothingIsWritten() async throws {
        let fixture = try await ShopFixture(seeded: false)
        await #expect(throws: ShopError.self) {
            try await fixture.shop.settings.adopt(environment: ["DRINKSHOP_DAY_STARTS": "25:00"])
        }
        await #expect(throws: ShopError.self) {
            try await fixture.shop.settings.adopt(environment: ["DRINKSHOP_TIME_ZONE": "Mars/Olympus"])
        }
        #expect(try await fixture.shop.settings.stored().isEmpty)
    }

    @Test func aDayStartingAtFiveCountsTheSmallHoursWithTheDayBefore() throws {
        let clock = ShopClock(timeZone: TestClock.taipei, dayStart: try BusinessDayStart(parsing: "05:00"))
        // 2026-11-30 02:00 in Taipei is 2026-11-29 18:00 UTC.
        let twoAM = Date(timeIntervalSince1970: 1_795_924_800 + 14 * 3600)
        #expect(clock.businessDay(of: twoAM) == "2026-11-29")
        #expect(clock.businessDay(of: twoAM.addingTimeInterval(3 * 3600)) == "2026-11-30")
        let bounds = clock.bounds(of: "2026-11-29")
        #expect(clock.businessDay(of: bounds.start) == "2026-11-29")
        #expect(clock.businessDay(of: bounds.end.addingTimeInterval(-1)) == "2026-11-29")
        #expect(clock.businessDay(of: bounds.end) == "2026-11-30")
        let notADay = "2026-02-30"
        #expect(throws: BusinessDayError.notADate(notADay)) { try BusinessDay(notADay) }
        let lastOfNovember: BusinessDay = "2026-11-30"
        #expect(lastOfNovember.next == "2026-12-01")
        #expect(throws: BusinessDayStartError.self) { try BusinessDayStart(parsing: "5am") }
    }
}
