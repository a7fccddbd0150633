import DrinkShopCore
import EInvoice
import Foundation

/// The books check's arithmetic, without reads: fed a business day at a time (the orders first seen that day,
/// their bills and the ledger rows of their days), then the drawer counts, it names every difference
/// (`BooksDifference`) between the orders, the payment ledger, the audit trail, the shifts and the report.
struct BooksTally {
    /// An order picked up with money due, matched against the unpaid handovers once every day is read.
    private struct Handover {
        var number: OrderNumber
        var pickupNumber: Int
        var businessDay: BusinessDay
        var createdAt: Date
        var due: Int
    }

    private let today: BusinessDay
    private let clock: ShopClock
    private let calendar: ShopCalendar
    private let shifts: [ShiftRecords.Recorded]
    /// The unpaid handovers (未付款取餐) in the audit trail from the period's start on, oldest first.
    private let handovers: [AuditEntry]

    private(set) var differences: [BooksDifference] = []
    private(set) var orders = 0
    private(set) var payments = 0
    private(set) var refunds = 0
    private(set) var drawerCounts = 0
    /// Invoices checked against their orders (none when no seller is set up).
    private(set) var invoices = 0

    /// The till report over the orders whose money can be read, as `Till.report` adds it up.
    private var report: TillReport
    /// Still due on the orders kept (not cancelled) in `report`.
    private var due = 0
    /// Every ledger row of the period's orders and days, by method, for the report's columns.
    private var ledgerTaken: [PaymentMethod: Int] = [:]
    private var ledgerRefunded: [PaymentMethod: Int] = [:]
    private var pickedUpOwing: [Handover] = []

    init(today: BusinessDay, clock: ShopClock, calendar: ShopCalendar, shifts: [ShiftRecords.Recorded], handovers: [AuditEntry]) {
        self.today = today
        self.clock = clock
        self.calendar = calendar
        self.shifts = shifts
        self.handovers = handovers.filter(\.isUnpaidHandover).sorted { $0.at < $1.at }
        report = TillReport.make(orders: [], from: .distantPast, to: .distantFuture, calendar: calendar)
    }

    /// Checks the orders first seen on business day `day`. `ledger` holds the rows of `day` and of the days the
    /// orders belong to; a row of `day` that belongs to none of them is money without an order.
    mutating func add(day: BusinessDay, orders stored: [StoredOrder], charges: [String: OrderCharges], ledger: [MoneyRecord],
                      extras: [String: OrderExtra] = [:], stampPolicy: StampPolicy? = nil, invoices: [IssuedInvoice]? = nil,
                      turnkey: Bool = false)
    {
        let byOrder = Dictionary(grouping: ledger, by: \.orderRef)
        let invoicesByOrder = Dictionary(grouping: invoices ?? [], by: \.orderRef)
        var tillOrders: [TillOrder] = []
        for order in stored.sorted(by: { $0.order.createdAt < $1.order.createdAt }) {
            // `OrderExtras.charges(of:)` prices every order it is given.
            guard let bill = charges[order.orderRef] else { continue }
            let rows = byOrder[order.orderRef] ?? []
            if let money = check(order, bill: bill, rows: rows) {
                tillOrders.append(TillOrder(order: order.order, charges: bill, money: money))
            }
            if let extra = extras[order.orderRef], extra.member != nil {
                checkStamps(order, extra: extra, total: bill.total, rows: rows, policy: stampPolicy)
            }
            if invoices != nil {
                checkInvoices(order, total: bill.total, rows: rows, invoices: invoicesByOrder[order.orderRef] ?? [], turnkey: turnkey)
            }
        }
        report.add(tillOrders, calendar: calendar)
        let refs = Set(stored.map(\.orderRef))
        for row in ledger where row.businessDay == day && !refs.contains(row.orderRef) {
            let number = Self.name(row.pickupNumber, day: day, today: today)
            count(row, as: number)
            switch row.entry {
            case .payment(let payment):
                differences.append(.moneyWithoutOrder(number, refund: false, method: payment.method, amount: payment.amount))
            case .refund(let refund):
                differences.append(.moneyWithoutOrder(number, refund: true, method: refund.method, amount: refund.amount))
            }
        }
    }

