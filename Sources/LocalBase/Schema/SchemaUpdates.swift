import Airtable
import Foundation

/// Renaming and describing tables and fields (Airtable's "update table" and "update field"), each in
/// its own write transaction. Cells are keyed by field id, so a rename touches the schema only.
extension BaseContext {
    /// Airtable's limit on a table's or a field's description.
    static let maximumDescriptionLength = 20_000

    func updateTable(_ tableName: String, _ change: SchemaChange) throws -> TableSchema {
        try file.connection.writeTransaction {
            var table = try table(tableName)
            let base = try schema()
            try Self.check(change, what: "table")
            if let name = change.name {
                let name = try SchemaRules.checkedName(name, what: "a table")
                if let clash = base.tables.first(where: { $0.id != table.id && $0.name.lowercased() == name.lowercased() }) {
                    throw APIError.duplicateTableName(clash.name)
                }
                table.name = name
            }
            if let description = change.description { table.description = description.isEmpty ? nil : description }
            try save(table)
            return table
        }
    }

    func updateField(in tableName: String, field fieldName: String, _ change: SchemaChange) throws -> FieldSchema {
        try file.connection.writeTransaction {
            var table = try table(tableName)
            guard let index = table.fields.firstIndex(where: { $0.id == fieldName })
                ?? table.fields.firstIndex(where: { $0.name == fieldName })
            else { throw APIError.modelNotFound }
            try Self.check(change, what: "field")
            var field = table.fields[index]
            if let name = change.name {
                let name = try SchemaRules.checkedName(name, what: "a field")
                if let clash = table.fields.first(where: { $0.id != field.id && $0.name.lowercased() == name.lowercased() }) {
                    throw APIError.duplicateFieldName(clash.name, table: table.name)
                }
                field.name = name
            }
            if let description = change.description { field.description = description.isEmpty ? nil : description }
            table.fields[index] = field
            try save(table)
            return field
        }
    }

    private static func check(_ change: SchemaChange, what: String) throws {
        guard change.name != nil || change.description != nil else {
            throw APIError.invalidRequest("updating a \(what) needs at least one of \"name\" or \"description\"")
        }
        if let description = change.description, description.count > maximumDescriptionLength {
            throw APIError.invalidRequest(
                "the description of a \(what) must be at most \(maximumDescriptionLength) characters, not \(description.count)")
        }
    }
}
