#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An order's money: what it costs, the payments taken and the refunds given. Every change is
/// checked first and returns a new value, so a refused payment or refund leaves it as it was.
public struct OrderPayments: Sendable, Hashable {
    /// The pickup number, for messages.
    public let pickupNumber: Int
    /// What the customer owes (after promotions, adjustments and member benefits).
    public let total: Int
    public private(set) var payments: [Payment]
    public private(set) var refunds: [Refund]

    /// - Throws: `PaymentError.refundExceedsPaid` when stored refunds exceed the payments by a method.
    public init(pickupNumber: Int, total: Int, payments: [Payment] = [], refunds: [Refund] = [])
        throws(PaymentError)
    {
        self.pickupNumber = pickupNumber
        self.total = max(0, total)
        self.payments = payments
        self.refunds = []
        for refund in refunds {
            try self.checkRefund(refund.method, refund.amount)
            self.refunds.append(refund)
        }
    }

    /// NT$ applied to the order by all payments.
    public var paid: Int { payments.reduce(0) { $0 + $1.amount } }
    /// NT$ given back.
    public var refunded: Int { refunds.reduce(0) { $0 + $1.amount } }
    /// NT$ still to pay; 0 once paid.
    public var due: Int { max(0, total - paid) }

    /// Unpaid, partly paid or paid from the payments; refunded once money went back.
    public var state: PaymentState {
        if refunded > 0 { return .refunded(refunded) }
        if paid == 0 { return total == 0 ? .paid : .unpaid }
        return paid >= total ? .paid : .partlyPaid(paid: paid, due: due)
    }

    /// NT$ paid by `method` and not yet refunded.
    public func refundable(by method: PaymentMethod) -> Int {
        payments.filter { $0.method == method }.reduce(0) { $0 + $1.amount }
            - refunds.filter { $0.method == method }.reduce(0) { $0 + $1.amount }
    }

    /// Takes `tendered` NT$ by `method`. Cash may exceed what is due (the rest is change); other
    /// methods may not. A payment below what is due leaves the order partly paid.
    /// - Parameter voided: whether the order is cancelled or voided (it then takes no money).
    /// - Returns: the order's money with the payment, and the payment (its `change` is what to hand back).
    /// - Throws: `PaymentError`: a non-positive amount, a voided order, an order already paid, an
    ///   overpayment that is not cash.
    public func paying(_ method: PaymentMethod, tendered: Int, voided: Bool, by staff: String, at date: Date)
        throws(PaymentError) -> (OrderPayments, Payment)
    {
        guard tendered > 0 else { throw .nonPositiveAmount(tendered) }
        guard !voided else { throw .orderVoided(order: pickupNumber) }
        guard due > 0 else { throw .alreadyPaid(order: pickupNumber, total: total) }
        guard tendered <= due || method.givesChange else {
            throw .overpaymentNotCash(method: method, offered: tendered, due: due)
        }
        let payment = try Payment(method: method, amount: min(tendered, due), tendered: tendered,
                                  takenBy: staff, takenAt: date)
        var next = self
        next.payments.append(payment)
        return (next, payment)
    }

    /// Gives `amount` back through `method`.
    /// - Throws: `PaymentError.nonPositiveAmount`, or `.refundExceedsPaid` beyond what `method` paid.
    public func refunding(_ method: PaymentMethod, amount: Int, reason: String, by staff: String, at date: Date)
        throws(PaymentError) -> (OrderPayments, Refund)
    {
        try checkRefund(method, amount)
        let refund = try Refund(method: method, amount: amount, refundedBy: staff, refundedAt: date, reason: reason)
        var next = self
        next.refunds.append(refund)
        return (next, refund)
    }

    /// Voiding: everything still held goes back through the method it came by, one refund per
    /// method (cash first, then in `PaymentMethod` order). Nothing to refund gives no refunds.
    public func refundingAll(reason: String, by staff: String, at date: Date) -> (OrderPayments, [Refund]) {
        var next = self
        var given: [Refund] = []
        for method in PaymentMethod.allCases {
            let amount = refundable(by: method)
            guard amount > 0,
                  let refund = try? Refund(method: method, amount: amount, refundedBy: staff, refundedAt: date,
                                           reason: reason)
            else { continue }
            next.refunds.append(refund)
            given.append(refund)
        }
        return (next, given)
    }

    private func checkRefund(_ method: PaymentMethod, _ amount: Int) throws(PaymentError) {
        guard amount > 0 else { throw .nonPositiveAmount(amount) }
        let refundable = refundable(by: method)
        guard amount <= refundable else {
            throw .refundExceedsPaid(order: pickupNumber, method: method, refund: amount, refundable: refundable)
        }
    }
}
