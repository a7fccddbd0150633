import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Synchronization
import TestSupport
import Testing

@Suite struct BusinessDayTests {
    static func tea(_ fixture: ShopFixture, for name: String? = nil) -> OrderDraft {
        OrderDraft(orderName: name, lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
    }

    @Test func anOrderLeftOpenOvernightIsFoundByItsNumberAndTodaysNumberWins() async throws {
        let fixture = try await ShopFixture()
        let shop = fixture.shop
        _ = try await shop.orders.place(Self.tea(fixture, for: "Amy"), placedBy: "Ken")   // #1 on the 29th
        _ = try await shop.orders.place(Self.tea(fixture, for: "Ben"), placedBy: "Ken")   // #2 on the 29th
        fixture.clock.advance(by: 86_400)
        let today = try await shop.orders.place(Self.tea(fixture, for: "Cat"), placedBy: "Ken")
        #expect(today.order.pickupNumber == 1 && today.businessDay == "2026-11-30")
        // #2: today has none, so yesterday's open #2.
        let advanced = try await shop.orders.advance(.pickup(2))
        #expect(advanced.order.orderName == "Ben" && advanced.businessDay == "2026-11-29" && advanced.order.status == .preparing)
        // #1: today's; yesterday's #1 by its day.
        #expect(try await shop.orders.find(.pickup(1)).order.orderName == "Cat")
        let amy = try await shop.orders.cancel(.onDay(1, day: "2026-11-29"), reason: "never came", by: "Mei")
        #expect(amy.order.orderName == "Amy" && amy.order.status == .cancelled)
        // Finished orders of earlier days are not found by the bare number.
        await #expect(throws: ShopError.self) { try await shop.orders.find(.pickup(3)) }
        let log = try await shop.audit.entries(fromDay: "2026-11-30", throughDay: "2026-11-30")
        #expect(log.map(\.subject) == ["#1@2026-11-29"] && log.first?.by == "Mei" && log.first?.action == .cancelOrder)
    }

    @Test func twoEarlierDaysWithTheSameOpenNumberMustBeNamed() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken")
        fixture.clock.advance(by: 86_400)
        _ = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken")
        fixture.clock.advance(by: 86_400)
        do {
            _ = try await fixture.shop.orders.find(.pickup(1))
            Issue.record("an ambiguous number was resolved")
        } catch {
            guard case .ambiguousOrder(.pickup(1), let choices) = error else { throw error }
            #expect(choices == [.onDay(1, day: "2026-11-29"), .onDay(1, day: "2026-11-30")])
        }
        let open = try await fixture.shop.orders.today().orders
        #expect(open.map(\.businessDay) == ["2026-11-29", "2026-11-30"])
    }

    @Test func theDayStartsAtTheStoresSettingAndNumbersRestartThen() async throws {
        let fixture = try await ShopFixture()
        try await fixture.shop.settings.adopt(environment: ["DRINKSHOP_DAY_STARTS": "05:00"], machineTimeZone: TestClock.taipei)
        // Noon on the 29th, then 02:00 on the 30th: still the 29th's business day.
        _ = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken")
        fixture.clock.advance(by: 14 * 3600)
        let late = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken")
        #expect(late.order.pickupNumber == 2 && late.businessDay == "2026-11-29")
        fixture.clock.advance(by: 3 * 3600)
        let morning = try await fixture.shop.orders.place(Self.tea(fixture), placedBy: "Ken")
        #expect(morning.order.pickupNumber == 1 && morning.businessDay == "2026-11-30")
        let (orders, _) = try await fixture.shop.orders.orders(from: "2026-11-29", through: "2026-11-29")
        #expect(orders.map(\.order.pickupNumber) == [1, 2])
        // A day that does not exist is refused where the text is read (a front turns it into `ShopError.notADay`).
        let november31 = "2026-11-31"
        #expect(throws: BusinessDayError.notADate(november31)) { try BusinessDay(november31) }
        await #expect(throws: ShopError.self) { try await fixture.shop.orders.orders(from: "2026-12-01", through: "2026-11-01") }
    }

