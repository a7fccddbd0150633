import Airtable

/// The readable cells of a record whose `cells` JSON was damaged on disk, and the fields that were not.
///
/// The stored object is compact JSON keyed by field id (`{"fldXXXXXXXXXXXXXX":value,…}`). A field's key,
/// a quote followed by `fld`, letters or digits and `":`, right after `{` or `,`, cannot occur inside a
/// sound JSON string (its quotes would be escaped), so the keys still found split the text into one
/// piece per field: each piece that parses is kept, each that does not is a damaged cell. Damage that
/// reaches a key folds that field into the one before it, which is then reported.
struct CellSalvage: Equatable {
    /// The cells that could be read, by field id.
    var kept: [String: JSONValue] = [:]
    /// The field ids whose values could not be read, in the order they were stored.
    var damagedFields: [String] = []
    /// No field could be told apart at all (the object's own start is gone, or no key is left).
    var nothingReadable = false

    init(_ text: String) {
        let bytes = Array(text.utf8)
        let starts = Self.keyStarts(in: bytes)
        guard let first = bytes.firstIndex(where: { !Self.isSpace($0) }), bytes[first] == UInt8(ascii: "{"),
              !starts.isEmpty
        else {
            nothingReadable = true
            return
        }
        for (position, start) in starts.enumerated() {
            let keyEnd = start.valueStart - 2  // the key's closing quote, before `:`
            let key = String(decoding: bytes[(start.keyStart + 1)..<keyEnd], as: UTF8.self)
            var end = position + 1 < starts.count ? starts[position + 1].keyStart - 1 : bytes.count  // before `,`
            if position + 1 == starts.count {
                // The last value ends before the object's closing brace.
                while end > start.valueStart, Self.isSpace(bytes[end - 1]) { end -= 1 }
                if end > start.valueStart, bytes[end - 1] == UInt8(ascii: "}") { end -= 1 }
            }
            if end > start.valueStart, let value = try? JSONParser.parse(Array(bytes[start.valueStart..<end])) {
                kept[key] = value
            } else {
                damagedFields.append(key)
            }
        }
    }

    /// Where each key starts (its opening quote) and its value starts (after the colon).
    private static func keyStarts(in bytes: [UInt8]) -> [(keyStart: Int, valueStart: Int)] {
        var found: [(Int, Int)] = []
        let quote = UInt8(ascii: "\"")
        var index = 1
        while index + 4 < bytes.count {
            defer { index += 1 }
            guard bytes[index] == quote, bytes[index - 1] == UInt8(ascii: "{") || bytes[index - 1] == UInt8(ascii: ","),
                  bytes[index + 1] == UInt8(ascii: "f"), bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "d")
            else { continue }
            var end = index + 4
            while end < bytes.count, isAlphanumeric(bytes[end]) { end += 1 }
            guard end > index + 4, end + 1 < bytes.count, bytes[end] == quote, bytes[end + 1] == UInt8(ascii: ":") else { continue }
            found.append((index, end + 2))
            index = end + 1
        }
        return found
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
