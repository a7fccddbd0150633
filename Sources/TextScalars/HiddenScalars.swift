/// Text judged one Unicode scalar at a time, never one `Character`: a grapheme cluster hides what it
/// holds (`"` followed by U+0301, or `<` after U+0600, is one `Character` and equals neither `"` nor `<`).
/// Every output encoder (HTML, terminal, CSV, printer) and every check of a name or note asks these
/// questions of the scalars; lengths are counted in UTF-8 bytes. Imports nothing.
extension Unicode.Scalar {
    /// A scalar that is not seen as itself but changes what is seen around it, or where: C0 and C1
    /// controls and DEL (escape sequences, carriage return, line feed, tab), format characters (bidi
    /// embeddings, overrides, isolates and marks, zero-width spaces and joiners, the byte-order mark, the
    /// number signs U+0600–U+0605, tags), line and paragraph separators, and the other default-ignorable
    /// code points (Hangul fillers, the combining grapheme joiner), but not variation selectors (an emoji
    /// needs its U+FE0F). Unassigned, private-use and noncharacter scalars are drawn as boxes: not hidden.
    @inlinable public var isHiddenInText: Bool {
        let value = value
        // The common case first: printable ASCII and most letters, marks and ideographs.
        if value >= 0x20 && value < 0x7F { return false }
        if value < 0x20 || (0x7F...0x9F).contains(value) { return true }
        // Han ideographs (CJK Extension A, the Yijing hexagrams and the Unified block), most of a drink's
        // or an option's name: letters and symbols, none a format character nor default-ignorable, so the
        // property tables need not be asked (HiddenScalarsTests compares the scalars around them with them).
        if (0x3400...0x9FFF).contains(value) { return false }
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate: return true
        default: break
        }
        return properties.isDefaultIgnorableCodePoint && !properties.isVariationSelector
    }

    /// A scalar that reorders the text after it (bidi embeddings, overrides, isolates and marks).
    public var isBidiControl: Bool { properties.isBidiControl }
}

extension StringProtocol {
    /// Whether any scalar of the text is ``Unicode/Scalar/isHiddenInText``.
    @inlinable public var containsHiddenScalar: Bool { unicodeScalars.contains { $0.isHiddenInText } }

    /// The text with every hidden scalar given to `replacement`: its result (a visible stand-in, a space,
    /// or nothing) takes the scalar's place. Text without one is returned as it is.
    @inlinable public func replacingHiddenScalars(_ replacement: (Unicode.Scalar) -> String) -> String {
        guard containsHiddenScalar else { return String(self) }
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if scalar.isHiddenInText { result += replacement(scalar) } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}

/// Letters of the scripts whose letters look alike (Latin, Greek, Cyrillic): a name that mixes them in
/// one word (`Веn`: Cyrillic В and е, Latin n) passes for another person's at a glance.
public enum LookAlikeScripts {
    enum Script { case latin, greek, cyrillic }

    static func script(of scalar: Unicode.Scalar) -> Script? {
        switch scalar.value {
        case 0x41...0x5A, 0x61...0x7A, 0xC0...0x24F, 0x1E00...0x1EFF, 0xFF21...0xFF3A, 0xFF41...0xFF5A: .latin
        case 0x370...0x3FF, 0x1F00...0x1FFF: .greek
        case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F: .cyrillic
        default: nil
        }
    }

    /// Whether one word of `text` (words split at spaces) has letters of two of these scripts.
    public static func mixed(_ text: some StringProtocol) -> Bool {
        var seen: Script?
        for scalar in text.unicodeScalars {
            if scalar.properties.isWhitespace { seen = nil; continue }
            guard let script = script(of: scalar) else { continue }
            if let seen, seen != script { return true }
            seen = script
        }
        return false
    }
}
