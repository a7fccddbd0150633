/// How many columns of a monospace terminal text takes.
///
/// East Asian Wide and Fullwidth characters (CJK ideographs and punctuation, kana, Hangul, fullwidth
/// forms) and emoji shown as emoji take two columns; combining marks, format characters (zero-width
/// joiner, variation selectors) and controls take none; everything else takes one. A string is measured
/// by grapheme cluster, so a base character with its combining marks, or a whole emoji sequence, counts
/// once. Terminal escape sequences take no columns.
public enum DisplayWidth {
    /// The columns one Unicode scalar takes when drawn on its own.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value < 0x7F { return value >= 0x20 ? 1 : 0 }
        if value < 0xA0 { return 0 }
        if isWide(value) || scalar.properties.isEmojiPresentation { return 2 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            return 0
        default:
            // Hangul Jamo vowels and trailing consonants join the leading consonant before them.
            if (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) { return 0 }
            return 1
        }
    }

    /// The columns one grapheme cluster takes: its widest scalar, except that a variation selector
    /// decides between emoji (VS16, two columns) and text presentation (VS15, one column).
    public static func of(_ character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first { return of(only) }
        if scalars.contains("\u{FE0F}"), scalars.first?.properties.isEmoji == true { return 2 }
        var widest = 0
        for scalar in scalars { widest = max(widest, of(scalar)) }
        if scalars.contains("\u{FE0E}") { return min(widest, 1) }
        return widest
    }

    /// The columns a string takes: the sum over its grapheme clusters, escape sequences excluded.
    public static func of(_ text: some StringProtocol) -> Int {
        if let simple = simpleWidth(text) { return simple }
        var total = 0
        for case .visible(let character) in TerminalTextPieces(text) { total += of(character) }
        return total
    }

    /// The width of text made only of printable ASCII and general punctuation (dashes, quotes, bullets:
    /// one column each) and of CJK ideographs, the ideographic space, comma, full stop and brackets, and
    /// fullwidth forms (two each): none of these joins a neighbour in one grapheme cluster, so each
    /// scalar counts alone. Nil for any other text.
    private static func simpleWidth(_ text: some StringProtocol) -> Int? {
        var total = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x20..<0x7F, 0x2010...0x2027: total += 1
            case 0x3000...0x3011, 0x4E00...0x9FFF, 0xFF01...0xFF60: total += 2
            default: return nil
            }
        }
        return total
    }

    private static func isWide(_ value: UInt32) -> Bool {
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideScalarRanges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = wideScalarRanges[middle]
            if value < range.lowerBound {
                high = middle - 1
            } else if value > range.upperBound {
                low = middle + 1
            } else {
                return true
            }
        }
        return false
    }
}

/// Horizontal placement of text within a wider cell.
public enum TextAlignment: Sendable, Equatable {
    case left
    case right
}

extension Character {
    /// The terminal columns this character takes (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(self) }
}

extension StringProtocol {
    /// The terminal columns this text takes, escape sequences excluded (see `DisplayWidth`).
    public var displayWidth: Int { DisplayWidth.of(self) }

    /// The text padded with spaces to `width` columns, on the right for left alignment and on the left
    /// for right alignment; text already that wide or wider comes back unchanged.
    public func padded(toWidth width: Int, alignment: TextAlignment = .left) -> String {
        let padding = String(repeating: " ", count: Swift.max(0, width - displayWidth))
        switch alignment {
        case .left: return String(self) + padding
        case .right: return padding + String(self)
        }
    }

    /// The text cut to at most `width` columns, ending in `ellipsis` when something was cut.
    ///
    /// A wide character that would straddle the limit is left out whole, never split. Escape sequences
    /// are kept, and a reset is added after a cut so a colour does not leak past the text.
    public func truncated(toWidth width: Int, ellipsis: String = "…") -> String {
        guard displayWidth > width else { return String(self) }
        let room = width - ellipsis.displayWidth
        guard room >= 0 else { return "" }
        var result = ""
        var used = 0
        var sawEscape = false
        loop: for piece in TerminalTextPieces(self) {
            switch piece {
            case .escape(let sequence):
                result += sequence
                sawEscape = true
            case .visible(let character):
                let columns = character.displayWidth
                if used + columns > room { break loop }
                result.append(character)
                used += columns
            }
        }
        result += ellipsis
        if sawEscape { result += TerminalStyle.resetSequence }
        return result
    }
}
