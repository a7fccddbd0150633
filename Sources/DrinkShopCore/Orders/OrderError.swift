#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An order, or a change to one, that does not make sense as a whole.
public enum OrderError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// An order needs at least one line.
    case noLines
    /// Pickup numbers start at 1.
    case invalidPickupNumber(Int)
    /// There is no such line; `line` is 1-based, as staff count.
    case lineOutOfRange(order: Int, line: Int, count: Int)
    /// The drink given for an edit is not the line's drink (an edit cannot swap drinks).
    case wrongDrink(line: String, given: String)
    /// The edit names nothing to change.
    case nothingToChange(order: Int)

    public var description: String {
        switch self {
        case .noLines:
            return "an order needs at least one drink (至少要點一杯)"
        case .invalidPickupNumber(let number):
            return "pickup numbers start at 1, not \(number) (取餐號從 1 開始)"
        case .lineOutOfRange(let order, let line, let count):
            let lines = count == 1 ? "1 line" : "\(count) lines"
            return "order #\(order) has \(lines); there is no line \(line) (沒有第 \(line) 項)"
        case .wrongDrink(let line, let given):
            return "this line is \(line), not \(given) (不能換飲品); to change the drink, remove the line and add a new one"
        case .nothingToChange(let order):
            return "say what to change in order #\(order) (size, ice, sugar, add-ons, cups or note) (請說要改什麼)"
        }
    }

    public var errorDescription: String? { description }
}
