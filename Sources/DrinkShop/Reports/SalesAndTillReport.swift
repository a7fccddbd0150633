import Airtable
import DrinkShopCore
import Foundation

/// `report`'s two sections from one reading of each business day's order lines: the days' sales (what
/// `OrderDesk.orders(from:through:)` gives) and the till's report (what `report(_:audit:)` gives). Read
/// apart, a month's report listed and parsed every line twice, and held the month's lines at once.
extension Till {
    /// The days' sales and the till's report of the same days.
    public struct SalesAndReport: Sendable {
        /// The days' orders (this counter's unsent ones too), in day and pickup-number order.
        public var orders: [StoredOrder]
        /// Records that could not be read, or that the store could not be reached.
        public var problems: [String]
        /// The till's report, or why it could not be made (the sales are shown without it).
        public var till: Result<TillReport, TillError>
    }

    /// The sales of `period`'s days and the till's report of them (with `audit`, the days' audit entries),
    /// each as its own reading gives it, from one reading of each day (`OrderQueries.onDayAndCreated`).
    /// Throws what `OrderDesk.orders(from:through:)` throws.
    public func salesAndReport(_ period: Period, audit: [AuditEntry]) async throws(ShopError) -> SalesAndReport {
        let days = try orders.days(from: period.from, through: period.to)
        let pieces = dayPieces(of: period)
        guard pieces.map(\.from) == Array(days) else { return try await readApart(period, audit: audit) }
        let menu = try await orders.catalog.snapshot(refresh: false).menu
        var sales: [StoredOrder] = []
        var problems: [String] = []
        var failure: ShopError?
        var tillFailure: TillError?
        var report = TillReport.make(orders: [], audit: audit, from: period.start, to: period.end, calendar: calendar)
        var handed = Set<String>()
        var salesKeys = Set<String>()
        var keysMet = false
        for piece in pieces {
            let read: (onDay: [Record], created: [Record])
            do throws(ShopError) {
                read = try await orders.queries.onDayAndCreated(piece.from, from: piece.start, to: piece.end)
            } catch {
                failure = error
                break
            }
            let ofDay = orders.unique(read.onDay)
            // An order's lines in two days' readings would be one order in a reading of the days together.
            let keys = Set(ofDay.map { $0.fields[OrderField.orderRef]?.stringValue ?? $0.id })
            keysMet = keysMet || !salesKeys.isDisjoint(with: keys)
            salesKeys.formUnion(keys)
            let day = OrderRecord.orders(from: ofDay, menu: menu, clock: clock)
            sales += day.orders
            problems += day.problems
            guard tillFailure == nil else { continue }
            let stored = read.created.map(\.id) == ofDay.map(\.id)
                ? day.orders : OrderRecord.orders(from: read.created, menu: menu, clock: clock).orders
            do throws(TillError) {
                report.add(try await tillOrders(stored.filter { !$0.isForeign && handed.insert($0.orderRef).inserted }),
                           calendar: calendar)
            } catch {
                tillFailure = error
            }
        }
        if let failure, tillFailure == nil { tillFailure = .shop(failure) }
        let till: Result<TillReport, TillError> = if let tillFailure { .failure(tillFailure) } else { .success(report) }
        if keysMet, failure == nil {
            let apart = try await orders.orders(from: period.from, through: period.to)
            return SalesAndReport(orders: apart.orders, problems: apart.problems, till: till)
        }
        let shown = try await orders.sales(sales, problems: problems, of: days, failure: failure, menu: menu)
        return SalesAndReport(orders: shown.orders, problems: shown.problems, till: till)
    }

    /// The two readings, one after the other: for a calendar whose days are not its pieces one to one.
    private func readApart(_ period: Period, audit: [AuditEntry]) async throws(ShopError) -> SalesAndReport {
        let sales = try await orders.orders(from: period.from, through: period.to)
        let till: Result<TillReport, TillError>
        do throws(TillError) { till = .success(try await report(period, audit: audit)) } catch { till = .failure(error) }
        return SalesAndReport(orders: sales.orders, problems: sales.problems, till: till)
    }
}
