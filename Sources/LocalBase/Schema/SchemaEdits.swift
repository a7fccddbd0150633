import Airtable
import Foundation

/// Creating tables and fields (Airtable's metadata API), each in its own write transaction.
extension BaseContext {
    func createTable(_ spec: TableSpec) throws -> TableSchema {
        try file.connection.writeTransaction {
            let table = try SchemaRules.makeTable(spec, in: schema())
            try file.createRecordTable(table.id)
            try save(table)
            return table
        }
    }

    func createField(in tableName: String, _ spec: FieldSpec) throws -> FieldSchema {
        try file.connection.writeTransaction {
            var table = try table(tableName)
            let field = try SchemaRules.makeField(spec, in: table)
            table.fields.append(field)
            try save(table)
            return field
        }
    }
}
