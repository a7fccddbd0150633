#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a drink's data was refused. Each case knows the field it is about, named as the `Drink`
/// table names it (`name`, `medium`, `large`, `category`), so a seed file's error can point at it.
public enum DrinkValidationError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The name is empty or only whitespace.
    case emptyName
    /// The name holds a control character such as a newline or tab.
    case nameHasControlCharacters(String)
    /// A price is zero or negative; `field` is `medium` or `large`.
    case nonPositivePrice(field: String, value: Int)
    /// The large cup would cost less than the medium one.
    case largeBelowMedium(medium: Int, large: Int)
    /// The category is not one of the five on the menu.
    case unknownCategory(String)

    /// The field of the `Drink` table the error is about.
    public var field: String {
        switch self {
        case .emptyName, .nameHasControlCharacters: "name"
        case .nonPositivePrice(let field, _): field
        case .largeBelowMedium: "large"
        case .unknownCategory: "category"
        }
    }

    public var description: String {
        switch self {
        case .emptyName:
            return "name: a drink needs a name"
        case .nameHasControlCharacters(let name):
            return "name: \(name.debugDescription) contains a control character (newline, tab...)"
        case .nonPositivePrice(let field, let value):
            return "\(field): the price must be a positive number of NT$, not \(value)"
        case .largeBelowMedium(let medium, let large):
            return "large: the large price (\(large)) is below the medium price (\(medium))"
        case .unknownCategory(let text):
            let valid = DrinkCategory.allCases.map(\.label).joined(separator: ", ")
            return "category: unknown category \"\(text)\"; expected one of \(valid)"
        }
    }

    public var errorDescription: String? { description }
}
