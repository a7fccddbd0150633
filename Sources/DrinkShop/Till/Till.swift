import Airtable
import DrinkShopCore
import Foundation

/// Payments and refunds (the till's money), over the `TillPayment` table. An order's total is its bill
/// (`OrderCharges`: promotion, member benefits, adjustments); what was paid is read back from the store,
/// so every counter sees the same state.
public final class Till: Sendable {
    let payments: PaymentRecords
    let orders: OrderDesk
    let extras: OrderExtras
    let clock: ShopClock
    /// A member's stamps, settled with every payment, cancel and void.
    let stamps: StampKeeping

    /// How the payment and its copy become durable together (one commit, or the claim rule over the API).
    let commits: any CommitStrategy

    init(store: any RecordStore, orders: OrderDesk, extras: OrderExtras, clock: ShopClock, commits: any CommitStrategy) {
        payments = PaymentRecords(store: store)
        stamps = StampKeeping(store: store, commits: commits)
        self.commits = commits
        self.orders = orders
        self.extras = extras
        self.clock = clock
    }

    /// What became of a payment: the order, the payment (its `change` is what to hand back) and the order's money
    /// after it (earlier payments as the order's copy sums them, one per method: the ledger has each one).
    public struct PaymentReceipt: Sendable {
        public let order: StoredOrder
        public let payment: Payment
        public let money: OrderPayments
        /// The 統一發票 issued when this payment paid the order in full (nil: none due, or it could not be issued).
        public var invoice: IssuedInvoice? = nil
        /// Why the invoice of an order now paid in full could not be issued (the payment stands: this counter issues
        /// it at its next payment, or a manager with `einvoice issue #N`).
        public var invoiceProblem: String? = nil
        /// Invoices this counter owed from earlier payments (their invoice could not be issued then), issued now.
        public var lateInvoices: [IssuedInvoice] = []
    }

    /// Takes `tendered` NT$ by `method` for order `number`. A refused payment writes nothing.
    func pay(_ number: OrderNumber, method: PaymentMethod, tendered: Int, by staff: String)
        async throws(TillError) -> PaymentReceipt
    {
        let stored: StoredOrder
        do { stored = try await orders.find(number) } catch { throw .shop(error) }
        return try await pay(stored, as: number, method: method, tendered: tendered, by: staff)
    }

    /// Takes a payment for an order already found; `tendered` nil takes what is due. A refused payment
    /// writes nothing.
    ///
    /// On the embedded store the payment and the till's copy on the order are one commit, made only if the
    /// ledger still holds what the payment was worked out from: of two counters paying one order at the
    /// same instant, one pays and the other reads the ledger again and is told `already paid`; a crash
    /// leaves both writes or neither. Over the API (no transactions) the copy is written first, then the
    /// payment; a payment the ledger refuses puts the copy back.
    func pay(_ stored: StoredOrder, as number: OrderNumber, method: PaymentMethod, tendered: Int?, by staff: String)
        async throws(TillError) -> PaymentReceipt
    {
        guard !stored.isUnsent, stored.order.pickupNumber > 0 else { throw .unsentOrder(number) }
        // Cash goes into the drawer, so only while a shift is open (after a close, into the next one).
        if method == .cash, try await ShiftRecords(store: payments.store).open() == nil { throw .drawer(.noShiftForCash) }
        return try await commits.pay(stored, as: number, method: method, tendered: tendered, by: staff, on: self)
    }

    /// Records a payment taken while the store was away, as its kept order is sent: as `pay` does, but cash goes into
    /// the ledger whether or not a shift is open now (it is in the drawer already; the counter took it only while it
    /// knew a shift open, and a close since then counted it as over).
    func recordTakenWhileAway(_ stored: StoredOrder, as number: OrderNumber, payment: Payment) async throws(TillError)
        -> PaymentReceipt
    {
        try await commits.pay(stored, as: number, method: payment.method, tendered: payment.tendered, by: payment.takenBy, on: self)
    }

    /// `pay` on the embedded store (`OneTransaction`): the payment, the copy and the stamps in one commit of `atomic`,
    /// worked out again from the ledger once when it had moved on.
    func payInOneCommit(_ stored: StoredOrder, as number: OrderNumber, method: PaymentMethod, tendered: Int?, by staff: String,
                        in atomic: any AtomicRecordStore) async throws(TillError) -> PaymentReceipt
    {
        var current = stored
        // Twice at most: from the copy on the order, then (when the ledger had moved on) from the ledger.
        for _ in 0..<2 {
            let (money, bill, after, payment) = try await working(&current, carried: stored.till, method: method,
                                                                  tendered: tendered, by: staff)
            let copy = TillCopy(after, bill: bill)
            switch try await commitPayment(payment, copy: copy, of: current, after: after,
                                           expectingHeld: money.paid - money.refunded, in: atomic) {
            case .committed:
                var paidOrder = current
                paidOrder.till = copy
                return PaymentReceipt(order: paidOrder, payment: payment, money: after)
            case .orderCancelled:
                // Cancelled or voided at another counter since it was found: it takes no money.
                throw .payment(.orderVoided(order: stored.order.pickupNumber))
            case .noShift:
                throw .drawer(.noShiftForCash)
            case .ledgerMoved:
                current.till = nil  // the copy was behind the ledger: the ledger decides
            }
        }
        throw .payment(.orderChanged(order: stored.order.pickupNumber))
    }

