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

    init(store: any RecordStore, orders: OrderDesk, extras: OrderExtras, clock: ShopClock) {
        payments = PaymentRecords(store: store)
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
    }

    /// Takes `tendered` NT$ by `method` for order `number`. A refused payment writes nothing.
    public func pay(_ number: OrderNumber, method: PaymentMethod, tendered: Int, by staff: String)
        async throws(TillError) -> PaymentReceipt
    {
        let stored: StoredOrder
        do { stored = try await orders.find(number) } catch { throw .shop(error) }
        return try await pay(stored, as: number, method: method, tendered: tendered, by: staff)
    }

    /// Takes a payment for an order already found; `tendered` nil takes what is due. The till's copy on the
    /// order is written first, then the payment in the ledger; a payment the ledger refuses puts the copy
    /// back, so a refused payment leaves nothing behind. With the copy on the order: one write each.
    public func pay(_ stored: StoredOrder, as number: OrderNumber, method: PaymentMethod, tendered: Int?, by staff: String)
        async throws(TillError) -> PaymentReceipt
    {
        guard !stored.isUnsent, stored.order.pickupNumber > 0 else { throw .unsentOrder(number) }
        let (money, bill) = try await state(of: stored)
        guard tendered != nil || money.due > 0 else {
            throw .payment(.alreadyPaid(order: stored.order.pickupNumber, total: money.total))
        }
        let result: (OrderPayments, Payment)
        do {
            result = try money.paying(method, tendered: tendered ?? money.due, voided: stored.order.status == .cancelled,
                                      by: staff, at: clock.now())
        } catch {
            throw .payment(error)
        }
        var paidOrder = stored
        let copy = TillCopy(result.0, bill: bill)
        let copied = try await writeCopy(copy, on: stored)
        if copied { paidOrder.till = copy }
        do {
            try await payments.add([MoneyRecord(orderRef: stored.orderRef, pickupNumber: stored.order.pickupNumber,
                                                businessDay: stored.businessDay, entry: .payment(result.1))])
        } catch {
            // Best effort: the ledger is the truth, and a copy left saying "paid" only refuses more.
            if copied { _ = try? await writeCopy(stored.till, on: stored) }
            throw .shop(error)
        }
        return PaymentReceipt(order: paidOrder, payment: result.1, money: result.0)
    }

    /// Cancels (`voiding` false) or voids an order already found; whatever was paid goes back by the method it
    /// came by. The refunds go to the ledger first (keyed by order and method, so a retry after a failure
    /// records them once), then the order's status, its audit entries and the till's copy in one write: an
    /// unpaid order costs that one write, a paid one a write more.
    /// - Parameter money: the order's money when the caller has it already (no second read).
    public func cancel(_ stored: StoredOrder, reason: String?, voiding: Bool, by staff: String, money: OrderPayments? = nil)
        async throws(TillError) -> (order: StoredOrder, refunds: [Refund])
    {
        let changed: StoredOrder
        do {
            changed = voiding ? try orders.voided(stored, reason: reason ?? "void", by: staff)
                : try orders.cancelled(stored, reason: reason)
        } catch {
            throw .shop(error)
        }
        guard !stored.isUnsent else {
            do { return (try await orders.saveCancellation(changed, from: stored, by: staff), []) } catch { throw .shop(error) }
        }
        let held: OrderPayments, bill: Int?
        if let money {
            // Without a copy, `money` came from the ledger priced by OrderTill: its total is the bill.
            (held, bill) = (money, stored.till != nil ? stored.till?.bill : (money.total != stored.order.total ? money.total : nil))
        } else {
            (held, bill) = try await state(of: stored)
        }
        let (after, refunds) = held.refundingAll(reason: changed.order.cancelReason ?? "void", by: staff, at: clock.now())
        try await record(refunds, of: stored)
        // An order the copy did not cover gets one now (its money was just read from the ledger).
        let copy = refunds.isEmpty && stored.till != nil ? nil : TillCopy(after, bill: bill)
        do {
            return (try await orders.saveCancellation(changed, from: stored, by: staff, refunds: refunds, till: copy), refunds)
        } catch {
            throw .shop(error)
        }
    }

    /// The refund side of a void: everything paid for `stored` goes back by the method it came by, recorded
    /// with the void's reason. For a caller that cancelled the order itself; `cancel(_:reason:voiding:by:)`
    /// does both in fewer writes. Read from the ledger (`stored` may be an old copy): an unpaid or already
    /// refunded order gives no refunds and writes nothing.
    @discardableResult
    public func refundOnVoid(_ stored: StoredOrder, reason: String, by staff: String) async throws(TillError) -> [Refund] {
        guard !stored.isUnsent else { return [] }
        var ledgerOnly = stored
        ledgerOnly.till = nil
        let (money, bill) = try await state(of: ledgerOnly)
        let (after, refunds) = money.refundingAll(reason: reason, by: staff, at: clock.now())
        guard !refunds.isEmpty else { return [] }
        try await record(refunds, of: stored)
        _ = try await writeCopy(TillCopy(after, bill: bill), on: stored)
        return refunds
    }

    /// The order's money: its bill's total, with the payments and refunds recorded so far (from the till's
    /// copy on the order when it has one, else read back from the ledger).
    public func money(of stored: StoredOrder) async throws(TillError) -> OrderPayments {
        try await state(of: stored).money
    }

    /// The order's money and the bill its copy should carry (nil: the order's own total). From the copy on
    /// the order without a read; an order without one reads the ledger and `OrderTill`.
    func state(of stored: StoredOrder) async throws(TillError) -> (money: OrderPayments, bill: Int?) {
        if let copy = stored.till { return (try copy.money(of: stored), copy.bill) }
        let records: [MoneyRecord]
        do { records = try await payments.forOrder(stored.orderRef) } catch { throw .shop(error) }
        let charges = try await extras.charges(of: stored)
        return (try Self.money(of: stored, total: charges.total, records: records), OrderExtras.bill(of: charges))
    }

    /// The money of many orders of `days` at once, by orderRef: from the copies the orders carry, and one
    /// read of the ledger (and of `OrderTill`) only when some order carries none.
    public func money(of stored: [StoredOrder], days: [String]) async throws(TillError) -> [String: OrderPayments] {
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
    public func ledgerMoney(of stored: [StoredOrder], days: [String]) async throws(TillError) -> [String: OrderPayments] {
        let records: [MoneyRecord]
        do { records = try await payments.forDays(days) } catch { throw .shop(error) }
        let byOrder = Dictionary(grouping: records, by: \.orderRef)
        let bills = try await extras.charges(of: stored)
        var result: [String: OrderPayments] = [:]
        for order in stored {
            let total = bills[order.orderRef]?.total ?? order.order.total
            result[order.orderRef] = try Self.money(of: order, total: total, records: byOrder[order.orderRef] ?? [])
        }
        return result
    }

    /// Writes refunds to the ledger, each keyed by its order and method.
    private func record(_ refunds: [Refund], of stored: StoredOrder) async throws(TillError) {
        do {
            try await payments.add(refunds.map {
                MoneyRecord(orderRef: stored.orderRef, pickupNumber: stored.order.pickupNumber, businessDay: stored.businessDay,
                            entry: .refund($0), ref: "\(stored.orderRef)-refund-\($0.method.rawValue)")
            })
        } catch {
            throw .shop(error)
        }
    }

    /// Writes the till's copy on the order's records (nil clears it). Returns false when the store does not
    /// have the fields yet (a remote base `setup` has not upgraded): the order is then read from the ledger.
    func writeCopy(_ copy: TillCopy?, on stored: StoredOrder) async throws(TillError) -> Bool {
        do { return try await orders.records.writeCells(of: stored, [:], extra: OrderRecord.cells(of: copy)) } catch {
            throw .shop(error)
        }
    }

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
