@preconcurrency import Glibc

/// Traditional Chinese text in Big5, the code page the printers in Taiwanese shops expect, through
/// glibc's iconv. Characters Big5 has no code for are printed as `?` and reported, so the shop can warn
/// rather than print a silently wrong name.
public enum Big5 {
    /// Text encoded, with what could not be.
    public struct Encoded: Sendable, Equatable {
        /// The Big5 bytes (ASCII stays single bytes).
        public var bytes: [UInt8]
        /// The characters replaced by `?`, in order of first appearance, each once.
        public var replaced: [Character]
        /// The text as the printer will show it: the input with each replaced character as `?`.
        public var printedText: String
    }

    /// The byte printed for a character Big5 cannot encode.
    public static let replacement: UInt8 = 0x3F

    /// Encodes `text` scalar by scalar, never by `Character`: a combining mark after a `]` or a `"` is a `?`
    /// of its own, and never takes the ASCII before it along (TSPL's `\["]` keeps its `]`). Never fails.
    ///
    /// A control character is replaced too: in a printer's byte stream it would be a command, not text.
    public static func encode(_ text: String) -> Encoded {
        var result = Encoded(bytes: [], replaced: [], printedText: "")
        let converter = Converter(from: "UTF-8", to: "BIG5")
        defer { converter?.close() }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                append(scalar, encoded: [UInt8(scalar.value)], to: &result)
            } else {
                // Without a Big5 module in this C library, everything outside ASCII is visibly lost.
                append(scalar, encoded: converter?.convert(Array(String(scalar).utf8)), to: &result)
            }
        }
        return result
    }

    /// Decodes Big5 bytes back to text (what a printer would show); nil when they are not valid Big5.
    public static func decode(_ bytes: [UInt8]) -> String? {
        guard let converter = Converter(from: "BIG5", to: "UTF-8") else { return nil }
        defer { converter.close() }
        return converter.convert(bytes).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Columns the text takes on a printer (and in the preview): one per single byte, two per Big5 pair.
    /// A character Big5 cannot encode counts as the one-column `?` printed instead.
    public static func columns(_ text: String) -> Int {
        encode(text).bytes.count
    }

    private static func append(_ scalar: Unicode.Scalar, encoded: [UInt8]?, to result: inout Encoded) {
        if let encoded, scalar.properties.generalCategory != .control, !encoded.isEmpty {
            result.bytes += encoded
            result.printedText.unicodeScalars.append(scalar)
        } else {
            result.bytes.append(replacement)
            result.printedText.append("?")
            let character = Character(scalar)
            if !result.replaced.contains(character) { result.replaced.append(character) }
        }
    }
}

/// One iconv conversion descriptor; used by one call on one thread, then closed.
private struct Converter {
    private let descriptor: iconv_t

    init?(from source: String, to target: String) {
        let descriptor = iconv_open(target, source)
        guard let descriptor, Int(bitPattern: descriptor) != -1 else { return nil }
        self.descriptor = descriptor
    }

    /// The whole input converted, or nil when any of it cannot be.
    func convert(_ input: [UInt8]) -> [UInt8]? {
        _ = iconv(descriptor, nil, nil, nil, nil)  // back to the initial state
        var inputCopy = input
        var output = [UInt8](repeating: 0, count: input.count * 4 + 16)
        let outputCapacity = output.count
        let status: Int = inputCopy.withUnsafeMutableBytes { inputBuffer in
            output.withUnsafeMutableBytes { outputBuffer in
                var inPointer = inputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var inLeft = inputBuffer.count
                var outPointer = outputBuffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = outputBuffer.count
                let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                if result == -1 || inLeft != 0 { return -1 }
                return outputCapacity - outLeft
            }
        }
        guard status >= 0 else { return nil }
        return Array(output.prefix(status))
    }

    func close() {
        iconv_close(descriptor)
    }
}
