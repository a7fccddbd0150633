import Airtable
import AirtableFormula

/// The options Airtable's metadata API always reports for a field type, filled in where a field spec
/// left them out, so every stored schema is complete. Clients depend on it: pyairtable's schema models
/// require them (a checkbox's `color` and `icon`, a number's `precision`, a date's `dateFormat`, ...)
/// and fall back to an untyped field when one is missing.
///
/// The defaults are Airtable's own for a new field, and match what `CellText` and `CellNormalizer`
/// already assume when an option is absent, so filling them changes no cell and no rendering.
enum FieldOptionDefaults {
    /// Airtable's date formats: the name and the format text that goes with it.
    static let dateFormats: [String: String] = [
        "local": "l", "friendly": "LL", "us": "M/D/YYYY", "european": "D/M/YYYY", "iso": "YYYY-MM-DD",
    ]
    /// Airtable's time formats.
    static let timeFormats: [String: String] = ["12hour": "h:mma", "24hour": "HH:mm"]
    static let durationFormats: Set<String> = ["h:mm", "h:mm:ss", "h:mm:ss.S", "h:mm:ss.SS", "h:mm:ss.SSS"]

    /// `options` (already checked by `SchemaRules`) with every missing option of `type` filled in;
    /// nil for the types that have no options. Throws a 422 when a date or time format is not one of
    /// Airtable's, or its name and format disagree.
    static func complete(_ options: [String: JSONValue]?, type: FieldType, field: String) throws -> JSONValue? {
        var object = options ?? [:]
        switch type {
        case .singleSelect, .multipleSelects:
            object["choices"] = object["choices"] ?? []
        case .checkbox:
            object["color"] = object["color"] ?? "greenBright"
            object["icon"] = object["icon"] ?? "check"
        case .number, .percent:
            object["precision"] = object["precision"] ?? 0
        case .currency:
            object["precision"] = object["precision"] ?? 2
            object["symbol"] = object["symbol"] ?? "$"
        case .duration:
            let format = object["durationFormat"]?.stringValue ?? "h:mm"
            guard durationFormats.contains(format) else {
                throw APIError.invalidRequest("the durationFormat of field \"\(field)\" must be one of "
                    + durationFormats.sorted().joined(separator: ", ") + ", not \"\(format)\"")
            }
            object["durationFormat"] = .string(format)
        case .rating:
            object["max"] = object["max"] ?? 5
            object["color"] = object["color"] ?? "yellowBright"
            object["icon"] = object["icon"] ?? "star"
        case .date:
            object["dateFormat"] = try format(object["dateFormat"], known: dateFormats, fallback: "iso",
                                              what: "dateFormat", field: field)
        case .dateTime:
            object["timeZone"] = object["timeZone"] ?? "utc"
            object["dateFormat"] = try format(object["dateFormat"], known: dateFormats, fallback: "iso",
                                              what: "dateFormat", field: field)
            object["timeFormat"] = try format(object["timeFormat"], known: timeFormats, fallback: "24hour",
                                              what: "timeFormat", field: field)
        case .multipleAttachments:
            object["isReversed"] = object["isReversed"] ?? false
        case .lastModifiedTime:
            // The local base tracks a change to any field; the result is shown as a UTC date and time.
            object["isValid"] = object["isValid"] ?? true
            object["result"] = object["result"] ?? [
                "type": "dateTime",
                "options": ["timeZone": "utc", "dateFormat": ["name": "iso", "format": "YYYY-MM-DD"],
                            "timeFormat": ["name": "24hour", "format": "HH:mm"]],
            ]
        case .multipleRecordLinks:
            object["isReversed"] = object["isReversed"] ?? false
            object["prefersSingleRecordLink"] = object["prefersSingleRecordLink"] ?? false
        case .singleLineText, .multilineText, .richText, .email, .url, .phoneNumber, .autoNumber, .createdTime,
            .singleCollaborator, .multipleCollaborators, .barcode:
            return options.map(JSONValue.object)
        case .formula, .rollup, .multipleLookupValues, .count, .button, .createdBy, .lastModifiedBy:
            // Completed by ComputedFieldRules, which needs the table's other fields.
            return options.map(JSONValue.object)
        }
        return .object(object)
    }

    /// A schema read from a file written before options were completed, with the same defaults
    /// filled in. Fields whose options cannot be completed are left as stored.
    static func completed(_ schema: BaseSchema) -> BaseSchema {
        var schema = schema
        for t in schema.tables.indices {
            for f in schema.tables[t].fields.indices {
                let field = schema.tables[t].fields[f]
                if let options = try? complete(field.options?.objectValue, type: field.type, field: field.name) {
                    schema.tables[t].fields[f].options = options
                }
            }
        }
        return schema
    }

    /// A `{name, format}` pair: the name alone gets its format, the format alone gets its name, both
    /// must agree; nothing at all is `fallback`.
    private static func format(_ value: JSONValue?, known: [String: String], fallback: String, what: String,
                               field: String) throws -> JSONValue {
        guard let value, !value.isNull else { return ["name": .string(fallback), "format": .string(known[fallback] ?? "")] }
        guard value.objectValue != nil else {
            throw APIError.invalidRequest("the \(what) of field \"\(field)\" must be an object with a name, not \(value.kindDescription)")
        }
        let name = value["name"]?.stringValue
        let format = value["format"]?.stringValue
        let choices = known.keys.sorted().joined(separator: ", ")
        switch (name, format) {
        case (let name?, let format):
            guard let expected = known[name] else {
                throw APIError.invalidRequest("the \(what) of field \"\(field)\" must be named one of \(choices), not \"\(name)\"")
            }
            if let format, format != expected {
                throw APIError.invalidRequest(
                    "the \(what) of field \"\(field)\" is named \"\(name)\", whose format is \"\(expected)\", not \"\(format)\"")
            }
            return ["name": .string(name), "format": .string(expected)]
        case (nil, let format?):
            guard let name = known.first(where: { $0.value == format })?.key else {
                throw APIError.invalidRequest("the \(what) format \"\(format)\" of field \"\(field)\" is not one of Airtable's")
            }
            return ["name": .string(name), "format": .string(format)]
        case (nil, nil):
            throw APIError.invalidRequest("the \(what) of field \"\(field)\" needs a name (\(choices))")
        }
    }
}