    /// Checks one order against its ledger rows; returns its money when it can be read (the report's input).
    private mutating func check(_ stored: StoredOrder, bill: OrderCharges, rows: [MoneyRecord]) -> OrderPayments? {
        orders += 1
        let number = Self.name(stored, today: today)
        var paidBy: [PaymentMethod: Int] = [:]
        var refundedBy: [PaymentMethod: Int] = [:]
        for row in rows {
            count(row, as: number)
            switch row.entry {
            case .payment(let payment): paidBy[payment.method, default: 0] += payment.amount
            case .refund(let refund): refundedBy[refund.method, default: 0] += refund.amount
            }
        }
        var readable = true
        for method in PaymentMethod.allCases where (refundedBy[method] ?? 0) > (paidBy[method] ?? 0) {
            differences.append(.refundExceedsPaid(number, method: method, paid: paidBy[method] ?? 0, refunded: refundedBy[method] ?? 0))
            readable = false
        }
        let total = bill.total
        if let copy = stored.till {
            let ledger = TillCopy(paidBy: paidBy, refundedBy: refundedBy)
            if copy.paidBy != ledger.paidBy || copy.refundedBy != ledger.refundedBy {
                let due = stored.order.status == .cancelled ? nil : max(0, total - ledger.paid)
                differences.append(.copyDisagrees(number, copy: copy, ledgerPaid: ledger.paidBy, ledgerRefunded: ledger.refundedBy,
                                                  due: due))
            } else if (copy.bill ?? stored.order.total) != total {
                differences.append(.billDisagrees(number, copyBill: copy.bill ?? stored.order.total, bill: total))
            }
        }
        let paid = paidBy.values.reduce(0, +)
        let refunded = refundedBy.values.reduce(0, +)
        if stored.order.status == .cancelled {
            var notGivenBack: [PaymentMethod: Int] = [:]
            for (method, amount) in paidBy where amount > (refundedBy[method] ?? 0) {
                notGivenBack[method] = amount - (refundedBy[method] ?? 0)
            }
            if !notGivenBack.isEmpty {
                differences.append(.cancelledNotRefunded(number, voided: stored.order.isVoided, held: notGivenBack))
            }
        } else {
            if refunded > 0 { differences.append(.refundedButKept(number, refunded: refundedBy)) }
            if paid > total { differences.append(.paidMoreThanBill(number, paid: paid, bill: total)) }
            if stored.order.status == .pickedUp, total > paid {
                pickedUpOwing.append(Handover(number: number, pickupNumber: stored.order.pickupNumber, businessDay: stored.businessDay,
                                              createdAt: stored.order.createdAt, due: total - paid))
            }
        }
        guard readable, let money = try? Till.money(of: stored, total: total, records: rows) else { return nil }
        if stored.order.status != .cancelled { due += money.due }
        return money
    }

    /// Checks that a member's order holds on the card what the stamp rule gives it by the ledger's money.
    private mutating func checkStamps(_ stored: StoredOrder, extra: OrderExtra, total: Int, rows: [MoneyRecord], policy: StampPolicy?) {
        var paid = 0, refunded = 0
        for row in rows {
            switch row.entry {
            case .payment(let payment): paid += payment.amount
            case .refund(let refund): refunded += refund.amount
            }
        }
        let held = OrderStamps(redeemed: extra.stampsRedeemed, earned: extra.stampsAdded)
        let due = StampRule.due(held: held, cups: stored.order.cupCount, freeCups: extra.freeCups,
                                standing: stored.order.status != .cancelled,
                                paidInFull: paid > 0 && paid >= total && refunded == 0, policy: policy)
        if due != held { differences.append(.stampsNotAsPaid(Self.name(stored, today: today), held: held, due: due)) }
    }

