import Airtable

/// The decoded `name=value` pairs of a query string, in order; repeated names are kept.
struct QueryString: Sendable {
    var items: [(name: String, value: String)]

    /// Splits on `&` and `=`, reads `+` as a space, then percent-decodes (in that order, as browsers and
    /// both Airtable clients encode). Malformed escapes are refused rather than guessed at.
    init(raw: String) throws(APIError) {
        items = []
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try QueryString.decode(parts[0])
            let value = parts.count > 1 ? try QueryString.decode(parts[1]) : ""
            items.append((name, value))
        }
    }

    /// Percent-decodes one component after turning `+` into a space.
    static func decode(_ component: Substring) throws(APIError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(component.utf8.count)
        var iterator = component.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(0x20)
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    throw .invalidRequest("malformed percent-encoding in \"\(component)\"")
                }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw .invalidRequest("percent-encoded text is not UTF-8 in \"\(component)\"")
        }
        return text
    }

    /// Percent-decodes a path segment (no `+` rule in paths).
    static func decodePathSegment(_ segment: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = segment.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                bytes.append(high << 4 | low)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Airtable's query booleans: `true`/`false` (airtable.js), `1`/`0` (pyairtable); empty means false.
func parseQueryBool(_ value: String, name: String) throws(APIError) -> Bool {
    switch value.lowercased() {
    case "true", "1": return true
    case "false", "0", "": return false
    default: throw .invalidRequest("\(name) must be true or false, not \"\(value)\"")
    }
}
