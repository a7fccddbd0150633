#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One customer's order under one pickup number: its lines, its status, and the promotion it got.
///
/// Every change goes through a method that checks it first, so a refused change leaves the order
/// exactly as it was. The promotion is chosen again after every edit, among the promotions that
/// were running when the order was created: the customer keeps the offer they ordered under.
public struct Order: Sendable, Hashable {
    /// The longest cancellation reason, in characters.
    public static let maximumCancelReasonLength = 100

    /// The short number called out at pickup (取餐號), unique among the day's orders; 0 until one is
    /// given (`numbered(_:)`).
    public private(set) var pickupNumber: Int
    /// Who the order is for.
    public let orderName: String
    /// The staff member who placed it.
    public let placedBy: String
    /// Where the order is; changed only by `advance` and `cancel`.
    public private(set) var status: OrderStatus
    /// Why it was cancelled (or voided); nil unless cancelled.
    public private(set) var cancelReason: String?
    /// Who voided it: an order being made or handed over is voided, not deleted: it is kept, shown in
    /// the report with who and why, and not counted as revenue. Nil unless voided (its status is then
    /// `cancelled` and `cancelReason` says why).
    public private(set) var voidedBy: String?
    /// Whether the order was voided (after it started being made), rather than cancelled.
    public var isVoided: Bool { voidedBy != nil }

    /// Whether a cancelled order is a void, as every report and the counter name it: voided with the `void`
    /// command (after it was made), or cancelled with money given back (a manager's action once PINs are set).
    /// Any other cancelled order is a cancellation.
    public func isVoid(moneyReturned: Bool) -> Bool { status == .cancelled && (isVoided || moneyReturned) }
    /// When it was placed; promotions are judged at this time.
    public let createdAt: Date
    /// The lines, in the order they were added; never empty for a placed order.
    public private(set) var lines: [OrderLine]
    /// The promotion applied, with its discount per line; nil when none applies.
    public private(set) var promotion: AppliedPromotion?

    /// Places a new order: checks the names and lines and applies the best promotion running at
    /// `createdAt`.
    /// - Throws: `OrderError.noLines` or `.invalidPickupNumber`, or `PersonNameError` for a bad
    ///   `orderName` or `placedBy`.
    public static func place(
        pickupNumber: Int,
        orderName: String,
        placedBy: String,
        createdAt: Date,
        lines: [OrderLine],
        promotions: [Promotion]
    ) throws -> Order {
        guard pickupNumber >= 1 else { throw OrderError.invalidPickupNumber(pickupNumber) }
        return try place(orderName: orderName, placedBy: placedBy, createdAt: createdAt, lines: lines,
                         promotions: promotions).numbered(pickupNumber)
    }

    /// Places a new order that has no pickup number yet (0): checks everything a number does not depend
    /// on, so no number is spent on a doomed order. Give it one with `numbered(_:)`.
    public static func place(
        orderName: String,
        placedBy: String,
        createdAt: Date,
        lines: [OrderLine],
        promotions: [Promotion]
    ) throws -> Order {
        guard !lines.isEmpty else { throw OrderError.noLines }
        let orderName = try PersonName.validated(orderName, field: "who the order is for")
        let placedBy = try PersonName.validated(placedBy, field: "who placed the order")
        return Order(
            validPickupNumber: 0, orderName: orderName, placedBy: placedBy, createdAt: createdAt,
            lines: lines, promotion: Pricing.bestPromotion(for: lines, among: promotions, at: createdAt))
    }

    /// The same order under the pickup number `number` (1 or more), everything else untouched.
    public func numbered(_ number: Int) throws(OrderError) -> Order {
        guard number >= 1 else { throw .invalidPickupNumber(number) }
        var copy = self
        copy.pickupNumber = number
        return copy
    }

    /// Rebuilds an order read from storage, exactly as stored: nothing is repriced, and only
    /// the stored discounts are checked (one per line, each within its line's total). A pickup number
    /// of 0 means the order has none yet: another client (the KEBUKE app) wrote it without one.
    /// - Throws: `StoredOrderError`.
    public init(
        pickupNumber: Int,
        orderName: String,
        placedBy: String,
        status: OrderStatus,
        cancelReason: String? = nil,
        createdAt: Date,
        lines: [OrderLine],
        promotion: AppliedPromotion? = nil,
        voidedBy: String? = nil
    ) throws(StoredOrderError) {
        guard pickupNumber >= 0 else { throw .pickupNumberOutOfRange(pickupNumber) }
        if let promotion {
            guard promotion.lineDiscounts.count == lines.count else {
                throw .discountCountMismatch(lines: lines.count, discounts: promotion.lineDiscounts.count)
            }
            for (index, (line, discount)) in zip(lines, promotion.lineDiscounts).enumerated()
            where !(0...line.lineTotal).contains(discount) {
                throw .discountOutOfRange(line: index + 1, discount: discount, lineTotal: line.lineTotal)
            }
        }
        self.pickupNumber = pickupNumber
        self.orderName = orderName
        self.placedBy = placedBy
        self.status = status
        self.cancelReason = cancelReason
        self.createdAt = createdAt
        self.lines = lines
        self.promotion = promotion
        self.voidedBy = status == .cancelled ? voidedBy : nil
    }

