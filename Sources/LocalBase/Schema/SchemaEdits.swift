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
            var base = try schema()
            base.tables = base.tables.map { other in linked.first { $0.id == other.id } ?? other }
            for index in table.fields.indices { try ComputedFieldRules.resolve(index, of: &table, in: base) }
            if table.fields.contains(where: { $0.type == .createdBy || $0.type == .lastModifiedBy }) { _ = try users() }
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
            try ComputedFieldRules.resolve(table.fields.count - 1, of: &table, in: schema())
            if field.type == .createdBy || field.type == .lastModifiedBy { _ = try users() }
            try save(table)
            if let linked { try save(linked) }
            return table.fields.last ?? field
        }
    }
}
