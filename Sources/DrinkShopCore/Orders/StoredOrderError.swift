#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Stored order data that cannot be taken as it is. Stored lines are not held to today's
/// ordering rules (the menu may have changed since), only to bounds that keep the arithmetic
/// sound: a base edited by hand must not be able to crash the shop with an absurd number.
/// Fields are named as the `OrderDrink` table names them.
public enum StoredOrderError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case emptyDrinkName
    case quantityOutOfRange(Int)
    case unitPriceOutOfRange(Int)
    case pickupNumberOutOfRange(Int)
    /// The promotion lists a different number of discounts than the order has lines.
    case discountCountMismatch(lines: Int, discounts: Int)
    /// A line's discount is negative or larger than the line's total; `line` is 1-based.
    case discountOutOfRange(line: Int, discount: Int, lineTotal: Int)

    /// The cups a stored line may have (the KEBUKE app sets no maximum, so this is wider than
    /// `OrderRules.quantityRange`).
    public static let quantityRange = 1...10_000
    /// The unit prices, in NT$, a stored line may have.
    public static let unitPriceRange = 0...1_000_000

    /// The `OrderDrink` field the error is about.
    public var field: String {
        switch self {
        case .emptyDrinkName: "drinkName"
        case .quantityOutOfRange: "numberOfCups"
        case .unitPriceOutOfRange: "unitPrice"
        case .pickupNumberOutOfRange: "pickupNumber"
        case .discountCountMismatch, .discountOutOfRange: "discount"
        }
    }

    public var description: String {
        switch self {
        case .emptyDrinkName:
            return "drinkName: a stored order line has no drink name"
        case .quantityOutOfRange(let quantity):
            let range = Self.quantityRange
            return "numberOfCups: \(quantity) is outside \(range.lowerBound)...\(range.upperBound)"
        case .unitPriceOutOfRange(let price):
            let range = Self.unitPriceRange
            return "unitPrice: \(price) is outside \(range.lowerBound)...\(range.upperBound)"
        case .pickupNumberOutOfRange(let number):
            return "pickupNumber: \(number) is not a pickup number (they start at 1; 0 means none)"
        case .discountCountMismatch(let lines, let discounts):
            return "discount: the order has \(lines) lines but \(discounts) discounts"
        case .discountOutOfRange(let line, let discount, let lineTotal):
            return "discount: line \(line) has a discount of \(discount) on a total of \(lineTotal)"
        }
    }

    public var errorDescription: String? { description }
}
