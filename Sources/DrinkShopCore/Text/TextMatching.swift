import TextScalars
// Small text operations shared by the parsers. Written against the standard library so the core
// needs no Foundation beyond `Date`.

extension String {
    /// The text without leading or trailing whitespace and newlines.
    var trimmed: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }

    /// The key used for case-insensitive matching: trimmed, lowercased, inner whitespace runs
    /// collapsed to one space (so "Room  Temp" and "room temp" match).
    var matchingKey: String {
        // Most words typed are already keys: lowercase ASCII letters, digits and signs, or CJK ideographs,
        // with no space at all.
        let isKey = unicodeScalars.allSatisfy { scalar in
            switch scalar.value {
            case 0x21...0x40, 0x5B...0x7E, 0x4E00...0x9FFF: true
            default: false
            }
        }
        if isKey { return self }
        return trimmed.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Whether the text holds a hidden scalar (`isHiddenInText`: a newline, tab or escape, a bidi control, a
    /// zero-width character, a line separator), which would break the one-line tables and receipts the shop
    /// prints, or make a name look like another.
    var containsControlCharacter: Bool { containsHiddenScalar }
}

extension Array where Element == String {
    /// The items joined as English prose: "a", "a and b", "a, b and c".
    var joinedAsList: String {
        switch count {
        case 0: return ""
        case 1: return self[0]
        default: return dropLast().joined(separator: ", ") + " and " + self[count - 1]
        }
    }
}