    /// Checks an order's 統一發票 (a seller set up): paid in full and standing, exactly one live invoice for its bill;
    /// cancelled or voided after money was taken, none live; with a Turnkey folder, every record's file written.
    private mutating func checkInvoices(_ stored: StoredOrder, total: Int, rows: [MoneyRecord], invoices: [IssuedInvoice],
                                        turnkey: Bool)
    {
        let number = Self.name(stored, today: today)
        var paid = 0, refunded = 0
        for row in rows {
            switch row.entry {
            case .payment(let payment): paid += payment.amount
            case .refund(let refund): refunded += refund.amount
            }
        }
        self.invoices += invoices.count
        let live = invoices.filter(\.isLive)
        if stored.order.status == .cancelled {
            if paid > 0, let invoice = live.first {
                differences.append(.invoiceLiveOnCancelled(number, invoice: invoice.number.printed, voided: stored.order.isVoided))
            }
        } else if total > 0, paid >= total, refunded == 0 {
            if live.isEmpty {
                differences.append(.invoiceMissing(number, total: total))
            } else if live.count > 1 {
                differences.append(.invoiceTwice(number, invoices: live.map(\.number.printed)))
            } else if let invoice = live.first, invoice.amounts.totalAmount != total {
                differences.append(.invoiceAmountDiffers(number, invoice: invoice.number.printed, amount: invoice.amounts.totalAmount,
                                                         bill: total))
            }
        }
        guard turnkey else { return }
        for invoice in invoices {
            let missing = invoice.issueFile == nil ? "issue (F0401)"
                : invoice.state == .voided && invoice.voidFile == nil ? "void (F0501)"
                : invoice.state == .allowance && invoice.allowanceFile == nil ? "allowance (G0401)" : nil
            if let missing { differences.append(.invoiceFileMissing(number, invoice: invoice.number.printed, file: missing)) }
        }
    }

    /// Checks that every number of each claimed book (`books`, with its blanks reported or not) below its last issued
    /// one is held by an invoice of `issued` (the period's every invoice).
    mutating func checkNumbers(books: [(book: InvoiceBook, blanksReported: Bool)], issued: [IssuedInvoice]) {
        let used = Set(issued.map(\.number))
        for (book, blanksReported) in books where !blanksReported {
            guard let last = issued.filter({ book.contains($0.number) }).map(\.number.serial).max() else { continue }
            let runs = book.blankRuns(used: used).compactMap { run -> ClosedRange<Int>? in
                run.lowerBound < last ? run.lowerBound...min(run.upperBound, last - 1) : nil
            }
            guard !runs.isEmpty else { continue }
            func printed(_ serial: Int) -> String { (try? InvoiceNumber(track: book.track, serial: serial))?.printed ?? "\(serial)" }
            let text = runs.map { $0.count == 1 ? printed($0.lowerBound) : "\(printed($0.lowerBound))–\(printed($0.upperBound))" }
            differences.append(.invoiceNumbersUnused(book: book.key, numbers: text.joined(separator: ", ")))
        }
    }

    /// Counts a ledger row, and checks that cash was taken inside a shift.
    private mutating func count(_ row: MoneyRecord, as number: OrderNumber) {
        switch row.entry {
        case .payment(let payment):
            payments += 1
            ledgerTaken[payment.method, default: 0] += payment.amount
            if payment.method == .cash, !inShift(payment.takenAt) {
                differences.append(.cashOutsideShift(number, amount: payment.amount, at: calendar.minuteText(payment.takenAt)))
            }
        case .refund(let refund):
            refunds += 1
            ledgerRefunded[refund.method, default: 0] += refund.amount
        }
    }

    private func inShift(_ date: Date) -> Bool {
        shifts.contains { $0.shift.openedAt <= date && $0.closedAt.map { date <= $0 } ?? true }
    }

