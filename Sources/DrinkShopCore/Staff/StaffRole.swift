#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A staff member's role. The raw value is stored.
public enum StaffRole: String, CaseIterable, Sendable, Hashable, Comparable {
    case staff
    case manager

    /// 店員 / 店長.
    public var chineseLabel: String { self == .manager ? "店長" : "店員" }

    public init?(parsing text: String) {
        switch text.matchingKey {
        case "staff", "店員", "clerk": self = .staff
        case "manager", "店長", "owner", "老闆": self = .manager
        default: return nil
        }
    }

    public static func < (lhs: StaffRole, rhs: StaffRole) -> Bool { lhs == .staff && rhs == .manager }
}

/// What someone at the counter may do, for the permission check and the audit trail.
public enum ShopAction: String, CaseIterable, Sendable, Hashable {
    case placeOrder, editOrder, cancelOrder, takePayment, redeemStamps, sellPass
    case void, changePrice, soldOut, restock, closeDay, openShift, staffChanges, managerAdjustment
    /// Deleting an order nobody has started making (a placed order); later ones are voided.
    case deleteOrder
    /// Changing a setting every counter shares (time zone, business-day start).
    case changeSetting

    /// Whether the action needs a manager once PINs are set.
    public var needsManager: Bool {
        switch self {
        case .void, .changePrice, .soldOut, .restock, .closeDay, .staffChanges, .managerAdjustment, .changeSetting: true
        case .placeOrder, .editOrder, .cancelOrder, .takePayment, .redeemStamps, .sellPass, .openShift, .deleteOrder: false
        }
    }
}

/// Who may do what. A shop that sets no PINs works as before: everyone may do everything.
public struct AccessPolicy: Sendable, Hashable {
    /// Whether any staff member has a PIN (then roles are enforced and someone must be logged in).
    public let pinsEnabled: Bool

    public init(pinsEnabled: Bool) { self.pinsEnabled = pinsEnabled }

    /// Succeeds when `role` (nil: nobody logged in) may perform `action`.
    /// - Throws: `AccessError.loginRequired` or `.managerRequired`.
    public func check(_ action: ShopAction, role: StaffRole?) throws(AccessError) {
        guard pinsEnabled else { return }
        guard let role else { throw .loginRequired(action) }
        if action.needsManager && role != .manager { throw .managerRequired(action) }
    }
}

/// Why an action was refused for the person logged in.
public enum AccessError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case loginRequired(ShopAction)
    case managerRequired(ShopAction)

    public var description: String {
        switch self {
        case .loginRequired(let action): "log in first (PINs are set): \(action.rawValue) needs someone logged in"
        case .managerRequired(let action): "only a manager may \(action.rawValue); ask a manager to log in"
        }
    }

    public var errorDescription: String? { description }
}
