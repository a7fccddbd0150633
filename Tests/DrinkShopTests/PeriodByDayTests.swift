@testable import DrinkShop
import DrinkShopCore
import Foundation
import Testing

/// A period's report and export read a business day at a time give what reading the whole period at
/// once gives.
@Suite struct PeriodByDayTests {
    /// Three business days: on each of the first two, an order paid, one partly paid and one cancelled; none on the third.
    private func threeDays() async throws -> (ShopFixture, Till.Period) {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.drawer.open(float: 0, by: "Ken")  // cash goes into an open shift
        let first = fixture.clock.shopClock.businessDay(of: fixture.clock.now)
        let line = fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)], quantity: 2)
        for day in 0..<3 {
            if day < 2 {
                for _ in 0..<3 { _ = try await fixture.shop.orders.place(OrderDraft(lines: [line]), placedBy: "Ken") }
                _ = try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 100, by: "Ken")
                _ = try await fixture.shop.till.pay(.pickup(2), method: .card, tendered: 20, by: "Ken")
                _ = try await fixture.shop.counter.cancel(.pickup(3), reason: "spilled \(day)", by: Acting("Amy", role: nil))
            }
            fixture.clock.advance(by: 86_400)
        }
        return (fixture, try fixture.shop.till.period(from: first.description, to: "yesterday"))
    }

    @Test func theReportOfSeveralDaysIsTheWholePeriodsReport() async throws {
        let (fixture, period) = try await threeDays()
        let whole = try await fixture.shop.till.orders(in: period)
        #expect(whole.count == 6)
        let expected = TillReport.make(orders: whole, from: period.start, to: period.end, calendar: fixture.shop.till.calendar)
        let report = try await fixture.shop.till.report(period)
        #expect(report == expected)
        #expect(report.orders == 4 && report.voids.count + report.cancellations.count == 2 && report.unpaidOrders == [2, 2])

        var days: [[Int]] = []
        try await fixture.shop.till.eachDay(of: period) { days.append($0.map(\.order.pickupNumber)) }
        #expect(days == [[1, 2, 3], [1, 2, 3], []])
    }

    /// `report`'s one reading a day gives the sales and the till's report its two readings give, with two
    /// lines another client wrote on the second day (one unreadable) and an order placed on the fourth, unpaid.
    @Test func oneReadingADayGivesTheSalesAndTheTillsReportOfTwo() async throws {
        let (fixture, period) = try await threeDays()
        let (start, _) = fixture.clock.shopClock.bounds(of: period.from.advanced(by: 1))
        fixture.clock.set(start.addingTimeInterval(3_600))
        _ = try await fixture.base.createRecord(in: ShopSchema.orderTable, ["drinkName": "熟成紅茶", "orderName": "app", "price": 35,
                                                                           "size": "中杯", "ice": "少冰", "sugar": "半糖"])
        _ = try await fixture.base.createRecord(in: ShopSchema.orderTable, ["drinkName": "熟成紅茶", "orderName": "app"])  // no size: a problem
        fixture.clock.set(start.addingTimeInterval(2 * 86_400 + 3_600))
        let line = fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)], quantity: 1)
        _ = try await fixture.shop.orders.place(OrderDraft(lines: [line]), placedBy: "Ken")
        let days = try fixture.shop.till.period(period.from, through: period.to.advanced(by: 1))
        for period in [period, days, try fixture.shop.till.period(period.to, through: period.to)] {
            let one = try await fixture.shop.till.salesAndReport(period, audit: [])
            let sales = try await fixture.shop.orders.orders(from: period.from, through: period.to)
            #expect(one.orders.map(\.order) == sales.orders.map(\.order) && one.orders.map(\.orderRef) == sales.orders.map(\.orderRef))
            #expect(one.problems == sales.problems)
            #expect(try one.till.get() == (try await fixture.shop.till.report(period)))
        }
        let all = try await fixture.shop.till.salesAndReport(days, audit: [])
        #expect(all.orders.count == 8 && all.orders.filter(\.isForeign).count == 1 && all.problems.count == 1)
    }

    @Test func theExportHandedOverADayAtATimeHasTheWholePeriodsRows() async throws {
        let (fixture, period) = try await threeDays()
        let whole = try await fixture.shop.till.export(period)
        var parts: [(CSVTable, CSVTable, CSVTable)] = []
        try await fixture.shop.till.export(period) { parts.append(($0, $1, $2)) }
        #expect(parts.count == 3)
        #expect(parts.flatMap(\.0.rows) == whole.orders.rows)
        #expect(parts.flatMap(\.1.rows) == whole.lines.rows)
        #expect(parts.flatMap(\.2.rows) == whole.payments.rows)
        #expect(parts.allSatisfy { $0.0.header == whole.orders.header && $0.2.header == whole.payments.header })
        #expect(whole.payments.rows.count == 4)  // a day's cash and card payments; the cancelled order took none
    }
}
