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
    /// Moving an order along the make line (placed → preparing → ready → picked up).
    case advanceOrder
    /// Loading or replacing the menu and promotions from a seed file.
    case seedMenu
    /// Setting up the e-invoice: the seller, the imported number ranges, the period's blank numbers.
    case invoiceSetup

    /// Whether the action needs a manager once PINs are set.
    public var needsManager: Bool {
        switch self {
        case .void, .changePrice, .soldOut, .restock, .closeDay, .staffChanges, .managerAdjustment, .changeSetting, .seedMenu, .invoiceSetup:
            true
        case .placeOrder, .editOrder, .cancelOrder, .takePayment, .redeemStamps, .sellPass, .openShift, .deleteOrder,
             .advanceOrder:
            false
        }
    }

    /// What the action is, as staff say it (for refusals: "only a manager may void an order (作廢)").
    public var staffWords: String {
        switch self {
        case .placeOrder: "place an order (點單)"
        case .editOrder: "change an order (改單)"
        case .cancelOrder: "cancel an order (取消)"
        case .takePayment: "take a payment (收款)"
        case .redeemStamps: "redeem stamps (集點兌換)"
        case .sellPass: "sell a pass (售卡)"
        case .void: "void an order (作廢)"
        case .changePrice: "change a price (改價)"
        case .soldOut: "mark a drink sold out (售完)"
        case .restock: "put a drink back on sale (恢復供應)"
        case .closeDay: "close the day (日結)"
        case .openShift: "open a shift (開班)"
        case .staffChanges: "change the staff (員工管理)"
        case .managerAdjustment: "give a manager's adjustment (店長折讓)"
        case .deleteOrder: "delete an order (刪單)"
        case .changeSetting: "change a setting for every counter (設定)"
        case .advanceOrder: "move an order on (出單)"
        case .seedMenu: "load the menu (匯入菜單)"
        case .invoiceSetup: "set up the e-invoice (電子發票設定)"
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
        case .loginRequired(let action): "log in first (請先登入): to \(action.staffWords) someone must be logged in once PINs are set"
        case .managerRequired(let action): "only a manager may \(action.staffWords); ask a manager to log in (需店長)"
        }
    }

    public var errorDescription: String? { description }
}
