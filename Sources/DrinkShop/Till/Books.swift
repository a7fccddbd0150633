import DrinkShopCore
import EInvoice
import Foundation

/// The books check (對帳) of a period: the money of every order created in it, read from the payment ledger
/// (`TillPayment`, the one truth), held against what the orders' own records show, the audit trail, the
/// shifts' drawer counts and the report (`BooksTally` does the arithmetic).
public struct Books: Sendable {
    let till: Till
    let audit: AuditTrail
    let clock: ShopClock
    let invoices: InvoiceDesk

    /// Checks the books of `period` (`Till.period(from:to:)`): for each order created in it, that the copy of
    /// its money on the order agrees with the ledger, that no method refunded more than it took, that a
    /// cancelled order gave back all it took, that an order picked up owing money was handed over unpaid on
    /// record, that a member's order holds the stamps the stamp rule gives it, and that cash was taken inside a shift; with a seller set up, that each order paid in full has one live invoice for its bill, a cancelled one none,
    /// every record its Turnkey file, and every claimed book no unused number below its last issued one; then that each drawer count closed in it expected the
    /// float plus the cash taken less the cash refunded, and that the report adds up. Reads a business day at
    /// a time, as the report does; writes nothing.
    public func check(_ period: Till.Period) async throws(TillError) -> BooksCheck {
        let shifts = try await ShiftRecords(store: till.payments.store).all()
        // An order of the period may be picked up days later: its handover is looked for up to now.
        let handovers: [AuditEntry]
        do {
            handovers = try await audit.entries(from: period.start, to: max(period.end, clock.now().addingTimeInterval(1)))
        } catch {
            throw .shop(error)
        }
        // A member's order is checked against the stamp rule with the stamp card as set up now.
        let stampPolicy: StampPolicy?
        do { stampPolicy = MemberProgram(settings: try await SettingRecords(store: till.payments.store).all()).stampPolicy } catch {
            throw .shop(error)
        }
        let setup = try await invoices.setup()
        var periods = Set<InvoicePeriod>()
        var tally = BooksTally(today: clock.today, clock: clock, calendar: till.calendar, shifts: shifts, handovers: handovers)
        let till = till
        try await till.eachStoredDay(of: period) { (piece, stored) throws(TillError) in
            // An order is paid on its own business day's rows, even when a line of it was added on a later day.
            let days = Set(stored.map(\.businessDay)).union([piece.from]).sorted()
            let ledger: [MoneyRecord]
            do throws(ShopError) { ledger = try await till.payments.forDays(days) } catch { throw .shop(error) }
            let extras = try await till.extras.extras(days: days)
            let issued = setup == nil ? nil : try await invoices.invoices(days: days)
            periods.formUnion((issued ?? []).map(\.book.period))
            tally.add(day: piece.from, orders: stored, charges: try await till.extras.charges(of: stored, extras: extras), ledger: ledger,
                      extras: extras, stampPolicy: stampPolicy, invoices: issued, turnkey: setup?.turnkey != nil)
        }
        for period in periods.sorted() {
            let (_, ranges) = try await invoices.tracks(period: period)
            let books = ranges.flatMap(\.books).filter { $0.holder != nil }.map { (book: $0.book, blanksReported: $0.blanks != nil) }
            tally.checkNumbers(books: books, issued: try await invoices.invoices(period: period))
        }
        let counts = shifts.compactMap(\.count).filter { period.start <= $0.closedAt && $0.closedAt < period.end }
        if let firstOpened = counts.map(\.shift.openedAt).min() {
            let ledger: [MoneyRecord]
            do { ledger = try await till.payments.since(firstOpened) } catch { throw .shop(error) }
            tally.checkDrawers(counts, ledger: ledger)
        }
        return BooksCheck(period: period, differences: tally.finished(), orders: tally.orders, payments: tally.payments,
                          refunds: tally.refunds, drawerCounts: tally.drawerCounts, invoices: tally.invoices)
    }
}

/// What a books check found: every difference, and how much it checked.
public struct BooksCheck: Sendable, Equatable {
    public let period: Till.Period
    /// Each difference found, in the order the orders were placed, then the drawer counts and the report.
    public let differences: [BooksDifference]
    public let orders: Int
    /// Payment rows of the ledger checked.
    public let payments: Int
    /// Refund rows of the ledger checked.
    public let refunds: Int
    public let drawerCounts: Int
    /// Invoices checked (0 when no seller is set up).
    public let invoices: Int

    public init(period: Till.Period, differences: [BooksDifference], orders: Int, payments: Int, refunds: Int, drawerCounts: Int,
                invoices: Int = 0) {
        self.period = period
        self.differences = differences
        self.orders = orders
        self.payments = payments
        self.refunds = refunds
        self.drawerCounts = drawerCounts
        self.invoices = invoices
    }

    /// Whether the books balance: no difference found.
    public var balances: Bool { differences.isEmpty }

    /// "The books of 2026-11-29 balance: 5 orders, 4 payments, 2 refunds, 1 drawer count checked." or
    /// "The books of 2026-11-29 do not balance (帳不平): 2 differences (…checked):".
    public var summary: String {
        var counts = [Self.counted(orders, "order"), Self.counted(payments, "payment"), Self.counted(refunds, "refund"),
                      Self.counted(drawerCounts, "drawer count")]
        if invoices > 0 { counts.append(Self.counted(invoices, "invoice")) }
        let checked = counts.joined(separator: ", ") + " checked"
        if balances { return "The books of \(period.label) balance: \(checked)." }
        return "The books of \(period.label) do not balance (帳不平): \(Self.counted(differences.count, "difference")) (\(checked)):"
    }

    private static func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
}