    /// The order's money and the payment `tendered` (nil: what is due) makes, from the copy on the order (or the
    /// ledger when `stored` carries none). A copy that says nothing is due is held against the ledger before the
    /// payment is refused: when they disagree (a copy ahead of the ledger, left by a counter paying over the API
    /// through `drinkshop serve` that stopped between its two writes, or one behind it) the ledger decides
    /// (`stored` then carries no copy). When the ledger refuses too, the copy the order carried (`carried`) is
    /// put right.
    private func working(_ stored: inout StoredOrder, carried: TillCopy?, method: PaymentMethod, tendered: Int?,
                         by staff: String) async throws(TillError)
        -> (money: OrderPayments, bill: Int?, after: OrderPayments, payment: Payment)
    {
        var (money, bill) = try await state(of: stored)
        do {
            let (after, payment) = try paying(money, stored: stored, method: method, tendered: tendered, by: staff)
            return (money, bill, after, payment)
        } catch {
            guard case .payment(.alreadyPaid) = error, let carried else { throw error }
            if stored.till != nil {
                stored.till = nil
                (money, bill) = try await state(of: stored)
                guard TillCopy(money, bill: bill) != carried else { throw error }
                do {
                    let (after, payment) = try paying(money, stored: stored, method: method, tendered: tendered, by: staff)
                    return (money, bill, after, payment)
                } catch {
                    guard case .payment(.alreadyPaid) = error else { throw error }
                }
            }
            // Best effort: the refusal stands either way, and a copy still wrong is held against the ledger again.
            let ledgerCopy = TillCopy(money, bill: bill)
            if ledgerCopy != carried {
                _ = try? await orders.records.writeCells(of: stored, [:], extra: OrderRecord.cells(of: ledgerCopy))
            }
            throw error
        }
    }

    /// The payment `tendered` (nil: what is due) makes, refused when nothing is due.
    func paying(_ money: OrderPayments, stored: StoredOrder, method: PaymentMethod, tendered: Int?, by staff: String)
        throws(TillError) -> (OrderPayments, Payment)
    {
        guard tendered != nil || money.due > 0 else {
            throw .payment(.alreadyPaid(order: stored.order.pickupNumber, total: money.total))
        }
        do {
            return try money.paying(method, tendered: tendered ?? money.due, voided: stored.order.status == .cancelled,
                                    by: staff, at: clock.now())
        } catch {
            throw .payment(error)
        }
    }

    private enum Commit: Sendable { case committed, ledgerMoved, orderCancelled, noShift }

    /// Writes `payment` and `copy` in one commit of the embedded store, if the order is not cancelled and the
    /// ledger still holds `expectingHeld` for it; otherwise nothing is written and the outcome says why. A
    /// member's stamps are settled in the same commit (`after`, the money with the payment, says whether the
    /// order is now paid in full): a payment and its stamps are kept together or not at all.
    private func commitPayment(_ payment: Payment, copy: TillCopy, of stored: StoredOrder, after: OrderPayments,
                               expectingHeld: Int, in atomic: any AtomicRecordStore) async throws(TillError) -> Commit
    {
        guard let first = stored.recordIDs.first else { return .ledgerMoved }
        let record = MoneyRecord(orderRef: stored.orderRef, pickupNumber: stored.order.pickupNumber,
                                 businessDay: stored.businessDay, entry: .payment(payment))
        let updates = stored.recordIDs.map { RecordUpdate(id: $0, fields: OrderRecord.cells(of: copy)) }
        let orderRef = stored.orderRef
        let stampFacts = StampKeeping.Facts(stored, money: after, standing: true)
        do {
            return try await atomic.atomically { (transaction) throws(AirtableError) -> Commit in
                // A cancel or void of another counter commits its status before it settles the refunds, so a
                // payment that sees the order still open is seen by that settling (`settleLatePayments`).
                let status = try transaction.getRecord(in: ShopSchema.orderTable, id: first, options: ReadOptions())
                    .fields[OrderField.status]?.stringValue
                guard status != OrderStatus.cancelled.rawValue else { return .orderCancelled }
                // Cash only into an open shift, decided in the commit (a close at the same moment counts it or refuses it).
                if payment.method == .cash, try ShiftRecords.open(in: transaction) == nil { return .noShift }
                guard try PaymentRecords.held(by: orderRef, in: transaction) == expectingHeld else { return .ledgerMoved }
                try PaymentRecords.add([record], in: transaction)
                _ = try transaction.updateRecords(in: ShopSchema.orderTable, updates, replace: false,
                                                  options: WriteOptions(typecast: true))
                _ = try StampKeeping.settle(stampFacts, in: transaction)
                return .committed
            }
        } catch {
            throw .shop(.store(error))
        }
    }

