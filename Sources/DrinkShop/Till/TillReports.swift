import Airtable
import DrinkShopCore
import Foundation

/// The orders of a period with their bills and money, the report over them (日結) and the CSV export.
extension Till {
    /// A period of whole business days.
    public struct Period: Sendable, Equatable {
        public let days: DayRange
        public let start: Date
        public let end: Date
        public var from: BusinessDay { days.first }
        public var to: BusinessDay { days.last }
        /// "2026-12-01" or "2026-12-01 – 2026-12-03".
        public var label: String { days.isOneDay ? from.description : "\(from) – \(to)" }
    }

    /// The business days `from` to `to` (YYYY-MM-DD, both included; `today`/`yesterday` allowed).
    public func period(from: String, to: String) throws(TillError) -> Period {
        let today = clock.today
        let first = try day(from, today: today)
        let last = try day(to, today: today)
        return try period(first, through: last)
    }

    /// The business days `first` through `last`, both included.
    public func period(_ first: BusinessDay, through last: BusinessDay) throws(TillError) -> Period {
        guard let days = try? DayRange(first, through: last) else { throw .periodReversed(first: first, last: last) }
        let (start, end) = clock.calendar.bounds(of: days)
        return Period(days: days, start: start, end: end)
    }

    /// Every order created in the period, with its bill and money, oldest first.
    public func orders(in period: Period) async throws(TillError) -> [TillOrder] {
        try await tillOrders(try await storedOrders(in: period))
    }

    /// The shop's orders (not foreign lines) whose lines were created in the period, without the till's views.
    func storedOrders(in period: Period) async throws(TillError) -> [StoredOrder] {
        do throws(ShopError) {
            let menu = try await orders.catalog.menu()
            let records = try await orders.queries.created(from: period.start, to: period.end)
            return OrderRecord.orders(from: records, menu: menu, clock: clock).orders.filter { !$0.isForeign }
        } catch {
            throw .shop(error)
        }
    }

    /// Till views of `stored` orders: bills, money, invoice details.
    public func tillOrders(_ stored: [StoredOrder]) async throws(TillError) -> [TillOrder] {
        let days = Set(stored.map(\.businessDay)).sorted()
        // The ledger, not the orders' copies: the report and the export need who took what, when, and the change.
        let extra = try await extras.extras(days: days)
        let bills = try await extras.charges(of: stored, extras: extra)
        let money = try await ledgerMoney(of: stored, days: days, bills: bills)
        return stored.compactMap { order in
            guard let bill = bills[order.orderRef], let paid = money[order.orderRef] else { return nil }
            let till = extra[order.orderRef]
            return TillOrder(order: order.order, charges: bill, money: paid, member: till?.member,
                             stampsRedeemed: till?.stampsRedeemed ?? 0, invoice: till?.invoice)
        }.sorted { ($0.order.createdAt, $0.order.pickupNumber) < ($1.order.createdAt, $1.order.pickupNumber) }
    }

    /// The report of the period, read a business day at a time (see `eachDay`).
    public func report(_ period: Period, audit: [AuditEntry] = []) async throws(TillError) -> TillReport {
        var report = TillReport.make(orders: [], audit: audit, from: period.start, to: period.end, calendar: calendar)
        let calendar = calendar
        try await eachDay(of: period) { report.add($0, calendar: calendar) }
        return report
    }

    /// The orders, lines and payments CSV files of the period, whole (a small period; `export(_:into:)`
    /// hands them over a day at a time).
    public func export(_ period: Period) async throws(TillError) -> (orders: CSVTable, lines: CSVTable, payments: CSVTable) {
        let tillOrders = try await orders(in: period)
        return (TillExport.orders(tillOrders, calendar: calendar), TillExport.lines(tillOrders),
                TillExport.payments(tillOrders, calendar: calendar))
    }

    /// The shop's calendar (its time zone and day start, from the store's settings).
    public var calendar: ShopCalendar { clock.calendar }

    private func day(_ text: String, today: BusinessDay) throws(TillError) -> BusinessDay {
        do { return try BusinessDay(text, today: today) } catch { throw .badDate(text) }
    }
}
