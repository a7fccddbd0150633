/// The customer's name as it may appear on a cup or a receipt, which strangers at the counter see.
///
/// The rule (the way Taiwanese shops and banks mask names):
/// - Chinese, Japanese or Korean names keep the first and last character and hide the ones between
///   with ○: 王小明 → 王○明, 歐陽小明 → 歐○○明; a two-character name keeps the first: 王明 → 王○.
/// - Other names keep the first and last letter of the first word with three stars between, whatever
///   its length, and the initial of each further word: Alice → A***e, Alice Wang → A***e W.;
///   a word of two letters keeps the first (Bo → B*).
/// - A one-character name or word is kept as it is; blank names give nil.
public enum CustomerName {
    /// The name shortened by the rule above, or nil for a missing or blank name.
    public static func shortened(_ name: String?) -> String? {
        guard let name else { return nil }
        let words = name.split(whereSeparator: { $0.isWhitespace })
        guard let first = words.first else { return nil }
        if first.contains(where: isIdeographic) {
            return maskIdeographic(Array(words.joined()))
        }
        var parts = [maskWord(Array(first))]
        for word in words.dropFirst() {
            if let initial = word.first { parts.append("\(initial).") }
        }
        return parts.joined(separator: " ")
    }

    private static func maskIdeographic(_ characters: [Character]) -> String {
        switch characters.count {
        case 0, 1: return String(characters)
        case 2: return "\(characters[0])○"
        default:
            return String(characters[0]) + String(repeating: "○", count: characters.count - 2)
                + String(characters[characters.count - 1])
        }
    }

    private static func maskWord(_ characters: [Character]) -> String {
        switch characters.count {
        case 0, 1: return String(characters)
        case 2: return "\(characters[0])*"
        default: return "\(characters[0])***\(characters[characters.count - 1])"
        }
    }

    /// Han, kana and Hangul: scripts whose names are written without spaces.
    private static func isIdeographic(_ character: Character) -> Bool {
        guard let value = character.unicodeScalars.first?.value else { return false }
        return (0x2E80...0x9FFF).contains(value) || (0xAC00...0xD7AF).contains(value)
            || (0xF900...0xFAFF).contains(value) || (0x20000...0x3FFFF).contains(value)
    }
}