    /// Checks each drawer count against the float and the cash the ledger (`ledger`, every row from the
    /// earliest count's opening on) took and gave back between its shift's opening and its closing.
    mutating func checkDrawers(_ counts: [DrawerCount], ledger: [MoneyRecord]) {
        for count in counts.sorted(by: { $0.closedAt < $1.closedAt }) {
            drawerCounts += 1
            let during = ledger.filter { row in
                let at = switch row.entry {
                case .payment(let payment): payment.takenAt
                case .refund(let refund): refund.refundedAt
                }
                return count.shift.openedAt <= at && at <= count.closedAt
            }
            let cashTaken = during.payments.filter { $0.method == .cash }.reduce(0) { $0 + $1.amount }
            let cashRefunded = during.refunds.filter { $0.method == .cash }.reduce(0) { $0 + $1.amount }
            guard count.shift.float + cashTaken - cashRefunded != count.expected else { continue }
            differences.append(.drawerExpectedDiffers(closedBy: count.closedBy, closedAt: calendar.minuteText(count.closedAt),
                                                      recorded: count.expected, float: count.shift.float,
                                                      cashTaken: cashTaken, cashRefunded: cashRefunded))
        }
    }

    /// Every difference, with those found once every day is read: unpaid handovers not on record, and a
    /// report that does not add up.
    func finished() -> [BooksDifference] {
        var differences = differences
        // An order is matched with a handover of its own business day first; then, for one picked up on a later
        // day, with the earliest handover of its number after it was placed that no order has matched.
        var matched = Set<Int>()
        var unmatched: [Handover] = []
        for owing in pickedUpOwing {
            if let index = handovers.indices.first(where: { index in
                !matched.contains(index) && handovers[index].subject == "#\(owing.pickupNumber)"
                    && handovers[index].at >= owing.createdAt && clock.businessDay(of: handovers[index].at) == owing.businessDay
            }) {
                matched.insert(index)
            } else {
                unmatched.append(owing)
            }
        }
        for owing in unmatched {
            if let index = handovers.indices.first(where: { index in
                !matched.contains(index) && handovers[index].subject == "#\(owing.pickupNumber)" && handovers[index].at >= owing.createdAt
            }) {
                matched.insert(index)
            } else {
                differences.append(.unpaidHandoverNotRecorded(owing.number, due: owing.due))
            }
        }

        var reportTaken = 0
        var reportRefunded = 0
        for method in PaymentMethod.allCases {
            let totals = report.byMethod[method]
            // The report's columns add up as the cashier checks them: handed over less change is what was taken.
            let taken = totals.map { $0.tendered - $0.change } ?? 0
            let refunded = totals?.refunded ?? 0
            reportTaken += taken
            reportRefunded += refunded
            if taken != (ledgerTaken[method] ?? 0) || refunded != (ledgerRefunded[method] ?? 0) {
                differences.append(.methodDoesNotAddUp(method, reportTaken: taken, reportRefunded: refunded,
                                                       ledgerTaken: ledgerTaken[method] ?? 0,
                                                       ledgerRefunded: ledgerRefunded[method] ?? 0))
            }
        }
        if report.netSales != reportTaken - reportRefunded + due {
            differences.append(.salesDoNotAddUp(netSales: report.netSales, paidLessRefunded: reportTaken - reportRefunded, due: due))
        }
        return differences
    }

    /// How staff name an order: `#6` today, `#6@2026-11-30` for an earlier day.
    static func name(_ stored: StoredOrder, today: BusinessDay) -> OrderNumber {
        name(stored.order.pickupNumber, day: stored.businessDay, today: today)
    }

    static func name(_ pickupNumber: Int, day: BusinessDay, today: BusinessDay) -> OrderNumber {
        day == today ? .pickup(pickupNumber) : .onDay(pickupNumber, day: day.description)
    }
}
