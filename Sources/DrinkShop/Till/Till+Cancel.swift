import Airtable
import DrinkShopCore
import Foundation

/// Cancelling and voiding with what was paid given back, and the payments that land meanwhile.
extension Till {
    /// Cancels (`voiding` false) or voids an order already found; whatever was paid goes back by the method it
    /// came by. The refunds go to the ledger first (keyed by order and method, so a retry after a failure
    /// records them once), then the order's status, its audit entries and the till's copy in one write: an
    /// unpaid order costs that one write, a paid one a write more. Then a member's card gives back what the
    /// order earned and gets back what it spent (`StampKeeping`; nothing to do for an order of no member).
    /// - Parameter money: the order's money when the caller has it already (no second read).
    func cancel(_ stored: StoredOrder, reason: String?, voiding: Bool, by staff: String, money: OrderPayments? = nil)
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
        let (saved, refunds) = try await cancelStored(stored, changed: changed, by: staff, money: money)
        try await stamps.settle(StampKeeping.Facts(saved, money: nil, standing: false))
        return (saved, refunds)
    }

    /// `cancel` of an order the store holds, before its stamps are settled.
    private func cancelStored(_ stored: StoredOrder, changed: StoredOrder, by staff: String, money: OrderPayments?)
        async throws(TillError) -> (order: StoredOrder, refunds: [Refund])
    {
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
        var saved: StoredOrder
        do { saved = try await orders.saveCancellation(changed, from: stored, by: staff, refunds: refunds, till: copy) } catch {
            throw .shop(error)
        }
        // A payment another counter committed between this counter's reading of the money and the
        // cancellation's write is given back too (after the write no payment can land on the embedded
        // store; over the API serve refuses it in the payment's commit, and elsewhere the paying counter finds the
        // mark written below in the ledger it reads its payment back from). A paying
        // counter writes its copy before its payment, so when this write wrote no copy and the store's copy
        // after it says nothing was paid, nothing was: no read of the ledger.
        if copy == nil, let held = saved.till, held.paidBy.isEmpty { return (saved, refunds) }
        // Where a payer reads no status after its payment, the cancel is marked in the ledger before the ledger is
        // read: a payment landing after that read finds the mark when its counter reads it back, and gives the
        // money back there.
        if commits.marksCancelsInLedger {
            do {
                try await payments.markCancelled(stored.orderRef, pickupNumber: stored.order.pickupNumber,
                                                 businessDay: stored.businessDay, reason: changed.order.cancelReason ?? "void",
                                                 by: staff, at: clock.now())
            } catch {
                throw .shop(error)
            }
        }
        let late = try await settleLatePayments(of: saved, reason: changed.order.cancelReason ?? "void", by: staff, bill: bill)
        if late.wrote { saved.till = nil }  // rewritten from the ledger by the settling
        guard let final = late.refundedBy else { return (saved, refunds + late.added) }
        // What this cancel gave back is what the ledger now holds given back beyond what it held before: a refund
        // lowered by the settling, or by a payer that took its payment back, is told as it stands.
        var before: [PaymentMethod: Int] = [:]
        for refund in held.refunds { before[refund.method, default: 0] += refund.amount }
        let reason = changed.order.cancelReason ?? "void", now = clock.now()
        return (saved, PaymentMethod.allCases.compactMap { method in
            try? Refund(method: method, amount: (final[method] ?? 0) - (before[method] ?? 0), refundedBy: staff, refundedAt: now,
                        reason: reason)
        })
    }

    /// What settling a cancelled order's ledger did: the refunds it added, and whether it wrote any refund (added, or
    /// lowered where one counted a payment taken back since) and the copy.
    struct Settling: Sendable {
        var added: [Refund] = []
        var wrote = false
        /// Over the API, where payments are taken back (`CommitStrategy.withdrawsLostPayments`): what the ledger holds
        /// given back once settled, by method.
        var refundedBy: [PaymentMethod: Int]?
    }

    /// Gives back, for a cancelled order, whatever the ledger holds for it beyond what was already given back:
    /// each method's refund record (keyed by order and method) is written again with the whole amount paid by that
    /// method, so however many counters settle at once the refund is given once; the copy on the order then says all
    /// was paid and given back. Where a payment that lost its claim is taken back (over Airtable), a ledger holding
    /// more payments than the bill still holds one on its way out: the ledger is read again after short pauses until
    /// it holds no more (or about 3 s have passed: then every payment stands, each found the order cancelled), and a
    /// refund that counted a payment taken back since is lowered to what stands paid (`balanceRefunds`).
    func settleLatePayments(of stored: StoredOrder, reason: String, by staff: String, bill: Int?) async throws(TillError)
        -> Settling
    {
        var records = try await ledger(of: stored)
        if commits.withdrawsLostPayments {
            let due = bill ?? stored.order.total
            var pause = 50
            for _ in 0..<Self.settlingReads where records.payments.reduce(0, { $0 + $1.amount }) > due {
                try? await Task.sleep(for: .milliseconds(pause))
                pause = min(pause * 2, 800)
                records = try await ledger(of: stored)
            }
        }
        return try await balanceRefunds(of: stored, records: records, reason: reason, by: staff, bill: bill)
    }

    /// How many times a settling reads the ledger again while it holds more payments than the bill.
    static let settlingReads = 7

    /// Sets each method's refund of a cancelled order to what the ledger holds paid by that method: raised where a
    /// payment landed after the refund was worked out, lowered (removed at nothing) where the refund counted a payment
    /// taken back since. Then the copy on the order says all was paid and given back. With `raising` false only lowered
    /// (a payer that took its payment back leaves the giving back to the cancel's own settling).
    func balanceRefunds(of stored: StoredOrder, records: [MoneyRecord], reason: String, by staff: String, bill: Int?,
                        raising: Bool = true) async throws(TillError) -> Settling
    {
        var paid: [PaymentMethod: Int] = [:], refunded: [PaymentMethod: Int] = [:]
        var given: [PaymentMethod: Refund] = [:]
        for record in records {
            switch record.entry {
            case .payment(let payment): paid[payment.method, default: 0] += payment.amount
            case .refund(let refund):
                refunded[refund.method, default: 0] += refund.amount
                given[refund.method] = refund
            }
        }
        var settling = Settling()
        if commits.withdrawsLostPayments { settling.refundedBy = paid }
        var whole: [Refund] = []
        var removed: [PaymentMethod] = []
        let now = clock.now()
        for method in PaymentMethod.allCases {
            let total = paid[method] ?? 0, back = refunded[method] ?? 0
            if total > back, raising {
                guard let refund = try? Refund(method: method, amount: total, refundedBy: staff, refundedAt: now, reason: reason),
                      let extra = try? Refund(method: method, amount: total - back, refundedBy: staff, refundedAt: now, reason: reason)
                else { continue }
                whole.append(refund)
                settling.added.append(extra)
            } else if back > total, commits.withdrawsLostPayments {
                // Only over the API, where a payment can be taken back after a refund counted it.
                if let earlier = given[method],
                   let lowered = try? Refund(method: method, amount: total, refundedBy: earlier.refundedBy,
                                             refundedAt: earlier.refundedAt, reason: earlier.reason) {
                    whole.append(lowered)
                } else {
                    removed.append(method)
                }
            }
        }
        guard !whole.isEmpty || !removed.isEmpty else { return settling }
        settling.wrote = true
        try await record(whole, of: stored)
        do {
            for method in removed { try await payments.removeRefund(ofOrder: stored.orderRef, key: Self.refundKey(stored, method)) }
        } catch {
            throw .shop(error)
        }
        // The copy says what the ledger now holds: all given back, or (only lowered) each refund at most what was paid.
        var refundedNow: [PaymentMethod: Int] = [:]
        for method in PaymentMethod.allCases {
            let back = raising ? (paid[method] ?? 0) : min(refunded[method] ?? 0, paid[method] ?? 0)
            if back > 0 { refundedNow[method] = back }
        }
        let settled = TillCopy(paidBy: paid, refundedBy: refundedNow, bill: bill)
        do { _ = try await orders.records.writeCells(of: stored, [:], extra: OrderRecord.cells(of: settled)) } catch {
            throw .shop(error)
        }
        return settling
    }

    /// The key of an order's refund by `method`: one per order and method.
    static func refundKey(_ stored: StoredOrder, _ method: PaymentMethod) -> String {
        "\(stored.orderRef)-refund-\(method.rawValue)"
    }

    private func record(_ refunds: [Refund], of stored: StoredOrder) async throws(TillError) {
        guard !refunds.isEmpty else { return }
        let records = refunds.map {
            MoneyRecord(orderRef: stored.orderRef, pickupNumber: stored.order.pickupNumber, businessDay: stored.businessDay,
                        entry: .refund($0), ref: Self.refundKey(stored, $0.method))
        }
        do {
            try await payments.add(records)
            // A refund is keyed by its order and method so it is given once; over the API two counters settling
            // at once (a void and a payment's late settling) may both create it: the earliest stands.
            try await payments.keepEarliest(ofKeys: Set(records.compactMap(\.ref)), inOrder: stored.orderRef)
        } catch {
            throw .shop(error)
        }
    }
}
