/// The header fields of a request or response, in the order they were received or added.
///
/// Names are matched case-insensitively (ASCII), as HTTP requires; a name that occurs several times
/// keeps every occurrence, so nothing a client sent is lost and a list-valued field can be read whole.
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field line: its name as spelled on the wire and its value without surrounding whitespace.
    public struct Field: Sendable, Equatable {
        /// The field name, spelled as sent or added.
        public var name: String
        /// The field value, without leading or trailing whitespace.
        public var value: String

        /// A field line with this name and value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    private var fields: [Field]

    /// Empty headers.
    public init() {
        fields = []
    }

    /// Headers holding `fields` in this order.
    public init(_ fields: [(name: String, value: String)]) {
        self.fields = fields.map { Field(name: $0.name, value: $0.value) }
    }

    /// Headers from a literal, in its order; a name may appear more than once.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// How many field lines there are (repeated names count once per line).
    public var count: Int { fields.count }

    /// Whether there are no fields at all.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates over the field lines in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// The value of the first field called `name`, or nil when there is none.
    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    /// The values of every field called `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Whether a field called `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// The comma-separated elements of every field called `name`, trimmed and lower-cased, empty
    /// elements dropped: how list-valued fields such as `Connection` or `Transfer-Encoding` are read.
    public func tokens(for name: String) -> [String] {
        values(for: name).flatMap { value in
            value.split(separator: ",").map { $0.trimmingHTTPWhitespace().lowercased() }.filter { !$0.isEmpty }
        }
    }

    /// Appends a field, keeping any existing fields of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field called `name` with one field holding `value` (at the first one's place).
    public mutating func replaceOrAdd(name: String, value: String) {
        if let first = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
            fields[first].value = value
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if Self.sameName(fields[index].name, name) {
                    fields.remove(at: index)
                } else {
                    index = fields.index(after: index)
                }
            }
        } else {
            add(name: name, value: value)
        }
    }

    /// Removes every field called `name`.
    public mutating func remove(name: String) {
        fields.removeAll { Self.sameName($0.name, name) }
    }

    /// One `Name: value` line per field, for debugging (it shows values: never log it).
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    /// ASCII case-insensitive equality: header names are tokens, so no Unicode folding is wanted.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { asciiLower($0) == asciiLower($1) }
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    func trimmingHTTPWhitespace() -> Substring {
        let isOWS: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        var trimmed = self.drop(while: isOWS)
        while let last = trimmed.last, isOWS(last) {
            trimmed = trimmed.dropLast()
        }
        return trimmed
    }
}