    @Test func onlyPlacedOrdersAreDeletedAndMadeOnesAreVoidedWithATrace() async throws {
        let fixture = try await ShopFixture()
        let shop = fixture.shop
        for name in ["Amy", "Ben", "Cat"] { _ = try await shop.orders.place(Self.tea(fixture, for: name), placedBy: "Ken") }
        for _ in 0..<3 { _ = try await shop.orders.advance(.pickup(2)) }
        do {
            _ = try await shop.orders.delete(.pickup(2), by: "Ken")
            Issue.record("a picked-up order was deleted")
        } catch {
            guard case .notDeletable(.pickup(2), status: .pickedUp) = error else { throw error }
            // What staff are told to do instead, whole.
            #expect(error.description == "order #2 is picked up; only placed orders can be deleted (只有已下單的訂單可以刪除). "
                + "Void it instead, with a reason: void #2 REASON")
        }
        do {
            _ = try await shop.orders.void(.pickup(3), reason: "oops", by: "Ken")
            Issue.record("a placed order was voided")
        } catch {
            guard case .status(.voidNotNeeded(order: 3)) = error else { throw error }
            #expect(error.description == "order #3 is only placed, nothing was made yet: cancel it (cancel #3 REASON) or delete it (尚未製作，請取消或刪單)")
        }
        let voided = try await shop.orders.void(.pickup(2), reason: "spilled", by: "Mei")
        #expect(voided.order.isVoided && voided.order.voidedBy == "Mei" && voided.order.cancelReason == "spilled")
        // A minute apart: the void and the edit are kept on their orders, the delete in AuditLog, and the
        // trail merges them in time order.
        fixture.clock.advance(by: 60)
        _ = try await shop.orders.delete(.pickup(3), by: "Ken")
        fixture.clock.advance(by: 60)
        _ = try await shop.orders.edit(.pickup(1), line: nil, change: LineChangeDraft(options: [.size(.large)]), by: "Ken")

        let (orders, _) = try await shop.orders.orders(from: "2026-11-29", through: "2026-11-29")
        #expect(orders.map(\.order.pickupNumber) == [1, 2])
        let stored = try #require(orders.last)
        #expect(stored.order.isVoided && stored.order.voidedBy == "Mei")
        let audit = try await shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29")
        #expect(audit.map(\.action) == [.void, .deleteOrder, .editOrder])
        #expect(audit[0].detail.contains("picked up") && audit[0].detail.contains("spilled"))
        #expect(audit[2].detail.contains("中杯") && audit[2].detail.contains("大杯"))
        let report = DailyReport(days: DayRange("2026-11-29"), orders: orders.map(\.order), audit: audit)
        #expect(report.orders == 1 && report.voidedOrders == 1 && report.voidedAmount == voided.order.total)
        #expect(report.revenue == orders[0].order.total)
        #expect(report.voids.map(\.voidedBy) == ["Mei"] && report.voids.map(\.reason) == ["spilled"])
        #expect(report.auditCounts == ["void": 1, "deleteOrder": 1, "editOrder": 1])
    }

    @Test func findingOneOrderIsOneFilteredReadWhateverTheDaysSize() async throws {
        let fixture = try await ShopFixture()
        let counting = CountingStore(fixture.base)
        let shop = Shop(store: counting, clock: fixture.clock.shopClock)
        for _ in 0..<40 { _ = try await shop.orders.place(Self.tea(fixture), placedBy: "Ken") }
        _ = try await shop.orders.find(.pickup(1))   // the menu is read once and cached
        let before = counting.requests
        _ = try await shop.orders.advance(.pickup(17))
        #expect(counting.requests - before == 2, "one filtered read and one write")
        let beforeCancel = counting.requests
        _ = try await shop.orders.cancel(.pickup(18), reason: "left", by: "Ken")
        #expect(counting.requests - beforeCancel == 2, "one filtered read, one write carrying the audit entry")
    }
}

