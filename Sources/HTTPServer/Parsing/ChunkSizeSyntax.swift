/// `chunk-size [ chunk-ext ]` (RFC 9112 §7.1): hexadecimal digits, then extensions that are ignored.
enum ChunkSizeSyntax {
    static func parse(
        _ line: ArraySlice<UInt8>, bodySoFar: Int, limits: HTTPParserLimits
    ) throws(HTTPParseError) -> Int {
        let semicolon = line.firstIndex(of: UInt8(ascii: ";")) ?? line.endIndex
        let digits = HTTPSyntax.trimmed(line[line.startIndex..<semicolon])
        let extensions = line[semicolon...]
        guard !digits.isEmpty else {
            throw .malformedChunk("missing chunk size in '\(HTTPSyntax.printable(line))'")
        }
        if extensions.contains(where: { !HTTPSyntax.isFieldValueByte($0) }) {
            throw .malformedChunk("control byte in chunk extension '\(HTTPSyntax.printable(extensions))'")
        }
        let room = limits.maxBodyBytes - bodySoFar
        var size = 0
        for digit in digits {
            guard let value = hexValue(digit) else {
                throw .malformedChunk("chunk size '\(HTTPSyntax.printable(digits))' is not hexadecimal")
            }
            size = size * 16 + value
            // Checked per digit so a long run of digits can neither overflow nor sneak past the limit.
            if size > room { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        }
        return size
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }
}
