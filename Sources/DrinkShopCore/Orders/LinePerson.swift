#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Whose drink a line of a group order is. An order line has no name field of its own (the record API's
/// `OrderDrink` table has one `orderName` per order), so the person is written at the start of the line's
/// note: `for Ben`, or `for Ben · 少一點奶` with their own note after it. The ordering page writes it; the cup
/// sticker reads it to print the person's name (shortened for privacy as the order's name is) instead of the
/// organiser's, and the rest as the note.
public enum LinePerson {
    static let prefix = "for "
    static let separator = " · "

    /// The note that names `person` before `note`. A `·` in the name is written as the katakana middle dot
    /// `・` (U+30FB), so the name holds no separator: `Ben · 多冰 · for Boss` stays one person's name on the
    /// sticker and moves nothing into the note.
    public static func note(for person: String, _ note: String?) -> String {
        let named = prefix + String(String.UnicodeScalarView(person.unicodeScalars.map { $0 == "\u{B7}" ? "\u{30FB}" : $0 }))
        guard let note, !note.isEmpty else { return named }
        return named + separator + note
    }

    /// The person a note names, and the rest of the note (nil when there is none); nil when the note names nobody.
    /// Read scalar by scalar: a separator followed by a combining mark is still the separator.
    public static func parse(_ note: String?) -> (person: String, note: String?)? {
        guard let note else { return nil }
        let scalars = Array(note.unicodeScalars), prefix = Array(prefix.unicodeScalars), separator = Array(separator.unicodeScalars)
        guard scalars.starts(with: prefix) else { return nil }
        let rest = scalars[prefix.count...]
        let text = { (part: ArraySlice<Unicode.Scalar>) in String(String.UnicodeScalarView(part)) }
        if let start = rest.indices.first(where: { rest[$0...].starts(with: separator) }) {
            let person = text(rest[..<start]), after = text(rest[(start + separator.count)...])
            return person.isEmpty ? nil : (person, after.isEmpty ? nil : after)
        }
        return rest.isEmpty ? nil : (text(rest), nil)
    }
}
