#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextScalars

/// The rules for a person's name (a user, the customer an order is for, the staff member who
/// placed it): trimmed, not empty, one line of visible text (no hidden scalar: `isHiddenInText`), at most
/// `maximumScalars` scalars and `maximumBytes` UTF-8 bytes, and no word mixing Latin, Greek and Cyrillic letters (`Веn` passing for `Ben`).
public enum PersonName {
    /// The longest name, in UTF-8 bytes (50 Chinese characters).
    public static let maximumBytes = 150
    /// And in Unicode scalars (50 letters of any script: a name is not a paragraph).
    public static let maximumScalars = 50

    /// The name trimmed of surrounding whitespace.
    /// - Parameter field: what the name is, for the error ("name", "who the order is for"), as staff say it.
    /// - Throws: `PersonNameError` saying what is wrong with it.
    public static func validated(_ raw: String, field: String = "name") throws(PersonNameError) -> String {
        let name = raw.trimmed
        guard !name.isEmpty else { throw .empty(field: field) }
        guard name.utf8.count <= maximumBytes, name.unicodeScalars.count <= maximumScalars else {
            throw .tooLong(field: field, length: name.unicodeScalars.count)
        }
        guard !name.containsControlCharacter else { throw .controlCharacters(field: field) }
        guard !LookAlikeScripts.mixed(name) else { throw .lookAlikeLetters(field: field) }
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
    /// A word mixes Latin, Greek and Cyrillic letters.
    case lookAlikeLetters(field: String)

    public var description: String {
        switch self {
        case .empty(let field):
            return "\(field): a name is required (請輸入名稱)"
        case .tooLong(let field, let length):
            let most = PersonName.maximumScalars
            return "\(field): the name is \(length) characters long; at most \(most) are allowed "
                + "(名稱最多 \(most) 個字)"
        case .controlCharacters(let field):
            return "\(field): the name must be one line of visible text (no newlines, tabs or invisible characters) "
                + "(名稱只能一行，不可有隱藏字元)"
        case .lookAlikeLetters(let field):
            return "\(field): a word of the name mixes Latin, Greek or Cyrillic letters that look alike "
                + "(名稱不可混用外觀相似的拉丁、希臘或西里爾字母)"
        }
    }

    public var errorDescription: String? { description }
}