@Suite struct StoreUpgradeTests {
    /// A store as the version before the audit trail made it: no AuditLog, no Setting, no voidedBy, no till
    /// copy or audit cell on orders (an order placed on it then is written without them).
    @Test func aStoreWithoutTheNewTablesIsUpgradedInPlaceAndItsOrdersStayFinishable() async throws {
        let clock = TestClock(TestClock.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let new: Set<String> = [ShopSchema.auditTable, ShopSchema.settingTable]
        for spec in ShopSchema.tables where !new.contains(spec.name) {
            var old = spec
            let added = Set([OrderField.voidedBy, .paid, .refunded, .paidBy, .refundedBy, .bill, .audit].map(\.rawValue))
            old.fields.removeAll { spec.name == ShopSchema.orderTable && added.contains($0.name) }
            _ = try await base.createTable(old)
        }
        let shop = Shop(store: base, clock: clock.shopClock)
        _ = try await shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        let draft = OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)])])
        _ = try await shop.orders.place(draft, placedBy: "Ken")
        _ = try await shop.orders.advance(.pickup(1))

        let created = try await shop.createMissingSchema()
        #expect(Set(created) == ["table AuditLog", "table Setting", "field OrderDrink.voidedBy", "field OrderDrink.paid",
                                 "field OrderDrink.refunded", "field OrderDrink.paidBy", "field OrderDrink.refundedBy",
                                 "field OrderDrink.bill", "field OrderDrink.audit", "table OnlineGroup"])
        // The order placed before carries no copy of the till: the till reads the ledger for it.
        #expect(try await shop.orders.find(.pickup(1)).till == nil)
        #expect(try await shop.missingSchema().isEmpty)
        let voided = try await shop.orders.void(.pickup(1), reason: "spilled", by: "Mei")
        #expect(voided.order.isVoided)
        #expect(try await shop.orders.find(.pickup(1)).order.voidedBy == "Mei")
        #expect(try await shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29").map(\.action) == [.void])
    }
}

/// A remote base an earlier version set up (no till copy or audit cells on orders): the first write refused
/// for an unknown field reads the base's schema once, and the writes after it leave those fields out without
/// another refusal; nothing reads the error's text.
@Suite struct OlderBaseFieldsTests {
    @Test func theSchemaIsReadOnceAndLaterWritesLeaveOutWhatTheBaseLacks() async throws {
        let clock = TestClock(TestClock.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let added = Set([OrderField.voidedBy, .paid, .refunded, .paidBy, .refundedBy, .bill, .audit].map(\.rawValue))
        for spec in ShopSchema.tables {
            var old = spec
            old.fields.removeAll { spec.name == ShopSchema.orderTable && added.contains($0.name) }
            _ = try await base.createTable(old)
        }
        let store = CountingStore(base)
        let shop = Shop(store: store, clock: clock.shopClock)
        _ = try await shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        let draft = OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)])])
        let first = try await store.requests { _ = try await shop.orders.place(draft, placedBy: "Ken") }
        #expect(first.filter { $0 == "GET meta" }.count == 1, "\(first)")
        let second = try await store.requests { _ = try await shop.orders.place(draft, placedBy: "Ken") }
        #expect(!second.contains("GET meta"), "\(second)")
        // No write of the second order was refused: as many writes as an order on an up-to-date base.
        let writes = second.filter { $0.hasPrefix("PATCH") || $0.hasPrefix("POST") }.count
        #expect(writes == first.filter { $0.hasPrefix("PATCH") || $0.hasPrefix("POST") }.count - 1)
        #expect(try await shop.orders.find(.pickup(2)).order.lines.count == 1)
    }
}
