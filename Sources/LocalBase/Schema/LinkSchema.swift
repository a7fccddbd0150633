import Airtable
import Foundation

/// Link fields in the schema: a link to another table gets its inverse field in that table (named
/// after the linking table, as Airtable does), the two naming each other in `inverseLinkFieldId`.
/// A link to its own table has no inverse.
enum LinkSchema {
    /// Connects the new link field `fieldID` of `table` (already in `table.fields`): resolves its
    /// linked table (id, or name), and adds the inverse field to the linked table in `base`.
    /// - Returns: the linked table with its new inverse field, to be saved; nil for a self-link.
    static func connect(fieldID: String, of table: inout TableSchema, in base: BaseSchema) throws -> TableSchema? {
        guard let index = table.fields.firstIndex(where: { $0.id == fieldID }) else { return nil }
        var field = table.fields[index]
        var options = field.options?.objectValue ?? [:]
        let wanted = options["linkedTableId"]?.stringValue ?? ""
        let linkedID: String
        if wanted == table.id || (base.table(wanted) == nil && wanted == table.name) {
            linkedID = table.id
        } else if let linked = base.table(wanted) {
            linkedID = linked.id
        } else {
            throw APIError.invalidRequest("link field \"\(field.name)\" links to table \"\(wanted)\", which is not in this base")
        }
        options["linkedTableId"] = .string(linkedID)
        guard linkedID != table.id, var linked = base.table(linkedID) else {
            field.options = .object(options)
            table.fields[index] = field
            return nil
        }
        var name = table.name
        var suffix = 2
        while linked.fields.contains(where: { $0.name.lowercased() == name.lowercased() }) {
            name = "\(table.name) \(suffix)"
            suffix += 1
        }
        let inverse = FieldSchema(id: AirtableID.make("fld"), name: name, type: .multipleRecordLinks, options: [
            "linkedTableId": .string(table.id), "isReversed": false, "prefersSingleRecordLink": false,
            "inverseLinkFieldId": .string(field.id),
        ])
        linked.fields.append(inverse)
        options["inverseLinkFieldId"] = .string(inverse.id)
        field.options = .object(options)
        table.fields[index] = field
        return linked
    }
}

extension FieldSchema {
    /// A link field's linked table id and inverse field id.
    var link: (table: String, inverse: String?)? {
        guard type == .multipleRecordLinks, let table = options?["linkedTableId"]?.stringValue else { return nil }
        return (table, options?["inverseLinkFieldId"]?.stringValue)
    }
}
