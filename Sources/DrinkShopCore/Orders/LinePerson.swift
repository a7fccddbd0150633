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

    /// The note that names `person` before `note`.
    public static func note(for person: String, _ note: String?) -> String {
        let named = prefix + person
        guard let note, !note.isEmpty else { return named }
        return named + separator + note
    }

    /// The person a note names, and the rest of the note (nil when there is none); nil when the note names nobody.
    public static func parse(_ note: String?) -> (person: String, note: String?)? {
        guard let note, note.hasPrefix(prefix) else { return nil }
        let rest = String(note.dropFirst(prefix.count))
        if let range = rest.firstRange(of: separator) {
            let person = String(rest[..<range.lowerBound])
            let after = String(rest[range.upperBound...])
            return person.isEmpty ? nil : (person, after.isEmpty ? nil : after)
        }
        return rest.isEmpty ? nil : (String(rest), nil)
    }
}