    /// The order's money: its bill's total, with the payments and refunds recorded so far (from the till's
    /// copy on the order when it has one, else read back from the ledger).
    public func money(of stored: StoredOrder) async throws(TillError) -> OrderPayments {
        try await state(of: stored).money
    }

    /// The order's money for giving money back (a cancel or void): from the copy where it is committed with
    /// the ledger (`CommitStrategy.copyCommittedWithLedger`: the embedded store); elsewhere from the ledger
    /// itself whenever the copy says anything was paid (the copy is written ahead of the ledger, so one that
    /// says nothing was paid is exact, and costs no read).
    public func moneyForChange(of stored: StoredOrder) async throws(TillError) -> OrderPayments {
        if commits.copyCommittedWithLedger { return try await money(of: stored) }
        if let copy = stored.till, copy.paidBy.isEmpty, copy.refundedBy.isEmpty { return try await money(of: stored) }
        var ledgerOnly = stored
        ledgerOnly.till = nil
        return try await state(of: ledgerOnly).money
    }

    /// The order's money and the bill its copy should carry (nil: the order's own total). From the copy on
    /// the order without a read; an order without one reads the ledger and `OrderTill`.
    func state(of stored: StoredOrder) async throws(TillError) -> (money: OrderPayments, bill: Int?) {
        if let copy = stored.till { return (try copy.money(of: stored), copy.bill) }
        let records = try await ledger(of: stored)
        let (charges, bill) = try await extras.billed(stored)
        return (try Self.money(of: stored, total: charges.total, records: records), bill)
    }

    /// One order's payments and refunds as its ledger holds them (one read).
    func ledger(of stored: StoredOrder) async throws(TillError) -> [MoneyRecord] {
        do { return try await payments.forOrder(stored.orderRef) } catch { throw .shop(error) }
    }

    /// The money of many orders of `days` at once, by orderRef: from the copies the orders carry, and one
    /// read of the ledger (and of `OrderTill`) only when some order carries none.
    public func money(of stored: [StoredOrder], days: [BusinessDay]) async throws(TillError) -> [String: OrderPayments] {
        var result: [String: OrderPayments] = [:]
        var uncopied: [StoredOrder] = []
        for order in stored {
            if let copy = order.till { result[order.orderRef] = try copy.money(of: order) } else { uncopied.append(order) }
        }
        guard !uncopied.isEmpty else { return result }
        let days = Set(uncopied.map(\.businessDay)).filter { days.contains($0) }.sorted()
        return result.merging(try await ledgerMoney(of: uncopied, days: days)) { $1 }
    }

    /// The money of many orders of `days` from the ledger (two reads): who took what, when, and the change.
    public func ledgerMoney(of stored: [StoredOrder], days: [BusinessDay]) async throws(TillError) -> [String: OrderPayments] {
        try await ledgerMoney(of: stored, days: days, bills: try await extras.charges(of: stored))
    }

    /// `ledgerMoney(of:days:)` with the orders' bills already worked out.
    func ledgerMoney(of stored: [StoredOrder], days: [BusinessDay], bills: [String: OrderCharges]) async throws(TillError)
        -> [String: OrderPayments]
    {
        let records: [MoneyRecord]
        do { records = try await payments.forDays(days) } catch { throw .shop(error) }
        let byOrder = Dictionary(grouping: records, by: \.orderRef)
        var result: [String: OrderPayments] = [:]
        for order in stored {
            let total = bills[order.orderRef]?.total ?? order.order.total
            result[order.orderRef] = try Self.money(of: order, total: total, records: byOrder[order.orderRef] ?? [])
        }
        return result
    }

    /// Writes refunds to the ledger, each keyed by its order and method.
    static func money(of stored: StoredOrder, total: Int, records: [MoneyRecord]) throws(TillError) -> OrderPayments {
        do {
            return try OrderPayments(pickupNumber: stored.order.pickupNumber, total: total,
                                     payments: records.payments.sorted { $0.takenAt < $1.takenAt },
                                     refunds: records.refunds.sorted { $0.refundedAt < $1.refundedAt })
        } catch {
            throw .shop(.storedData("order #\(stored.order.pickupNumber) in table TillPayment: \(error)"))
        }
    }
}
