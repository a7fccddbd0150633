#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a promotion's data was refused; each case names the `Promotion` table field it is about.
public enum PromotionValidationError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case emptyName
    case unknownKind(String)
    case missingPercent
    case percentOutOfRange(Int)
    case emptyDrinkScope
    /// The window ends at or before it starts.
    case windowEndsBeforeStart

    /// The field of the `Promotion` table the error is about.
    public var field: String {
        switch self {
        case .emptyName: "name"
        case .unknownKind: "kind"
        case .missingPercent, .percentOutOfRange: "percent"
        case .emptyDrinkScope: "drink"
        case .windowEndsBeforeStart: "endsAt"
        }
    }

    public var description: String {
        switch self {
        case .emptyName:
            return "name: a promotion needs a name"
        case .unknownKind(let kind):
            return "kind: unknown promotion kind \"\(kind)\"; expected secondCupHalfPrice, buyOneGetOne or percentOff"
        case .missingPercent:
            return "percent: a percent-off promotion needs a percentage"
        case .percentOutOfRange(let percent):
            return "percent: the percentage must be from 1 to 100, not \(percent)"
        case .emptyDrinkScope:
            return "drink: a promotion limited to one drink needs the drink's name"
        case .windowEndsBeforeStart:
            return "endsAt: the promotion ends before it starts"
        }
    }

    public var errorDescription: String? { description }
}
