import Foundation

/// The cells of a record, keyed by field name (or by field id when asked for).
public typealias Fields = [String: JSONValue]

/// An Airtable record: `{id: "rec" + 14 alphanumerics, createdTime, fields}`.
public struct Record: Sendable, Hashable {
    public var id: String
    public var createdTime: Date
    /// The non-empty cells. Empty cells are left out, as Airtable does.
    public var fields: Fields

    public init(id: String, createdTime: Date, fields: Fields) {
        self.id = id
        self.createdTime = createdTime
        // Filtering rebuilds the dictionary (every key hashed again): done only when a cell is empty.
        self.fields = fields.values.contains(where: \.isEmptyCell) ? fields.filter { !$0.value.isEmptyCell } : fields
    }

    /// The record as Airtable's API writes it.
    public var json: JSONValue {
        .object([
            "id": .string(id),
            "createdTime": .string(AirtableTimestamp.format(createdTime)),
            "fields": .object(fields),
        ])
    }

    /// Reads a record from its API form; the error names what is missing.
    public init(json: JSONValue) throws(AirtableError) {
        guard let id = json["id"]?.stringValue else { throw .decoding("a record has no \"id\"") }
        guard let created = json["createdTime"]?.stringValue else {
            throw .decoding("record \(id) has no \"createdTime\"")
        }
        guard let time = AirtableTimestamp.parse(created) else {
            throw .decoding("record \(id) has an unreadable createdTime \"\(created)\"")
        }
        let fields: Fields
        switch json["fields"] {
        case .object(let members)?: fields = members
        case nil, .null?: fields = [:]
        case let other?: throw .decoding("record \(id) has \"fields\" as \(other.kindDescription), not an object")
        }
        self.init(id: id, createdTime: time, fields: fields)
    }
}

/// Record and other model ids: a three-letter prefix and 14 base62 characters.
public enum AirtableID {
    private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// A fresh random id with `prefix` ("rec", "tbl", "fld", "app", "itr", ...).
    public static func make(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return make(prefix, using: &generator)
    }

    /// A fresh id drawn from `generator` (deterministic in tests).
    public static func make(_ prefix: String, using generator: inout some RandomNumberGenerator) -> String {
        var bytes = Array(prefix.utf8)
        // Random bytes eight at a time (one call to the system's generator, not one per character); a
        // byte of 248 or more is skipped, so each of the 62 characters stays equally likely.
        while bytes.count < prefix.utf8.count + 14 {
            var word = generator.next()
            for _ in 0..<8 where bytes.count < prefix.utf8.count + 14 {
                let byte = Int(word & 0xFF)
                word >>= 8
                if byte < 248 { bytes.append(alphabet[byte % alphabet.count]) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether `id` has the shape `prefix` + 14 base62 characters.
    public static func isValid(_ id: String, prefix: String) -> Bool {
        let utf8 = Array(id.utf8)
        guard utf8.count == prefix.utf8.count + 14, id.hasPrefix(prefix) else { return false }
        return utf8.dropFirst(prefix.utf8.count).allSatisfy { alphabet.contains($0) }
    }
}
