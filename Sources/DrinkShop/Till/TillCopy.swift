import DrinkShopCore
import Foundation

/// What the till needs to decide about an order, kept on the order's own `OrderDrink` records so the
/// read that finds the order brings it: NT$ paid and refunded by each method, and the bill when the till's
/// adjustments or member benefits make it differ from the order's total.
///
/// `TillPayment` stays the ledger (who, when, tendered, change: the report, the drawer, receipts); this is
/// its copy, written by the till with every payment, refund and adjustment. An order placed by an earlier
/// version carries none (`StoredOrder.till` is nil) and is read from the ledger and `OrderTill` as before,
/// until the till next writes to it.
public struct TillCopy: Sendable, Equatable {
    public var paidBy: [PaymentMethod: Int] = [:]
    public var refundedBy: [PaymentMethod: Int] = [:]
    /// The bill's total when the till's extras change it or the order is a member's (`OrderExtras.bill`); nil
    /// means the order's own total, and no member.
    public var bill: Int?

    public init(paidBy: [PaymentMethod: Int] = [:], refundedBy: [PaymentMethod: Int] = [:], bill: Int? = nil) {
        self.paidBy = paidBy.filter { $0.value != 0 }
        self.refundedBy = refundedBy.filter { $0.value != 0 }
        self.bill = bill
    }

    /// The copy of `money`, with `bill` as the bill's total when the till's extras changed it.
    public init(_ money: OrderPayments, bill: Int?) {
        var paid: [PaymentMethod: Int] = [:]
        var refunded: [PaymentMethod: Int] = [:]
        for payment in money.payments { paid[payment.method, default: 0] += payment.amount }
        for refund in money.refunds { refunded[refund.method, default: 0] += refund.amount }
        self.init(paidBy: paid, refundedBy: refunded, bill: bill)
    }

    public var paid: Int { paidBy.values.reduce(0, +) }
    public var refunded: Int { refundedBy.values.reduce(0, +) }

    /// The order's money as the copy tells it: one payment and one refund per method (who and when are the
    /// ledger's; the amounts, what is due and what each method may get back are exact).
    func money(of stored: StoredOrder) throws(TillError) -> OrderPayments {
        let at = stored.order.createdAt
        do {
            let payments = try PaymentMethod.allCases.compactMap { (method) throws(PaymentError) -> Payment? in
                guard let amount = paidBy[method], amount > 0 else { return nil }
                return try Payment(method: method, amount: amount, takenBy: "", takenAt: at)
            }
            let refunds = try PaymentMethod.allCases.compactMap { (method) throws(PaymentError) -> Refund? in
                guard let amount = refundedBy[method], amount > 0 else { return nil }
                return try Refund(method: method, amount: amount, refundedBy: "", refundedAt: at, reason: "")
            }
            return try OrderPayments(pickupNumber: stored.order.pickupNumber, total: bill ?? stored.order.total,
                                     payments: payments, refunds: refunds)
        } catch {
            throw .shop(.storedData("order #\(stored.order.pickupNumber) in OrderDrink: the till's copy \(error)"))
        }
    }

    /// `cash:100,linePay:20`, methods in their declared order.
    static func text(_ amounts: [PaymentMethod: Int]) -> String {
        PaymentMethod.allCases.compactMap { method in amounts[method].map { "\(method.rawValue):\($0)" } }
            .joined(separator: ",")
    }

    /// The amounts of `text`; nil when it is not what `text(_:)` writes.
    static func amounts(_ text: String) -> [PaymentMethod: Int]? {
        var result: [PaymentMethod: Int] = [:]
        for item in text.split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let method = PaymentMethod(rawValue: String(parts[0])), let amount = Int(parts[1]),
                  amount >= 0 else { return nil }
            result[method, default: 0] += amount
        }
        return result
    }
}
