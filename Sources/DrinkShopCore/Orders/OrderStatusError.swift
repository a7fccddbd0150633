#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A status change the order's state does not allow. Messages name the order by its pickup
/// number, as staff call it out.
public enum OrderStatusError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The order was picked up or cancelled; nothing can change any more.
    case finished(order: Int, status: OrderStatus)
    /// A ready order cannot be cancelled; it can only be picked up.
    case onlyPickupLeft(order: Int)
    /// Lines can only change while the order is placed.
    case notEditable(order: Int, status: OrderStatus)
    /// A cancellation needs a reason.
    case missingCancelReason(order: Int)
    /// The reason is longer than `Order.maximumCancelReasonLength` characters.
    case cancelReasonTooLong(order: Int, length: Int)
    /// A placed order is not being made yet: cancel or delete it instead of voiding.
    case voidNotNeeded(order: Int)

    public var description: String {
        switch self {
        case .finished(let order, .pickedUp):
            return "order #\(order) was picked up; a picked-up order cannot change (已取餐的訂單不能變更)"
        case .finished(let order, _):
            return "order #\(order) was cancelled; a cancelled order cannot change (已取消的訂單不能變更)"
        case .onlyPickupLeft(let order):
            // Cancelling is the wrong command here, so the message names the right one.
            return "order #\(order) is ready; it can only be picked up, or voided by a manager (void #\(order) REASON) "
                + "(可取餐的訂單只能取餐或作廢)"
        case .notEditable(let order, let status):
            return "order #\(order) is \(status.stateDescription); only placed orders can be edited (只有已下單的訂單可以修改)"
        case .voidNotNeeded(let order):
            return "order #\(order) is only placed, nothing was made yet: cancel it (cancel #\(order) REASON) or delete it (尚未製作，請取消或刪單)"
        case .missingCancelReason(let order):
            return "cancelling order #\(order) needs a reason (取消須填寫原因)"
        case .cancelReasonTooLong(let order, let length):
            return "the reason for cancelling order #\(order) is \(length) characters long; "
                + "at most \(Order.maximumCancelReasonLength) are allowed (取消原因最多 \(Order.maximumCancelReasonLength) 字)"
        }
    }

    public var errorDescription: String? { description }
}

extension OrderStatus {
    /// The status as the end of "order #12 is ...".
    var stateDescription: String {
        switch self {
        case .placed: "placed"
        case .preparing: "being prepared"
        case .ready: "ready"
        case .pickedUp: "picked up"
        case .cancelled: "cancelled"
        }
    }
}
