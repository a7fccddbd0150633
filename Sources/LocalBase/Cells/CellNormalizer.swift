import Airtable
import AirtableFormula
import Foundation

/// Turns the cells a client writes into the cells a record stores, checking each against its field's
/// type (reference §9). With `typecast`, values are converted on a best-effort basis as Airtable does,
/// and unknown select options are added to the field, which is why the normalizer carries the table.
struct CellNormalizer {
    private(set) var table: TableSchema
    let typecast: Bool
    /// The base's users, whom collaborator cells may name.
    var users: [Collaborator] = []
    /// Whether typecast added select options, so the schema must be saved with the records.
    private(set) var schemaChanged = false
    /// Finds a field of the table by id or name (`TableSchema.field`, or the base's map of it).
    var findField: (String, TableSchema) -> FieldSchema? = { key, table in table.field(key) }

    init(table: TableSchema, typecast: Bool) {
        self.table = table
        self.typecast = typecast
    }

    /// The cells keyed by field id; `.null` marks a cell to clear. `record` (1-based) names the record
    /// in errors when the request holds several.
    mutating func normalize(_ fields: Fields, record: Int?) throws -> [String: JSONValue] {
        // Most writes are well formed: their cells are taken as the dictionary holds them. One that fails,
        // or names a field twice (by name and by id: fewer cells than keys), is gone through again by key
        // from where it started, so its error is the first by key whatever order the dictionary holds.
        let start = self
        if let cells = try? normalizeAsHeld(fields, record: record), cells.count == fields.count { return cells }
        self = start
        return try normalizeByKey(fields, record: record)
    }

