import TextScalars

/// One piece of text meant for a terminal: a character the terminal draws, or a whole escape
/// sequence (colour, cursor movement) that it obeys and does not draw.
enum TerminalTextPiece: Equatable {
    case visible(Character)
    case escape(Substring)
}

/// Splits terminal text into drawn characters and escape sequences, so widths, padding and truncation
/// can ignore the styling that `ColorPolicy` wraps around text.
///
/// Recognises CSI (`ESC [` parameters, final byte 0x40–0x7E), OSC (`ESC ]` up to BEL or `ESC \`) and
/// two-character escapes. An unterminated sequence runs to the end of the text.
struct TerminalTextPieces: Sequence, IteratorProtocol {
    private let text: Substring
    private var index: Substring.Index

    init(_ text: some StringProtocol) {
        self.text = Substring(text)
        self.index = self.text.startIndex
    }

    mutating func next() -> TerminalTextPiece? {
        guard index < text.endIndex else { return nil }
        let start = index
        let character = text[index]
        text.formIndex(after: &index)
        guard character == "\u{1B}", index < text.endIndex else { return .visible(character) }
        let introducer = text[index]
        text.formIndex(after: &index)
        switch introducer {
        case "[": skipControlSequence()
        case "]": skipOperatingSystemCommand()
        default: break
        }
        return .escape(text[start..<index])
    }

    /// Parameter and intermediate bytes, then one final byte; stops early at anything else.
    private mutating func skipControlSequence() {
        while index < text.endIndex, let value = Self.asciiValue(text[index]), (0x20...0x7E).contains(value) {
            text.formIndex(after: &index)
            if value >= 0x40 { return }
        }
    }

    /// Everything up to and including BEL or the string terminator `ESC \`.
    private mutating func skipOperatingSystemCommand() {
        while index < text.endIndex {
            let character = text[index]
            text.formIndex(after: &index)
            if character == "\u{07}" { return }
            if character == "\u{1B}" {
                if index < text.endIndex, text[index] == "\\" { text.formIndex(after: &index) }
                return
            }
        }
    }

    private static func asciiValue(_ character: Character) -> UInt8? {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
              scalar.isASCII else { return nil }
        return UInt8(scalar.value)
    }
}

extension StringProtocol {
    /// The text without its terminal escape sequences: what a person reads on the screen.
    public var removingTerminalEscapes: String {
        var plain = ""
        for case .visible(let character) in TerminalTextPieces(self) { plain.append(character) }
        return plain
    }
}

/// Text made safe for a terminal: the one terminal encoder, used where the counter's output is written
/// (`ShopOutput`'s standard output and error, the pager, the full screen) and for a table's cells. Text from
/// the store (a name written through the API) may hold escape sequences that move the cursor, erase or
/// rewrite lines, or bidi controls and line separators that reorder or break what staff read.
///
/// It works on Unicode scalars. Kept: line feeds, tabs and the colours `ColorPolicy` writes (`ESC [` with
/// only the parameters of ``TerminalStyle`` and 0, then `m`). Every other hidden scalar is drawn instead of
/// obeyed: a C0 control as its control picture (ESC as `␛`, CR as `␍`), DEL as `␡`, anything else (C1
/// controls, bidi and zero-width format characters, U+2028/U+2029) as U+FFFD.
public enum TerminalSafeText {
    /// SGR parameters `ColorPolicy` writes; no others (a concealing `8`, a cursor move) pass.
    static let styleParameters: Set<Int> = Set(TerminalStyle.allCases.map(\.code) + [0])

    public static func encode(_ text: String) -> String {
        // Most output holds nothing hidden but a line feed and our colours: nothing to do.
        if !text.unicodeScalars.contains(where: { $0.isHiddenInText && $0 != "\n" && $0 != "\t" && $0 != "\u{1B}" }),
           !text.unicodeScalars.contains("\u{1B}")
        {
            return text
        }
        let scalars = Array(text.unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\u{1B}", let end = styleSequenceEnd(scalars, from: index) {
                result.append(contentsOf: scalars[index...end])
                index = end + 1
                continue
            }
            if scalar == "\n" || scalar == "\t" || !scalar.isHiddenInText {
                result.append(scalar)
            } else {
                result.append(contentsOf: stand(in: scalar).unicodeScalars)
            }
            index += 1
        }
        return String(result)
    }

    /// What is drawn in place of a hidden scalar.
    static func stand(in scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0..<0x20: String(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
        case 0x7F: "\u{2421}"
        default: "\u{FFFD}"
        }
    }

    /// The index of the `m` ending a colour sequence of ours that starts at `start`, or nil.
    private static func styleSequenceEnd(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start + 1
        guard index < scalars.count, scalars[index] == "[" else { return nil }
        index += 1
        var number = 0, digits = 0
        while index < scalars.count, index - start < 32 {
            let scalar = scalars[index]
            switch scalar {
            case "0"..."9":
                number = number * 10 + Int(scalar.value - 0x30)
                digits += 1
                guard digits <= 2 else { return nil }
            case ";", "m":
                guard digits > 0, styleParameters.contains(number) else { return nil }
                if scalar == "m" { return index }
                number = 0
                digits = 0
            default: return nil
            }
            index += 1
        }
        return nil
    }
}
