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

    /// Collects the bytes of `text` encoded in Big5 and remembers what was replaced.
    mutating func appendText(_ text: String) {
        let encoded = Big5.encode(text)
        bytes += encoded.bytes
        for character in encoded.replaced where !replacedCharacters.contains(character) {
            replacedCharacters.append(character)
        }
    }

    mutating func appendASCII(_ text: String) {
        bytes += Array(text.utf8)
    }
}
