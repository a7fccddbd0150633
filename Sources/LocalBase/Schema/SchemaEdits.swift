import Airtable
import Foundation

/// Creating tables and fields (Airtable's metadata API), each in its own write transaction.
extension BaseContext {
    func createTable(_ spec: TableSpec) throws -> TableSchema {
        try file.connection.writeTransaction {
            var table = try SchemaRules.makeTable(spec, in: schema())
            try file.createRecordTable(table.id)
            var linked: [TableSchema] = []
            for field in table.fields where field.type == .multipleRecordLinks {
                var base = try schema()
                base.tables.append(table)
                base.tables = base.tables.map { other in linked.first { $0.id == other.id } ?? other }
                if let changed = try LinkSchema.connect(fieldID: field.id, of: &table, in: base) {
                    linked.removeAll { $0.id == changed.id }
                    linked.append(changed)
                }
            }
            try save(table)
            for other in linked { try save(other) }
            return table
        }
    }

    func createField(in tableName: String, _ spec: FieldSpec) throws -> FieldSchema {
        try file.connection.writeTransaction {
            var table = try table(tableName)
            let field = try SchemaRules.makeField(spec, in: table)
            table.fields.append(field)
            let linked = field.type == .multipleRecordLinks
                ? try LinkSchema.connect(fieldID: field.id, of: &table, in: schema()) : nil
            try save(table)
            if let linked { try save(linked) }
            return table.fields.last ?? field
        }
    }
}
