import Airtable
import DrinkShopCore
import Foundation

/// The orders of a period with their bills and money, the report over them (日結) and the CSV export.
extension Till {
    /// A period of whole business days.
    public struct Period: Sendable, Equatable {
        public let from: String
        public let to: String
        public let start: Date
        public let end: Date
        /// "2026-12-01" or "2026-12-01 – 2026-12-03".
        public var label: String { from == to ? from : "\(from) – \(to)" }
    }

    /// The business days `from` to `to` (YYYY-MM-DD, both included; `today`/`yesterday` allowed).
    public func period(from: String, to: String) throws(TillError) -> Period {
        let first = try day(from)
        let last = try day(to)
        guard first.start <= last.start else { throw .periodReversed(first: first.text, last: last.text) }
        return Period(from: first.text, to: last.text, start: first.start, end: clock.dayBounds(of: last.start).end)
    }

    /// Every order created in the period, with its bill and money, oldest first.
    public func orders(in period: Period) async throws(TillError) -> [TillOrder] {
        try await tillOrders(try await storedOrders(in: period))
    }

    /// The shop's orders (not foreign lines) whose lines were created in the period, without the till's views.
    func storedOrders(in period: Period) async throws(TillError) -> [StoredOrder] {
        let formula = FormulaExpression.and(FormulaExpression.inRange(.createdTime, from: period.start, to: period.end))
        let records: [Record]
        do {
            let menu = try await orders.catalog.menu()
            records = try await orders.records.store.allRecords(in: ShopSchema.orderTable,
                                                                query: ListQuery(filterByFormula: formula.description))
            return OrderRecord.orders(from: records, menu: menu, clock: clock).orders.filter { !$0.isForeign }
        } catch let error as TillError {
            throw error
        } catch let error as ShopError {
            throw .shop(error)
        } catch {
            throw .shop(.wrap(error))
        }
    }

    /// Till views of `stored` orders: bills, money, invoice details.
    public func tillOrders(_ stored: [StoredOrder]) async throws(TillError) -> [TillOrder] {
        let days = Set(stored.map(\.businessDay)).sorted()
        // The ledger, not the orders' copies: the report and the export need who took what, when, and the change.
        let money = try await ledgerMoney(of: stored, days: days)
        let bills = try await extras.charges(of: stored)
        let extra = try await extras.extras(days: days)
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

    private func day(_ text: String) throws(TillError) -> (text: String, start: Date) {
        let now = clock.now()
        switch text.lowercased() {
        case "today", "今天": return (clock.businessDay(of: now), clock.dayBounds(of: now).start)
        case "yesterday", "昨天":
            let start = clock.dayBounds(of: clock.dayBounds(of: now).start.addingTimeInterval(-1)).start
            return (clock.businessDay(of: start), start)
        default:
            let parts = text.split(separator: "-").compactMap { Int($0) }
            guard parts.count == 3 else { throw .badDate(text) }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = clock.timeZone
            guard let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)),
                  clock.businessDay(of: date) == text
            else { throw .badDate(text) }
            return (text, clock.dayBounds(of: date).start)
        }
    }
}
