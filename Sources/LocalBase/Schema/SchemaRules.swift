import Airtable
import Foundation

/// Turns table and field specs into schema entries, checking them first: names present and unique
/// (ignoring case, as Airtable does), options that fit the type. Errors are 422s that say what is wrong.
enum SchemaRules {
    /// Types Airtable does not allow as a table's primary (first) field.
    static let nonPrimaryTypes: Set<FieldType> = [.checkbox, .multipleAttachments, .multipleSelects]

    static func makeTable(_ spec: TableSpec, in base: BaseSchema) throws -> TableSchema {
        let name = try checkedName(spec.name, what: "a table")
        if let clash = base.tables.first(where: { $0.name.lowercased() == name.lowercased() }) {
            throw APIError.invalidRequest("a table named \"\(clash.name)\" already exists in this base")
        }
        guard let first = spec.fields.first else {
            throw APIError.invalidRequest("table \"\(name)\" needs at least one field (the first is its primary field)")
        }
        if nonPrimaryTypes.contains(first.type) {
            throw APIError.invalidRequest(
                "the primary field \"\(first.name)\" of table \"\(name)\" cannot be of type \(first.type.rawValue)")
        }
        var table = TableSchema(id: AirtableID.make("tbl"), name: name, description: spec.description,
                                primaryFieldId: "", fields: [],
                                views: [ViewSchema(id: AirtableID.make("viw"), name: "Grid view")])
        for fieldSpec in spec.fields {
            table.fields.append(try makeField(fieldSpec, in: table))
        }
        table.primaryFieldId = table.fields[0].id
        return table
    }

    static func makeField(_ spec: FieldSpec, in table: TableSchema) throws -> FieldSchema {
        let name = try checkedName(spec.name, what: "a field")
        if let clash = table.fields.first(where: { $0.name.lowercased() == name.lowercased() }) {
            throw APIError.invalidRequest("a field named \"\(clash.name)\" already exists in table \"\(table.name)\"")
        }
        if spec.type == .multipleRecordLinks && (spec.options == nil || spec.options?.isNull == true) {
            throw APIError.invalidRequest("link field \"\(name)\" needs options.linkedTableId, the id of the table it links to")
        }
        let checked = try checkedOptions(spec.options, type: spec.type, field: name)
        let options = try FieldOptionDefaults.complete(checked?.objectValue, type: spec.type, field: name)
        return FieldSchema(id: AirtableID.make("fld"), name: name, type: spec.type, description: spec.description,
                           options: options)
    }

    static func checkedName(_ name: String, what: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw APIError.invalidRequest("\(what) needs a name that is not blank") }
        guard trimmed == name else {
            throw APIError.invalidRequest("the name \"\(name)\" of \(what) starts or ends with white space")
        }
        return name
    }

    /// The options given for a field of `type`, checked, select choices given ids (defaults for the
    /// options left out are `FieldOptionDefaults`' job).
    private static func checkedOptions(_ options: JSONValue?, type: FieldType, field: String) throws -> JSONValue? {
        guard let options, !options.isNull else { return nil }
        guard var object = options.objectValue else {
            throw APIError.invalidRequest("the options of field \"\(field)\" must be an object, not \(options.kindDescription)")
        }
        switch type {
        case .singleSelect, .multipleSelects:
            object["choices"] = .array(try checkedChoices(object["choices"], field: field))
        case .number, .currency, .percent:
            if let precision = object["precision"] {
                guard let digits = precision.intValue, (0...8).contains(digits) else {
                    throw APIError.invalidRequest("the precision of field \"\(field)\" must be a whole number from 0 to 8")
                }
            }
            if type == .currency, let symbol = object["symbol"], symbol.stringValue == nil {
                throw APIError.invalidRequest("the currency symbol of field \"\(field)\" must be a string")
            }
        case .checkbox, .rating:
            for key in ["color", "icon"] where object[key].map({ $0.stringValue == nil }) == true {
                throw APIError.invalidRequest("the \(key) of field \"\(field)\" must be a string")
            }
            if type == .rating, let max = object["max"] {
                guard let value = max.intValue, (1...10).contains(value) else {
                    throw APIError.invalidRequest("the max of rating field \"\(field)\" must be a whole number from 1 to 10")
                }
            }
        case .dateTime:
            if let zone = object["timeZone"] {
                guard let name = zone.stringValue, TimeZones.named(name) != nil || name == "client" else {
                    throw APIError.invalidRequest("the time zone of field \"\(field)\" is not a known zone: \(zone)")
                }
            }
        case .multipleRecordLinks:
            guard let linked = object["linkedTableId"]?.stringValue, !linked.isEmpty else {
                throw APIError.invalidRequest("link field \"\(field)\" needs options.linkedTableId, the id of the table it links to")
            }
            for key in ["isReversed", "prefersSingleRecordLink"] where object[key].map({ $0.boolValue == nil }) == true {
                throw APIError.invalidRequest("\(key) of field \"\(field)\" must be true or false")
            }
            // The inverse field is made by the base, never named by the caller.
            object["inverseLinkFieldId"] = nil
        case .multipleAttachments:
            if let reversed = object["isReversed"], reversed.boolValue == nil {
                throw APIError.invalidRequest("isReversed of field \"\(field)\" must be true or false")
            }
        default:
            break
        }
        return .object(object)
    }

    private static func checkedChoices(_ value: JSONValue?, field: String) throws -> [JSONValue] {
        guard let value, !value.isNull else { return [] }
        guard let list = value.arrayValue else {
            throw APIError.invalidRequest("the choices of field \"\(field)\" must be an array")
        }
        var seen = Set<String>()
        var choices: [JSONValue] = []
        for (index, choice) in list.enumerated() {
            guard let name = choice["name"]?.stringValue, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw APIError.invalidRequest("choice \(index + 1) of field \"\(field)\" needs a name that is not blank")
            }
            guard seen.insert(name).inserted else {
                throw APIError.invalidRequest("field \"\(field)\" lists the choice \"\(name)\" twice")
            }
            var entry: [String: JSONValue] = ["name": .string(name)]
            let id = choice["id"]?.stringValue
            entry["id"] = .string(id.flatMap { AirtableID.isValid($0, prefix: "sel") ? $0 : nil } ?? AirtableID.make("sel"))
            if let color = choice["color"]?.stringValue { entry["color"] = .string(color) }
            choices.append(.object(entry))
        }
        return choices
    }

    /// `field` with `name` appended to its choices (typecast creating an option).
    static func addingChoice(_ name: String, to field: FieldSchema) -> FieldSchema {
        var field = field
        var object = field.options?.objectValue ?? [:]
        var choices = object["choices"]?.arrayValue ?? []
        choices.append(["id": .string(AirtableID.make("sel")), "name": .string(name)])
        object["choices"] = .array(choices)
        field.options = .object(object)
        return field
    }
}
