#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Money taken for an order: how, how much went to the order, and how much was handed over.
public struct Payment: Sendable, Hashable {
    public let method: PaymentMethod
    /// NT$ put towards the order (never more than was due).
    public let amount: Int
    /// NT$ the customer handed over; more than `amount` only for cash.
    public let tendered: Int
    /// The staff member who took it.
    public let takenBy: String
    public let takenAt: Date

    /// Rebuilds a payment read from storage.
    /// - Throws: `PaymentError.nonPositiveAmount` for an amount below 1, `.changeWithoutCash` when a
    ///   non-cash payment records more handed over than applied, `.tenderedBelowAmount` otherwise wrong.
    public init(method: PaymentMethod, amount: Int, tendered: Int? = nil, takenBy: String, takenAt: Date)
        throws(PaymentError)
    {
        let tendered = tendered ?? amount
        guard amount > 0 else { throw .nonPositiveAmount(amount) }
        guard tendered >= amount else { throw .tenderedBelowAmount(tendered: tendered, amount: amount) }
        guard tendered == amount || method.givesChange else {
            throw .overpaymentNotCash(method: method, offered: tendered, due: amount)
        }
        self.method = method
        self.amount = amount
        self.tendered = tendered
        self.takenBy = takenBy
        self.takenAt = takenAt
    }

    /// The change handed back: what was tendered beyond the amount applied (cash only).
    public var change: Int { tendered - amount }
}

/// Money given back for a voided order, by the method it goes back through.
public struct Refund: Sendable, Hashable {
    public let method: PaymentMethod
    /// NT$ given back; positive.
    public let amount: Int
    public let refundedBy: String
    public let refundedAt: Date
    /// Why (the void's reason).
    public let reason: String

    /// - Throws: `PaymentError.nonPositiveAmount` for an amount below 1.
    public init(method: PaymentMethod, amount: Int, refundedBy: String, refundedAt: Date, reason: String)
        throws(PaymentError)
    {
        guard amount > 0 else { throw .nonPositiveAmount(amount) }
        self.method = method
        self.amount = amount
        self.refundedBy = refundedBy
        self.refundedAt = refundedAt
        self.reason = reason
    }
}

/// Where an order stands with the till, computed from its payments and refunds, never stored.
public enum PaymentState: Sendable, Hashable, CustomStringConvertible {
    case unpaid
    /// Some money taken; `due` still to pay.
    case partlyPaid(paid: Int, due: Int)
    case paid
    /// Voided after payment: the money went back.
    case refunded(Int)

    /// Short words for order lists: "unpaid", "paid", "paid 50, 20 due", "refunded 70".
    public var description: String {
        switch self {
        case .unpaid: "unpaid"
        case .partlyPaid(let paid, let due): "paid \(paid), \(due) due"
        case .paid: "paid"
        case .refunded(let amount): "refunded \(amount)"
        }
    }

    /// 未付 / 部分付款 / 已付 / 已退款, for the receipt.
    public var chineseLabel: String {
        switch self {
        case .unpaid: "未付"
        case .partlyPaid: "部分付款"
        case .paid: "已付"
        case .refunded: "已退款"
        }
    }
}