    private init(
        validPickupNumber: Int, orderName: String, placedBy: String, createdAt: Date, lines: [OrderLine],
        promotion: AppliedPromotion?
    ) {
        self.pickupNumber = validPickupNumber
        self.orderName = orderName
        self.placedBy = placedBy
        self.status = .placed
        self.cancelReason = nil
        self.createdAt = createdAt
        self.lines = lines
        self.promotion = promotion
    }

    /// The sum of the line totals, before the discount.
    public var subtotal: Int { lines.reduce(0) { $0 + $1.lineTotal } }
    /// NT$ off the order; 0 without a promotion.
    public var discount: Int { promotion?.totalDiscount ?? 0 }
    /// What the customer pays.
    public var total: Int { subtotal - discount }
    /// The number of cups across all lines.
    public var cupCount: Int { lines.reduce(0) { $0 + $1.quantity } }
    /// The discount on line `index` (0-based).
    public func discount(forLine index: Int) -> Int { promotion?.discount(forLine: index) ?? 0 }
    /// Whether the lines may still change (only while placed).
    public var canEdit: Bool { status.canEdit }

    /// Moves the order to its next status.
    /// - Returns: the new status.
    /// - Throws: `OrderStatusError.finished` for a picked-up or cancelled order.
    @discardableResult
    public mutating func advance() throws(OrderStatusError) -> OrderStatus {
        status = try status.advanced(order: pickupNumber)
        return status
    }

    /// Takes the status the store shows another counter gave the order (moved on, or cancelled with
    /// `cancelReason`) while this counter wrote from an older copy of it.
    public mutating func adopt(storedStatus: OrderStatus, cancelReason: String?) {
        status = storedStatus
        if storedStatus == .cancelled { self.cancelReason = cancelReason }
    }

    /// Cancels the order, keeping it (with the reason) for the day's report.
    /// - Throws: `OrderStatusError` when the order is ready or finished, or the reason is empty
    ///   or longer than `maximumCancelReasonLength`.
    public mutating func cancel(reason: String) throws(OrderStatusError) {
        let reason = reason.trimmed
        let next = try status.cancelled(order: pickupNumber)
        guard !reason.isEmpty else { throw .missingCancelReason(order: pickupNumber) }
        guard reason.count <= Self.maximumCancelReasonLength else {
            throw .cancelReasonTooLong(order: pickupNumber, length: reason.count)
        }
        status = next
        cancelReason = reason
    }

    /// Voids an order that is being made, ready or picked up: it stays (cancelled, with who and why)
    /// and no longer counts as revenue. A placed order is cancelled or deleted instead.
    /// - Throws: `OrderStatusError.voidNotNeeded` for a placed order, `.finished` for a cancelled one,
    ///   `.missingCancelReason`/`.cancelReasonTooLong` for the reason.
    public mutating func void(by staff: String, reason: String) throws(OrderStatusError) {
        let reason = reason.trimmed
        switch status {
        case .placed: throw .voidNotNeeded(order: pickupNumber)
        case .cancelled: throw .finished(order: pickupNumber, status: status)
        case .preparing, .ready, .pickedUp: break
        }
        guard !reason.isEmpty else { throw .missingCancelReason(order: pickupNumber) }
        guard reason.count <= Self.maximumCancelReasonLength else {
            throw .cancelReasonTooLong(order: pickupNumber, length: reason.count)
        }
        status = .cancelled
        cancelReason = reason
        voidedBy = staff
    }

    /// Applies `edit` to line `index` (0-based), re-checking it against `drink` (the line's drink
    /// as the menu has it now), repricing it, and choosing the promotion again.
    /// - Throws: `OrderStatusError.notEditable` unless placed; `OrderError` for an empty edit,
    ///   a missing line or another drink; `OrderRuleViolation` when the edited line breaks a rule.
    public mutating func editLine(at index: Int, with edit: LineEdit, drink: Drink, promotions: [Promotion]) throws {
        try status.checkEditable(order: pickupNumber)
        guard !edit.isEmpty else { throw OrderError.nothingToChange(order: pickupNumber) }
        try checkLineExists(index)
        var edited = lines
        edited[index] = try lines[index].editing(edit, drink: drink)
        replaceLines(edited, promotions: promotions)
    }

    /// Puts `drink` in place of line `index`'s drink (staff swapping a drink for a customer), keeping the line's
    /// choices unless `edit` changes them; the new line is checked as a new one (sold out included) and priced now,
    /// and the promotion is chosen again.
    /// - Throws: `OrderStatusError.notEditable` unless placed; `OrderError` for a missing line;
    ///   `OrderRuleViolation` when the new line breaks a rule.
    public mutating func swapLine(at index: Int, to drink: Drink, with edit: LineEdit, promotions: [Promotion]) throws {
        try status.checkEditable(order: pickupNumber)
        try checkLineExists(index)
        var edited = lines
        edited[index] = try OrderLine(drink: drink, choices: edit.applied(to: lines[index].choices))
        replaceLines(edited, promotions: promotions)
    }

    private func checkLineExists(_ index: Int) throws(OrderError) {
        guard lines.indices.contains(index) else {
            throw .lineOutOfRange(order: pickupNumber, line: index + 1, count: lines.count)
        }
    }

    private mutating func replaceLines(_ newLines: [OrderLine], promotions: [Promotion]) {
        lines = newLines
        promotion = Pricing.bestPromotion(for: newLines, among: promotions, at: createdAt)
    }
}
