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
