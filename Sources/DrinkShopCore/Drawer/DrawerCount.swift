#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A shift at the till (交班): who opened it, when, and the cash float put in the drawer.
public struct Shift: Sendable, Hashable {
    public let openedBy: String
    public let openedAt: Date
    /// NT$ in the drawer at the start.
    public let float: Int

    /// - Throws: `DrawerError.negativeAmount` for a float below zero.
    public init(openedBy: String, openedAt: Date, float: Int) throws(DrawerError) {
        guard float >= 0 else { throw .negativeAmount(field: "float", float) }
        self.openedBy = openedBy
        self.openedAt = openedAt
        self.float = float
    }

    /// Opens a shift unless one is open already (one drawer, one shift at a time).
    /// - Throws: `DrawerError.shiftAlreadyOpen`, or `.negativeAmount` for a float below zero.
    public static func open(current: Shift?, by staff: String, at date: Date, float: Int) throws(DrawerError) -> Shift {
        if let current { throw .shiftAlreadyOpen(openedBy: current.openedBy) }
        return try Shift(openedBy: staff, openedAt: date, float: float)
    }

    /// The open shift, for closing.
    /// - Throws: `DrawerError.noOpenShift`.
    public static func toClose(_ current: Shift?) throws(DrawerError) -> Shift {
        guard let current else { throw .noOpenShift }
        return current
    }

    /// Cash the drawer should hold: the float, plus cash taken (what went to orders, change
    /// already handed back), less cash refunded.
    public func expectedCash(payments: [Payment], refunds: [Refund]) -> Int {
        float + CashMovement(payments: payments, refunds: refunds).net
    }

    /// Closes the shift against the counted cash.
    /// - Throws: `DrawerError.negativeAmount` for a count below zero.
    public func close(counted: Int, payments: [Payment], refunds: [Refund], closedBy: String, at date: Date)
        throws(DrawerError) -> DrawerCount
    {
        guard counted >= 0 else { throw .negativeAmount(field: "counted", counted) }
        let cash = CashMovement(payments: payments, refunds: refunds)
        return DrawerCount(shift: self, expected: float + cash.net, counted: counted, closedBy: closedBy, closedAt: date,
                           cash: cash)
    }
}

/// The drawer counted at closing against what it should hold.
public struct DrawerCount: Sendable, Hashable {
    public let shift: Shift
    public let expected: Int
    public let counted: Int
    public let closedBy: String
    public let closedAt: Date
    /// How the cash moved during the shift, when the count was just made (a count read back from storage
    /// keeps only what it expected).
    public let cash: CashMovement?

    /// A count read back from storage (`cash` nil), or just made.
    public init(shift: Shift, expected: Int, counted: Int, closedBy: String, closedAt: Date, cash: CashMovement? = nil) {
        self.shift = shift
        self.expected = expected
        self.counted = counted
        self.closedBy = closedBy
        self.closedAt = closedAt
        self.cash = cash
    }

    /// Counted minus expected: positive is over, negative is short.
    public var difference: Int { counted - expected }

    /// "exact", "over 20" or "short 15" (帳平 / 溢收 / 短少 in `chineseSummary`).
    public var summary: String {
        difference == 0 ? "exact" : difference > 0 ? "over \(difference)" : "short \(-difference)"
    }

    public var chineseSummary: String {
        difference == 0 ? "帳平" : difference > 0 ? "溢收 \(difference)" : "短少 \(-difference)"
    }
}

public enum DrawerError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case negativeAmount(field: String, Int)
    case noOpenShift
    case shiftAlreadyOpen(openedBy: String)
    /// Cash is never taken outside a shift: the drawer's count would not know it.
    case noShiftForCash
    /// No shift is open because the day's last one was closed already (a close whose answer was lost, tried
    /// again): when (the shop's wall clock, `21:04`), by whom, and the count it recorded.
    case alreadyClosed(at: String, by: String, counted: Int, summary: String)

    public var description: String {
        switch self {
        case .negativeAmount(let field, let amount): "the \(field) cannot be below zero (\(amount)) (金額不可為負)"
        case .noOpenShift: "no shift is open (未開班); open one with its cash float first"
        case .shiftAlreadyOpen(let who): "a shift is already open (opened by \(who)) (已開班); close it first"
        case .noShiftForCash:
            "no shift is open, so the drawer takes no cash (未開班): open one with its float first (shift open FLOAT), "
                + "then take the cash; nothing recorded"
        case .alreadyClosed(let time, let who, let counted, let summary):
            "the drawer was closed at \(time) by \(who), counted \(counted), \(summary) (已交班); nothing changed: "
                + "to count again, open a new shift first (shift open FLOAT)"
        }
    }

    public var errorDescription: String? { description }
}

/// The cash a shift's drawer took in and gave out: what customers handed over, the change given back and
/// the cash refunded. float + handed over − change − refunded is what the drawer should hold (`MoneyFigure`
/// names each: handed over is not the report's taken, which is after change).
public struct CashMovement: Sendable, Hashable {
    /// Cash handed over by customers (tendered).
    public let handedOver: Int
    /// Change given back.
    public let change: Int
    /// Cash refunds.
    public let refunded: Int

    public init(payments: [Payment], refunds: [Refund]) {
        let cash = payments.filter { $0.method == .cash }
        handedOver = cash.reduce(0) { $0 + $1.tendered }
        change = cash.reduce(0) { $0 + $1.change }
        refunded = refunds.filter { $0.method == .cash }.reduce(0) { $0 + $1.amount }
    }

    /// What the cash added to the drawer: handed over − change − refunded.
    public var net: Int { handedOver - change - refunded }
}
