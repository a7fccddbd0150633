import DrinkShop
import DrinkShopCore
import Foundation

/// `orders`, `report` and `log` over business days: today by default, `--date` or `--from`/`--to`.
extension ShopInterpreter {
    /// The business days of `days` (today when nil; through today without a last day), checked by the desk.
    func range(_ days: DaySpan?) throws(ShopError) -> DayRange {
        let today = shop.clock.today
        guard let days else { return DayRange(today) }
        let first = try Self.day(days.first)
        let last = try days.last.map { (text) throws(ShopError) in try Self.day(text) } ?? today
        return try shop.orders.days(from: first, through: last)
    }

    /// A `--date`/`--from`/`--to` date (YYYY-MM-DD).
    private static func day(_ text: String) throws(ShopError) -> BusinessDay {
        do { return try BusinessDay(text) } catch { throw .notADay(text) }
    }

    /// How an order is named in lists and messages: `#6` today, `#6@2026-11-30` for an earlier day.
    static func name(_ stored: StoredOrder, today: BusinessDay) -> String? {
        stored.businessDay == today ? stored.number?.description : stored.numberWithDay?.description
    }

    func listOrders(_ filter: OrdersFilter, json: Bool, days: DaySpan?) async throws {
        if days == nil {
            if json {
                say(try await shop.orders.todaysJSON(selecting: { OrderView.select($0, filter) }) + "\n")
                return
            }
            let (orders, problems) = try await shop.orders.today()
            let money = await tillMoney(orders)
            let menu = try? await shop.catalog.menu()
            say(OrderView.list(OrderView.select(orders, filter), filter: filter, days: DayRange(shop.clock.today), style: style,
                               money: money, menu: menu, width: screenWidth))
            for problem in problems { warn(problem) }
            return
        }
        let range = try range(days)
        if json {
            say(try await shop.orders.ordersJSON(from: range.first, through: range.last, selecting: { OrderView.select($0, filter) })
                + "\n")
            return
        }
        let (orders, problems) = try await shop.orders.orders(from: range.first, through: range.last)
        let money = await tillMoney(orders)
        say(OrderView.list(OrderView.select(orders, filter), filter: filter, days: range,
                           style: style, money: money, width: screenWidth))
        for problem in problems { warn(problem) }
    }

    /// `report`: one report however its days are given (`report 2026-12-01` is `report --date 2026-12-01`):
    /// the days' sales by business day, then the till's report (日結) of the same days. As JSON, one object
    /// with both (`sales`, `till`).
    func showReport(json: Bool, days: DaySpan?) async throws {
        let period = try shop.till.period(from: days?.first ?? "today", to: days.map { $0.last ?? "today" } ?? "today")
        let (first, last) = (period.from, period.to)
        _ = try shop.orders.days(from: first, through: last)  // a range too long is refused before any reading
        // The audit trail read once for both sections; each day's lines read once for both (`salesAndReport`).
        let audit = try await shop.audit.entries(fromDay: first, throughDay: last)
        let reading = try await shop.till.salesAndReport(period, audit: audit)
        let (orders, problems) = (reading.orders, reading.problems)
        let report = DailyReport(days: period.days, orders: orders.map(\.order),
                                 moneyReturned: orders.map { !($0.till?.refundedBy.isEmpty ?? true) }, audit: audit)
        // Only with a seller set (a shop without one reads nothing more): the days' and the period's invoices; when
        // they cannot be read the sales and the till are still shown.
        var invoices: InvoiceDesk.ReportSection?
        do { invoices = try await shop.counter.invoiceReport(days: Array(period.days)) } catch {
            warn("the invoices could not be read: \(error)")
        }
        if json {
            let till = try reading.till.get()
            say("{\"sales\":\(report.json),\"till\":\(TillView.json(till, period: period))"
                + (invoices.map { ",\"invoices\":" + InvoiceReportView.json($0) } ?? "") + "}\n")
            for problem in problems { warn(problem) }
            return
        }
        // One computation of the money: the till's report heads the day's sales and is the till section.
        let till: TillReport?
        switch reading.till {
        case .success(let made): till = made
        case .failure(let error):
            warn("the till report could not be made: \(error)")
            till = nil
        }
        say(ReportView.render(report, style: style, width: screenWidth, till: till))
        for problem in problems { warn(problem) }
        if let till { await showTill(period, report: till) }
        if let invoices { say(InvoiceReportView.render(invoices, oneDay: period.days.isOneDay, style: style, width: screenWidth)) }
    }

    func showLog(days: DaySpan?) async throws {
        let range = try range(days)
        let entries = try await shop.audit.entries(in: range)
        say(AuditView.render(entries, label: range.description, timeZone: shop.clock.timeZone,
                             style: style, width: screenWidth))
    }
}
