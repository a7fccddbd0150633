#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An order with everything the till knows about it: the bill, the money, the member and the
/// invoice details. The input of reports and exports.
public struct TillOrder: Sendable, Hashable {
    public let order: Order
    public let charges: OrderCharges
    public let money: OrderPayments
    public let member: MobileNumber?
    /// Stamps spent on free cups.
    public let stampsRedeemed: Int
    public let invoice: InvoiceDetails?

    public init(order: Order, charges: OrderCharges, money: OrderPayments, member: MobileNumber? = nil,
                stampsRedeemed: Int = 0, invoice: InvoiceDetails? = nil)
    {
        self.order = order
        self.charges = charges
        self.money = money
        self.member = member
        self.stampsRedeemed = stampsRedeemed
        self.invoice = invoice
    }

    /// A void (`Order.isVoid(moneyReturned:)`): voided, or cancelled after money was taken, with refunds.
    public var isVoid: Bool { order.isVoid(moneyReturned: !money.payments.isEmpty) }
    /// Cancelled before anything was made and before any money was taken.
    public var isCancellation: Bool { order.status == .cancelled && !isVoid }
    /// The status as the export names it: `voided` for a void (as the reports count it), else the order's status.
    public var status: String { isVoid ? "voided" : order.status.rawValue }
}

/// One entry of the audit trail: who did what to what, and when.
public struct AuditEntry: Sendable, Hashable {
    public let at: Date
    public let by: String
    public let action: ShopAction
    /// What it was done to: "熟成紅茶", "#12", "阿明".
    public let subject: String
    /// "M 35 -> 40", "sold out", a reason.
    public let detail: String

    /// How the entry of an order handed over with money due begins ("handed over unpaid: $40 due").
    public static let unpaidHandover = "handed over unpaid:"

    /// Whether this entry is an order handed over with money due.
    public var isUnpaidHandover: Bool { action == .advanceOrder && detail.hasPrefix(Self.unpaidHandover) }

    public init(at: Date, by: String, action: ShopAction, subject: String, detail: String) {
        self.at = at
        self.by = by
        self.action = action
        self.subject = subject
        self.detail = detail
    }
}
