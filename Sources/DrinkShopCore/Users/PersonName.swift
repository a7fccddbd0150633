#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules for a person's name (a user, the customer an order is for, the staff member who
/// placed it): trimmed, not empty, one line, at most `maximumLength` characters.
public enum PersonName {
    /// The longest name, in characters.
    public static let maximumLength = 50

    /// The name trimmed of surrounding whitespace.
    /// - Parameter field: what the name is, for the error ("name", "who the order is for"), as staff say it.
    /// - Throws: `PersonNameError` saying what is wrong with it.
    public static func validated(_ raw: String, field: String = "name") throws(PersonNameError) -> String {
        let name = raw.trimmed
        guard !name.isEmpty else { throw .empty(field: field) }
        guard name.count <= maximumLength else { throw .tooLong(field: field, length: name.count) }
        guard !name.containsControlCharacter else { throw .controlCharacters(field: field) }
        return name
    }

    /// The form two spellings of one name share, as staff type them: full-width and half-width letters,
    /// digits and signs alike (an IME's `ＡＭＹ` is `AMY`), upper and lower case alike, runs of spaces as
    /// one. `Amy`, `amy` and `ａｍｙ` are one person.
    public static func matchKey(_ name: String) -> String {
        var halfWidth = String.UnicodeScalarView()
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0xFF01...0xFF5E: halfWidth.append(Unicode.Scalar(scalar.value - 0xFEE0) ?? scalar)
            case 0x3000: halfWidth.append(" ")
            default: halfWidth.append(scalar)
            }
        }
        return String(halfWidth).matchingKey
    }
}

/// Why a person's name was refused.
public enum PersonNameError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case empty(field: String)
    case tooLong(field: String, length: Int)
    case controlCharacters(field: String)

    public var description: String {
        switch self {
        case .empty(let field):
            return "\(field): a name is required (請輸入名稱)"
        case .tooLong(let field, let length):
            let most = PersonName.maximumLength
            return "\(field): the name is \(length) characters long; at most \(most) are allowed (名稱最多 \(most) 字)"
        case .controlCharacters(let field):
            return "\(field): the name must be one line of text (no newlines or tabs) (名稱只能一行)"
        }
    }

    public var errorDescription: String? { description }
}
