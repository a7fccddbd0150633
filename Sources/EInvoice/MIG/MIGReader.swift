/// A small, strict reader for the MIG files the platform hands a shop (E0501): elements, attributes, text,
/// comments, CDATA, the five named entities and character references. A document type declaration is refused (no
/// entity is ever expanded from a file), as is anything not well formed; each problem is named with the line it is on.
/// FoundationXML is not linked into the shop: this is all a 配號 file needs.
struct MIGReader {
    /// An element: its local name (any `prefix:` dropped), its text, its children in order.
    struct Element: Equatable {
        var name: String
        var text: String = ""
        var children: [Element] = []
        var line: Int

        /// The text of the first child called `name`, trimmed; nil when there is none.
        func child(_ name: String) -> String? {
            children.first { $0.name == name }.map { $0.text.trimmingXMLSpace }
        }

        /// Every element of the tree (this one first), depth first.
        var all: [Element] { [self] + children.flatMap(\.all) }
    }

    /// Why a file could not be read: the line and what was found.
    struct Problem: Error, Equatable {
        let line: Int
        let what: String
    }

    private let bytes: [UInt8]
    private var at = 0
    private var line = 1
    private var depth = 0

    /// How deep elements may nest: a MIG document is four or five levels; a file nested deeper is refused before it
    /// could exhaust the reader's stack.
    static let maxDepth = 32

    private init(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        self.bytes = bytes
    }

    /// The document's root element.
    static func read(_ text: String) throws(Problem) -> Element {
        var reader = MIGReader(text)
        return try reader.document()
    }

    private mutating func document() throws(Problem) -> Element {
        try skipMisc()
        guard at < bytes.count, bytes[at] == UInt8(ascii: "<") else { throw fail("no root element") }
        let root = try element()
        try skipMisc()
        guard at == bytes.count else { throw fail("text after the root element's end") }
        return root
    }

    /// Spaces, the XML declaration, processing instructions and comments, outside the root.
    private mutating func skipMisc() throws(Problem) {
        while true {
            skipSpace()
            if starts("<?") {
                try skip(past: "?>")
            } else if starts("<!--") {
                try skip(past: "-->")
            } else if starts("<!") {
                throw fail("a document type declaration (<!DOCTYPE ...>), which a MIG file never has")
            } else {
                return
            }
        }
    }

    private mutating func element() throws(Problem) -> Element {
        let startLine = line
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw fail("elements nested more than \(Self.maxDepth) deep") }
        at += 1  // <
        let qualified = name()
        guard !qualified.isEmpty else { throw fail("a \"<\" not followed by an element name") }
        var element = Element(name: Self.local(qualified), line: startLine)
        // Attributes (read for well-formedness; a 配號 file carries its facts in elements).
        while true {
            skipSpace()
            guard at < bytes.count else { throw fail("the file ends inside <\(qualified)>") }
            if starts("/>") { at += 2; return element }
            if bytes[at] == UInt8(ascii: ">") { at += 1; break }
            let attribute = name()
            guard !attribute.isEmpty else { throw fail("an unexpected character in <\(qualified)>") }
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "=") else { throw fail("attribute \(attribute) of <\(qualified)> has no value") }
            at += 1
            skipSpace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") else {
                throw fail("attribute \(attribute) of <\(qualified)> is not quoted")
            }
            let quote = bytes[at]
            at += 1
            while at < bytes.count, bytes[at] != quote { advance() }
            guard at < bytes.count else { throw fail("the file ends inside attribute \(attribute) of <\(qualified)>") }
            at += 1
        }
        // Content.
        var text: [UInt8] = []
        while true {
            guard at < bytes.count else { throw fail("<\(qualified)> (line \(startLine)) is never closed") }
            if starts("</") {
                at += 2
                let closing = name()
                skipSpace()
                guard closing == qualified, at < bytes.count, bytes[at] == UInt8(ascii: ">") else {
                    throw fail("</\(closing)> closes <\(qualified)> (line \(startLine))")
                }
                at += 1
                element.text = String(decoding: text, as: UTF8.self)
                return element
            } else if starts("<!--") {
                try skip(past: "-->")
            } else if starts("<![CDATA[") {
                at += 9
                while at < bytes.count, !starts("]]>") { text.append(bytes[at]); advance() }
                guard at < bytes.count else { throw fail("a CDATA section is never closed") }
                at += 3
            } else if starts("<?") {
                try skip(past: "?>")
            } else if bytes[at] == UInt8(ascii: "<") {
                element.children.append(try self.element())
            } else if bytes[at] == UInt8(ascii: "&") {
                text += Array(try reference().utf8)
            } else {
                text.append(bytes[at])
                advance()
            }
        }
    }

    /// `&amp;` and its kin, `&#65;`, `&#x41;`.
    private mutating func reference() throws(Problem) -> String {
        let start = at
        while at < bytes.count, bytes[at] != UInt8(ascii: ";"), at - start < 12 { at += 1 }
        guard at < bytes.count, bytes[at] == UInt8(ascii: ";") else { throw fail("an \"&\" that starts no entity") }
        let body = String(decoding: bytes[(start + 1)..<at], as: UTF8.self)
        at += 1
        switch body {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default:
            let scalar: UInt32?
            if body.hasPrefix("#x") { scalar = UInt32(body.dropFirst(2), radix: 16) } else if body.hasPrefix("#") {
                scalar = UInt32(body.dropFirst(), radix: 10)
            } else {
                scalar = nil
            }
            guard let scalar, let value = Unicode.Scalar(scalar) else { throw fail("unknown entity &\(body);") }
            return String(Character(value))
        }
    }

    private mutating func name() -> String {
        let start = at
        while at < bytes.count {
            let byte = bytes[at]
            let isNameByte = byte >= 0x80 || (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte)
                || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            guard isNameByte else { break }
            at += 1
        }
        return String(decoding: bytes[start..<at], as: UTF8.self)
    }

    private static func local(_ qualified: String) -> String {
        qualified.split(separator: ":").last.map(String.init) ?? qualified
    }

    private func starts(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard at + count <= bytes.count else { return false }
        return text.withUTF8Buffer { expected in
            for index in 0..<count where bytes[at + index] != expected[index] { return false }
            return true
        }
    }

    private mutating func skip(past end: StaticString) throws(Problem) {
        let startLine = line
        while at < bytes.count, !starts(end) { advance() }
        guard at < bytes.count else { throw Problem(line: startLine, what: "a \"<\" section that is never closed") }
        at += end.utf8CodeUnitCount
    }

    private mutating func skipSpace() {
        while at < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[at]) { advance() }
    }

    private mutating func advance() {
        if bytes[at] == 0x0A { line += 1 }
        at += 1
    }

    private func fail(_ what: String) -> Problem { Problem(line: line, what: what) }
}

extension String {
    /// Without XML white space (space, tab, CR, LF) at either end.
    var trimmingXMLSpace: String {
        let scalars = unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
              let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}
