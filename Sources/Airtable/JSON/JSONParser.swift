/// Where a JSON text went wrong: a message plus the 1-based line and column of the offending byte.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var line: Int
    public var column: Int

    public var description: String { "invalid JSON at line \(line), column \(column): \(message)" }
}

/// A strict JSON parser over UTF-8 bytes (RFC 8259), with positions in its errors and a nesting limit,
/// so that a hostile body can neither crash the process nor exhaust the stack.
public struct JSONParser {
    /// The deepest nesting accepted; deeper input is rejected, not recursed into.
    public static let maximumDepth = 256

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Parses one JSON value that makes up the whole text (surrounding whitespace allowed).
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < parser.bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return value
    }

    /// Parses JSON text.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Parses JSON text that must be one object, building only the members named in `keeping`: the
    /// others are checked as JSON and skipped, never built (a listing that asks for a few fields of
    /// records with many). Nil `keeping` builds every member.
    /// - Parameter capacity: members expected (room made once rather than the dictionary regrown).
    public static func parseObject(_ text: String, keeping: Set<String>?, capacity: Int = 0)
        throws(JSONSyntaxError) -> [String: JSONValue]
    {
        try wholeObject(text) { (parser) throws(JSONSyntaxError) in try parser.parseMembers(keeping: keeping, capacity: capacity) }
    }

    /// The members `members` reads of `text`, which must be one object and nothing else.
    static func wholeObject(_ text: String,
                            _ members: (inout JSONParser) throws(JSONSyntaxError) -> [String: JSONValue])
        throws(JSONSyntaxError) -> [String: JSONValue]
    {
        var parser = JSONParser(Array(text.utf8))
        parser.skipWhitespace()
        guard parser.peek() == UInt8(ascii: "{") else { throw parser.error("expected an object") }
        let read = try members(&parser)
        parser.skipWhitespace()
        if parser.index < parser.bytes.count {
            throw parser.error("unexpected text after the JSON value")
        }
        return read
    }

    // MARK: - Values

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default:
            throw error("unexpected character \(describe(bytes[index])), expected a value")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        .object(try parseMembers(keeping: nil))
    }

    private mutating func parseMembers(keeping: Set<String>?, capacity: Int = 0) throws(JSONSyntaxError) -> [String: JSONValue] {
        var members = [String: JSONValue](minimumCapacity: capacity)
        guard try openObject() else { return members }
        repeat {
            let key = try memberName()
            try memberColon(after: key)
            if let keeping, !keeping.contains(key) {
                try skipValue()
            } else {
                members[key] = try parseValue()
            }
        } while try memberFollows()
        return members
    }

    /// `parseMembers` for `parseObject(_:renaming:droppingEmptyCells:)`: a member name without escapes is
    /// looked up by its bytes, never built.
    mutating func parseMembers(renaming names: JSONMemberNames, droppingEmptyCells: Bool) throws(JSONSyntaxError)
        -> [String: JSONValue]
    {
        var members = [String: JSONValue](minimumCapacity: names.count)
        guard try openObject() else { return members }
        repeat {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
                end += 1
            }
            let name: String?
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                name = bytes.withUnsafeBufferPointer { names.name(of: UnsafeBufferPointer(rebasing: $0[start..<end])) }
                index = end + 1
            } else {
                let key = Array(try parseString().utf8)
                name = key.withUnsafeBufferPointer { names.name(of: $0) }
            }
            try memberColon(after: nil)
            if let name {
                let value = try parseValue()
                if !droppingEmptyCells || !value.isEmptyCell { members[name] = value }
            } else {
                try skipValue()
            }
        } while try memberFollows()
        return members
    }

    /// Steps into the object at `{`: false when it is empty (its `}` read too), else true at its first member.
    private mutating func openObject() throws(JSONSyntaxError) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        guard peek() == UInt8(ascii: "}") else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// A member's name, in double quotes.
    private mutating func memberName() throws(JSONSyntaxError) -> String {
        skipWhitespace()
        guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name in double quotes") }
        return try parseString()
    }

    /// The `:` after a member's name (named in the error when known), and the space before its value.
    private mutating func memberColon(after key: String?) throws(JSONSyntaxError) {
        skipWhitespace()
        guard peek() == UInt8(ascii: ":") else {
            throw error("expected ':' after the member name" + (key.map { " \"\($0)\"" } ?? ""))
        }
        index += 1
        skipWhitespace()
    }

    /// After a member's value: true at `,` (another member follows), false at the object's closing `}`.
    private mutating func memberFollows() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        switch peek() {
        case UInt8(ascii: ","): index += 1; return true
        case UInt8(ascii: "}"): index += 1; depth -= 1; return false
        case nil: throw error("unexpected end of input, expected ',' or '}'")
        case let byte?: throw error("unexpected character \(describe(byte)), expected ',' or '}'")
        }
    }

    /// Steps over one value, checking it as `parseValue` would; a string is not built (nor its UTF-8
    /// checked: `parseObject(_:keeping:)` reads a Swift `String`, valid UTF-8 already).
    private mutating func skipValue() throws(JSONSyntaxError) {
        guard peek() == UInt8(ascii: "\"") else {
            _ = try parseValue()
            return
        }
        index += 1
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; return }
            if byte < 0x20 { throw error("control character \(describe(byte)) must be escaped inside a string") }
            if byte == UInt8(ascii: "\\") {
                // Escapes are rare in cells: the general path checks them.
                var ignored: [UInt8] = []
                try parseEscape(into: &ignored)
                continue
            }
            index += 1
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; depth -= 1; return .array(elements)
            case nil: throw error("unexpected end of input, expected ',' or ']'")
            case let byte?: throw error("unexpected character \(describe(byte)), expected ',' or ']'")
            }
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth { throw error("nested deeper than \(JSONParser.maximumDepth) levels") }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let expected = literal.utf8Start
        for offset in 0..<literal.utf8CodeUnitCount {
            guard index < bytes.count, bytes[index] == expected[offset] else {
                index = start
                throw error("invalid literal, expected '\(literal)'")
            }
            index += 1
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("a number needs digits after '-'") }
        if first == UInt8(ascii: "0") {
            index += 1
            if let next = peek(), isDigit(next) { throw error("numbers may not have leading zeros") }
        } else {
            while let b = peek(), isDigit(b) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let b = peek(), isDigit(b) else { throw error("a number needs digits after '.'") }
            while let b = peek(), isDigit(b) { index += 1 }
        }
        if let e = peek(), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard let b = peek(), isDigit(b) else { throw error("a number needs digits in its exponent") }
            while let b = peek(), isDigit(b) { index += 1 }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw error("the number \(text) is out of range")
        }
        return value
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1  // opening quote
        // The common case, a string without escapes, is made straight from the input's bytes: ASCII
        // needs no validation, other text is validated once, without an intermediate buffer.
        let start = index
        var high: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let end = index
                index += 1
                let made: String? = bytes.withUnsafeBufferPointer { all in
                    let run = UnsafeBufferPointer(rebasing: all[start..<end])
                    return high < 0x80 ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
                }
                guard let made else { throw error("string is not valid UTF-8") }
                return made
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            high |= byte
            index += 1
        }
        var buffer: [UInt8] = []
        var runStart = start
        index = start
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                buffer.append(contentsOf: bytes[runStart..<index])
                index += 1
                break
            }
            if byte < 0x20 {
                throw error("control character \(describe(byte)) must be escaped inside a string")
            }
            if byte == UInt8(ascii: "\\") {
                buffer.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &buffer)
                runStart = index
                continue
            }
            index += 1
        }
        guard let string = String(validating: buffer, as: UTF8.self) else {
            throw error("string is not valid UTF-8")
        }
        return string
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONSyntaxError) {
        index += 1
        guard let code = peek() else { throw error("unterminated escape sequence") }
        index += 1
        switch code {
        case UInt8(ascii: "\""): buffer.append(0x22)
        case UInt8(ascii: "\\"): buffer.append(0x5C)
        case UInt8(ascii: "/"): buffer.append(0x2F)
        case UInt8(ascii: "b"): buffer.append(0x08)
        case UInt8(ascii: "f"): buffer.append(0x0C)
        case UInt8(ascii: "n"): buffer.append(0x0A)
        case UInt8(ascii: "r"): buffer.append(0x0D)
        case UInt8(ascii: "t"): buffer.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard peek() == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("unpaired surrogate in \\u escape") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("unpaired surrogate in \\u escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
            buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            index -= 1
            throw error("invalid escape '\\\(String(decoding: [code], as: UTF8.self))'")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = peek() else { throw error("unterminated \\u escape") }
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("\\u must be followed by four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    // MARK: - Bytes

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(String(decoding: [byte], as: UTF8.self))'" }
        return "0x" + String(byte, radix: 16, uppercase: true)
    }

    /// An error at the current position; columns count characters, not bytes, so CJK text lines up.
    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1
        var lineStart = 0
        let end = min(index, bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).count + 1
        return JSONSyntaxError(message: message, line: line, column: column)
    }
}
