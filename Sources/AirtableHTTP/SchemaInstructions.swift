import Airtable
/// Instructions for creating a `SchemaPlan`'s tables and fields by hand in Airtable's web interface:
/// names, types as the interface calls them (and as the API does), select options, number formats.
public enum SchemaInstructions {
    /// One block per table: `Create table "Drink" … with these fields:` or `In table "X", add these
    /// fields:`, then a line per field. Empty when nothing is missing.
    public static func text(for plan: SchemaPlan) -> String {
        var out = ""
        for table in plan.missingTables {
            out += "Create table \"\(table.name)\"" + (table.description.map { " (\($0))" } ?? "") + " with these fields:\n"
            for (index, field) in table.fields.enumerated() {
                out += line(field, note: index == 0 ? "the primary field: rename the table's first field to this" : nil)
            }
        }
        for addition in plan.missingFields {
            out += "In table \"\(addition.tableName)\", add these fields:\n"
            for field in addition.fields { out += line(field, note: nil) }
        }
        return out
    }

    private static func line(_ field: FieldSpec, note: String?) -> String {
        var text = "  - \"\(field.name)\": \(typeName(field))"
        let choices = field.options?["choices"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        if !choices.isEmpty { text += ", options: " + choices.joined(separator: ", ") }
        if let description = field.description { text += " — \(description)" }
        if let note { text += " (\(note))" }
        return text + "\n"
    }

    /// The type as Airtable's interface names it, the API name after it.
    static func typeName(_ field: FieldSpec) -> String {
        let label: String
        switch field.type {
        case .singleLineText: label = "Single line text"
        case .multilineText: label = "Long text"
        case .richText: label = "Long text with rich formatting"
        case .email: label = "Email"
        case .url: label = "URL"
        case .phoneNumber: label = "Phone number"
        case .number:
            let precision = field.options?["precision"]?.intValue ?? 0
            label = precision == 0 ? "Number, integer" : "Number, \(precision) decimal places"
        case .currency: label = "Currency"
        case .percent: label = "Percent"
        case .duration: label = "Duration"
        case .rating: label = "Rating"
        case .checkbox: label = "Checkbox"
        case .singleSelect: label = "Single select"
        case .multipleSelects: label = "Multiple select"
        case .date: label = "Date"
        case .dateTime:
            let zone = field.options?["timeZone"]?.stringValue.map { $0 == "client" ? "local time zone" : $0 }
            label = "Date with time, 24-hour" + (zone.map { ", \($0)" } ?? "")
        case .multipleAttachments: label = "Attachment"
        case .autoNumber: label = "Autonumber"
        case .createdTime: label = "Created time"
        case .lastModifiedTime: label = "Last modified time"
        case .multipleRecordLinks: label = "Link to another record"
        case .singleCollaborator: label = "User"
        case .multipleCollaborators: label = "User, multiple"
        case .barcode: label = "Barcode"
        case .formula: label = "Formula: " + (field.options?["formula"]?.stringValue ?? "")
        case .rollup: label = "Rollup"
        case .multipleLookupValues: label = "Lookup"
        case .count: label = "Count"
        case .button: label = "Button"
        case .createdBy: label = "Created by"
        case .lastModifiedBy: label = "Last modified by"
        }
        return "\(label) [\(field.type.rawValue)]"
    }
}
