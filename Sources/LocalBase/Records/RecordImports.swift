import Airtable
import AirtableFormula
import Foundation

/// Keeping records copied from another base as they were there: the same ids, creation times and cells.
///
/// An archive needs this: a record moved out of a remote base must keep the id and creation time reports
/// and links know it by, and its cells as that base answered them (already valid there; a choice the
/// other base added by typecast is not refused here). Storing a record again under the same id replaces
/// it, so copying twice (a rerun after a crash) leaves one copy. Cells of a field the table lacks add
/// that field first, as long text, so nothing of the record is dropped.
extension LocalBase: RecordKeeping {
    /// Stores `records` in `table` under their own ids and creation times, in one transaction. Returns
    /// how many were new (the rest replaced a copy already here).
    @discardableResult
    public func keepRecords(in table: String, _ records: [Record]) async throws(AirtableError) -> Int {
        try await perform { try $0.keepRecords(in: table, records) }
    }
}

extension BaseContext {
    func keepRecords(in tableName: String, _ records: [Record]) throws -> Int {
        for record in records where !AirtableID.isValid(record.id, prefix: "rec") {
            throw APIError.invalidRequest("\(record.id) is not a record id")
        }
        return try file.connection.writeTransaction {
            var table = try table(tableName)
            let names = Set(records.flatMap(\.fields.keys))
            var added = false
            for name in names.sorted() where table.field(name) == nil {
                table.fields.append(try SchemaRules.makeField(FieldSpec(name: name, type: .multilineText), in: table))
                added = true
            }
            if added { try save(table) }
            let rows = RecordRows(file: file, tableID: table.id)
            let modified = now()
            var new = 0
            for record in records {
                var cells: [String: JSONValue] = [:]
                for (name, value) in record.fields where !value.isNull {
                    guard let field = table.field(name), !field.type.isComputed else { continue }
                    cells[field.id] = value
                }
                if var stored = try rows.find(id: record.id) {
                    stored.cells = cells
                    stored.modifiedMillis = max(modified, stored.createdMillis)
                    try rows.update(stored)
                } else {
                    _ = try rows.insert(id: record.id, created: millis(record.createdTime), cells: cells)
                    new += 1
                }
            }
            return new
        }
    }
}