    private mutating func normalizeAsHeld(_ fields: Fields, record: Int?) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = Dictionary(minimumCapacity: fields.count)
        for (key, value) in fields {
            guard let field = findField(key, table) else { throw APIError.unknownFieldName(key) }
            result[field.id] = try normalize(value, for: field, record: record)
        }
        return result
    }

    private mutating func normalizeByKey(_ fields: Fields, record: Int?) throws -> [String: JSONValue] {
        var result: [String: JSONValue] = Dictionary(minimumCapacity: fields.count)
        var givenAs: [String: String] = Dictionary(minimumCapacity: fields.count)
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            guard let field = findField(key, table) else { throw APIError.unknownFieldName(key) }
            if let earlier = givenAs[field.id] {
                throw APIError.invalidRequest(
                    "field \"\(field.name)\" is given twice (as \"\(earlier)\" and \"\(key)\")" + where_(record))
            }
            givenAs[field.id] = key
            result[field.id] = try normalize(value, for: field, record: record)
        }
        return result
    }

    private func where_(_ record: Int?) -> String { record.map { " in record \($0) of the request" } ?? "" }

    /// One cell: the value to store, or `.null` to clear it.
    mutating func normalize(_ value: JSONValue, for field: FieldSchema, record: Int?) throws -> JSONValue {
        if field.type.isComputed {
            throw APIError.invalidValue(field: field.name, detail: "cannot accept a value because the field is computed")
        }
        if value.isNull { return .null }
        let place = where_(record)
        let fieldName = field.name
        let reject = { (why: String) -> APIError in
            APIError.invalidValue(field: fieldName, detail: "cannot accept the provided value: \(why)" + place)
        }
        let stored: JSONValue
        switch field.type {
        case .singleLineText, .multilineText, .richText, .email, .url, .phoneNumber:
            stored = .string(try text(value, reject))
        case .number, .currency, .percent, .duration:
            if typecast, case .string(let text) = value, text.trimmingCharacters(in: .whitespaces).isEmpty {
                return .null  // typecast reads blank text as an empty cell
            }
            stored = .number(try number(value, percent: field.type == .percent, duration: field.type == .duration,
                                        reject))
        case .rating:
            let max = field.options?["max"]?.intValue ?? 5
            let rating = try number(value, percent: false, duration: false, reject)
            guard rating == rating.rounded(), rating >= 0, rating <= Double(max) else {
                throw reject("a rating is a whole number from 1 to \(max), not \(JSONValue.number(rating))")
            }
            stored = rating == 0 ? .null : .number(rating)
        case .checkbox:
            stored = .bool(try checkbox(value, reject))
        case .singleSelect:
            let name = try text(value, reject)
            // An option the field already had (the common case) needs no look at the table as typecast
            // may have changed it; options are only ever added.
            if name.isEmpty || Self.hasChoice(name, field) {
                stored = name.isEmpty ? .null : .string(name)
            } else {
                stored = .string(try choice(name, of: field.id))
            }
        case .multipleSelects:
            stored = .array(try multipleChoices(value, field: field, reject).map { .string($0) })
        case .date:
            stored = try CellDates.date(value, typecast: typecast, reject)
        case .dateTime:
            stored = try CellDates.dateTime(value, zone: field.options?["timeZone"]?.stringValue, typecast: typecast,
                                          reject)
        case .multipleAttachments:
            stored = try CellAttachments.normalize(value, typecast: typecast, reject)
        case .multipleRecordLinks:
            stored = try CellLinks.links(value, typecast: typecast, reject)
        case .singleCollaborator:
            stored = try CellLinks.collaborator(value, users: users, typecast: typecast, reject)
        case .multipleCollaborators:
            stored = try CellLinks.collaborators(value, users: users, typecast: typecast, reject)
        case .barcode:
            stored = try CellLinks.barcode(value, typecast: typecast, reject)
        case .autoNumber, .createdTime, .lastModifiedTime, .formula, .rollup, .multipleLookupValues, .count, .button,
            .createdBy, .lastModifiedBy:
            stored = .null  // unreachable: computed fields were refused above
        }
        return stored.isEmptyCell ? .null : stored
    }

    // MARK: Types

    private func text(_ value: JSONValue, _ reject: (String) -> APIError) throws -> String {
        switch value {
        case .string(let text): return text
        case .number where typecast, .bool where typecast: return JSONWriter.string(value)
        case .array(let items) where typecast:
            return try items.map { try text($0, reject) }.joined(separator: ", ")
        default: throw reject("text is needed, not \(describe(value))")
        }
    }

    private func number(_ value: JSONValue, percent: Bool, duration: Bool, _ reject: (String) -> APIError)
        throws -> Double
    {
        switch value {
        case .number(let number): return number
        case .bool(let flag) where typecast: return flag ? 1 : 0
        case .string(let text) where typecast:
            if let number = CellNumbers.parse(text, percent: percent, duration: duration) { return number }
            throw reject("\(describe(value)) does not read as a number")
        default: throw reject("a number is needed, not \(describe(value))")
        }
    }

    private func checkbox(_ value: JSONValue, _ reject: (String) -> APIError) throws -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .number(let number) where typecast: return number != 0
        case .string(let text) where typecast:
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "y", "1", "checked", "on", "x", "✓", "✔": return true
            case "false", "no", "n", "0", "unchecked", "off", "": return false
            default: throw reject("\(describe(value)) is neither checked nor unchecked")
            }
        default: throw reject("true or false is needed, not \(describe(value))")
        }
    }

    private mutating func multipleChoices(_ value: JSONValue, field: FieldSchema, _ reject: (String) -> APIError)
        throws -> [String]
    {
        var names: [String]
        switch value {
        case .array(let items):
            names = try items.map { item in
                if case .string(let name) = item { return name }
                if typecast, case .number = item { return JSONWriter.string(item) }
                throw reject("each option must be text, not \(describe(item))")
            }
        case .string(let text) where typecast:
            names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        case .number where typecast:
            names = [JSONWriter.string(value)]
        default:
            throw reject("an array of options is needed, not \(describe(value))")
        }
        names = names.filter { !$0.isEmpty }
        var seen = Set<String>()
        var result: [String] = []
        for name in names where seen.insert(name).inserted {
            result.append(try choice(name, of: field.id))
        }
        return result
    }

    /// Whether `field` has the option `name` exactly.
    private static func hasChoice(_ name: String, _ field: FieldSchema) -> Bool {
        field.options?["choices"]?.arrayValue?.contains { $0["name"]?.stringValue == name } ?? false
    }

    /// The option `name` of a select field; with typecast an unknown one is added to the field.
    private mutating func choice(_ name: String, of fieldID: String) throws -> String {
        guard let index = table.fields.firstIndex(where: { $0.id == fieldID }) else { return name }
        let field = table.fields[index]
        if field.choices.contains(name) { return name }
        if typecast, let match = field.choices.first(where: { $0.lowercased() == name.lowercased() }) {
            return match
        }
        guard typecast else { throw APIError.invalidChoice(name) }
        table.fields[index] = SchemaRules.addingChoice(name, to: field)
        schemaChanged = true
        return name
    }
}

/// A value described for an error message: its kind and, if short, the value itself.
func describe(_ value: JSONValue) -> String {
    let text = JSONWriter.string(value)
    return text.count <= 60 ? "\(value.kindDescription) (\(text))" : value.kindDescription
}
