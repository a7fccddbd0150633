import TextScalars

/// Bytes ready for a printer, and what could not be printed as written.
public struct PrintJob: Sendable, Equatable {
    /// The printer's commands and text, in its own language and encoding.
    public var bytes: [UInt8]
    /// Characters Big5 has no code for, printed as `?`: the shop should say so (e.g. "印表機無法印出「堃」").
    public var replacedCharacters: [Character]

    public init(bytes: [UInt8], replacedCharacters: [Character]) {
        self.bytes = bytes
        self.replacedCharacters = replacedCharacters
    }

    /// What to tell staff when characters were replaced, e.g.
    /// `the printer cannot print 堃, 😀 (printed as ?)`; nil when everything printed as written.
    public var replacementWarning: String? {
        guard !replacedCharacters.isEmpty else { return nil }
        return "the printer cannot print " + replacedCharacters.map(String.init).joined(separator: ", ")
            + " (printed as ?)"
    }

    /// Collects the bytes of `text` encoded in Big5 and remembers what was replaced: the one way text (a
    /// drink, a name, a note) reaches a printer. A printer obeys the control bytes it reads (ESC/POS's ESC and
    /// GS cut paper and open the drawer; TSPL's CR LF ends a command), so every hidden scalar is printed as
    /// ``printed(_:)`` says, never sent.
    public mutating func appendText(_ text: String) {
        let encoded = Big5.encode(Self.printed(text))
        bytes += encoded.bytes
        for character in encoded.replaced where !replacedCharacters.contains(character) {
            replacedCharacters.append(character)
        }
    }

    /// `text` as a printer may be sent it, judged scalar by scalar: a line break, tab or line separator
    /// becomes a space (a sticker's line is one line), any other hidden scalar (an escape, a bidi control, a
    /// zero-width character) `?`, as Big5 prints what it has no code for.
    public static func printed(_ text: String) -> String {
        text.replacingHiddenScalars { scalar in
            switch scalar {
            case "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": " "
            default: "?"
            }
        }
    }

    mutating func appendASCII(_ text: String) {
        bytes += Array(text.utf8)
    }
}
