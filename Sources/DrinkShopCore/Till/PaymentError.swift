#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why the till refused a payment or a refund. Nothing was recorded.
public enum PaymentError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// Amounts are whole NT$ from 1 up.
    case nonPositiveAmount(Int)
    /// A card or wallet is charged exactly what is due; only cash gives change.
    case overpaymentNotCash(method: PaymentMethod, offered: Int, due: Int)
    /// A stored payment says less was handed over than was applied.
    case tenderedBelowAmount(tendered: Int, amount: Int)
    /// The order is already paid in full.
    case alreadyPaid(order: Int, total: Int)
    /// A voided or cancelled order takes no money.
    case orderVoided(order: Int)
    /// A refund larger than what was paid (in all, or through that method).
    case refundExceedsPaid(order: Int, method: PaymentMethod, refund: Int, refundable: Int)
    /// Unknown payment method word.
    case unknownMethod(String)
    /// Another counter took or gave money for the order while this payment was being worked out, twice.
    case orderChanged(order: Int)

    public var description: String {
        switch self {
        case .nonPositiveAmount(let amount):
            return "an amount must be at least NT$1, not \(amount) (金額至少 1 元)"
        case .overpaymentNotCash(let method, let offered, let due):
            return "\(method.label) is charged exactly what is due: \(offered) is more than the \(due) due "
                + "(only cash gives change) (非現金須付剛好金額)"
        case .tenderedBelowAmount(let tendered, let amount):
            return "the customer handed over \(tendered), less than the \(amount) applied (收款少於入帳金額)"
        case .orderChanged(let order):
            return "order #\(order) was being paid at another counter at the same moment (其他櫃台正在收款); "
                + "nothing recorded here, look at it again (orders)"
        case .alreadyPaid(let order, let total):
            return "order #\(order) is already paid (\(total)) (已付清)"
        case .orderVoided(let order):
            // Raised for cancelled and voided orders alike (both end as cancelled): say no more than that.
            return "order #\(order) was cancelled; a cancelled or voided order takes no payment (已取消的訂單不收款)"
        case .refundExceedsPaid(let order, let method, let refund, let refundable):
            return refundable == 0
                ? "order #\(order) has nothing paid by \(method.label) to refund (asked \(refund)) (沒有可退的款項)"
                : "a refund of \(refund) by \(method.label) is more than the \(refundable) paid that way on order #\(order) (退款超過已付金額)"
        case .unknownMethod(let word):
            return "unknown payment method \"\(word)\" (沒有這種付款方式); use cash, card, linepay, jkopay, easycard or other"
        }
    }

    public var errorDescription: String? { description }
}
