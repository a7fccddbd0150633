#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why an adjustment's configuration was refused; each case names the field it is about.
public enum AdjustmentValidationError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case emptyName
    case badCode(String)
    case unknownKind(String)
    case missingAmount
    case amountOutOfRange(Int)
    case missingPercent
    case percentOutOfRange(Int)

    /// The field of the adjustment the error is about.
    public var field: String {
        switch self {
        case .emptyName: "name"
        case .badCode: "code"
        case .unknownKind: "kind"
        case .missingAmount, .amountOutOfRange: "amount"
        case .missingPercent, .percentOutOfRange: "percent"
        }
    }

    /// The problem, without the field name.
    public var problem: String {
        switch self {
        case .emptyName:
            "an adjustment needs a name"
        case .badCode(let code):
            "the code typed at the counter must be lowercase letters and digits, like cup or bag2, not \"\(code)\""
        case .unknownKind(let kind):
            "unknown adjustment kind \"\(kind)\"; expected perCup, perItem or percentOff"
        case .missingAmount:
            "a perCup or perItem adjustment needs a signed amount of NT$ (−5 off, +2 added)"
        case .amountOutOfRange(let amount):
            "the amount must be a non-zero whole NT$ from −\(Adjustment.amountLimit) to \(Adjustment.amountLimit), not \(amount)"
        case .missingPercent:
            "a percentOff adjustment needs a percentage"
        case .percentOutOfRange(let percent):
            "the percentage must be from 1 to 100, not \(percent)"
        }
    }

    public var description: String { "\(field): \(problem)" }
    public var errorDescription: String? { description }

    /// Reads a kind from its code or a common spelling, with its number.
    public static func kind(code: String, amount: Int?, percent: Int?) throws(AdjustmentValidationError)
        -> AdjustmentKind
    {
        switch code.matchingKey {
        case "percup", "per cup", "per-cup", "每杯":
            guard let amount else { throw .missingAmount }
            return .perCup(amount)
        case "peritem", "per item", "per-item", "每件", "每個":
            guard let amount else { throw .missingAmount }
            return .perItem(amount)
        case "percentoff", "percent off", "percent-off", "折扣":
            guard let percent else { throw .missingPercent }
            return .percentOff(percent)
        default:
            throw .unknownKind(code)
        }
    }
}
