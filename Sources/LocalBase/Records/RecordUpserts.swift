import Airtable
import AirtableFormula
import Foundation

/// Upsert (`performUpsert.fieldsToMergeOn`): records with an id are plain updates; the others are
/// matched on the merge fields: no match creates, one match updates, more than one fails the request.
extension BaseContext {
    func upsertRecords(in tableName: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) throws -> UpsertResult
    {
        try file.connection.writeTransaction {
            let table = try table(tableName)
            let mergeFields = try Self.mergeFields(mergeOn, in: table)
            var normalizer = try normalizer(for: table, typecast: options.typecast)
            var changes: [[String: JSONValue]] = []
            for (index, record) in records.enumerated() {
                let number = records.count > 1 ? index + 1 : nil
                changes.append(try normalizer.normalize(record.fields, record: number))
                if record.id == nil, let missing = mergeFields.first(where: { changes[index][$0.id] == nil }) {
                    throw APIError.invalidRequest(
                        "record \(index + 1) has no id and no value for the merge field \"\(missing.name)\"; "
                            + "each record without an id must give every field of fieldsToMergeOn")
                }
            }
            for index in changes.indices {
                try resolveLinks(&changes[index], table: table, typecast: options.typecast,
                                 record: records.count > 1 ? index + 1 : nil)
            }
            let rows = RecordRows(file: file, tableID: table.id)
            for record in records {
                if let id = record.id, try rows.find(id: id) == nil { throw APIError.rowDoesNotExist(id) }
            }
            if normalizer.schemaChanged { try save(normalizer.table) }
            for field in mergeFields where field.type != .multipleSelects {
                try file.ensureIndex(tableID: table.id, fieldID: field.id)
            }

            let time = now()
            var result = UpsertResult(records: [], createdRecords: [], updatedRecords: [])
            var published = RecordChanges(table: table)
            var linked = LinkedChanges()
            var written: [StoredRecord] = []
            for (index, (record, cells)) in zip(records, changes).enumerated() {
                let target: StoredRecord?
                if let id = record.id {
                    target = try rows.find(id: id)
                } else {
                    let matches = try Self.matches(of: cells, on: mergeFields, rows: rows)
                    guard matches.count <= 1 else {
                        let names = mergeFields.map { "\"\($0.name)\"" }.joined(separator: ", ")
                        throw APIError.invalidRequest(
                            "record \(index + 1) matches \(matches.count) records on fieldsToMergeOn (\(names)); "
                                + "an upsert can update only one")
                    }
                    target = matches.first
                }
                if var stored = target {
                    let old = stored.cells
                    stored.apply(cells, replace: replace, at: time)
                    try rows.update(stored)
                    try syncLinks(table: table, recordID: stored.id, old: old, new: stored.cells, into: &linked)
                    published.changed.append((old, stored))
                    if !result.createdRecords.contains(stored.id) && !result.updatedRecords.contains(stored.id) {
                        result.updatedRecords.append(stored.id)
                    }
                    written.append(stored)
                } else {
                    let stored = try rows.insert(id: AirtableID.make("rec"), created: time,
                                                 cells: cells.filter { !$0.value.isNull })
                    try syncLinks(table: table, recordID: stored.id, old: [:], new: stored.cells, into: &linked)
                    published.created.append(stored)
                    result.createdRecords.append(stored.id)
                    written.append(stored)
                }
            }
            try publish(published, linked)
            // Read back once all are written, so computed cells (lookups over the batch) are current.
            let output = RecordOutput(table: normalizer.table, byFieldID: options.returnFieldsByFieldId,
                                      computed: try ComputedCells(context: self))
            result.records = try written.map { output.record(try rows.find(id: $0.id) ?? $0) }
            return result
        }
    }

    /// The merge fields by name or id: 1 to 3 distinct, existing fields of mergeable types.
    static func mergeFields(_ names: [String], in table: TableSchema) throws -> [FieldSchema] {
        guard (1...3).contains(names.count) else {
            throw APIError.invalidRequest("fieldsToMergeOn must name 1 to 3 fields, not \(names.count)")
        }
        var fields: [FieldSchema] = []
        for name in names {
            guard let field = table.field(name) else { throw APIError.unknownFieldName(name) }
            guard field.type.canMergeOn else {
                throw APIError.invalidRequest(
                    "field \"\(field.name)\" is of type \(field.type.rawValue) and cannot be in fieldsToMergeOn")
            }
            guard !fields.contains(where: { $0.id == field.id }) else {
                throw APIError.invalidRequest("fieldsToMergeOn names field \"\(field.name)\" twice")
            }
            fields.append(field)
        }
        return fields
    }

    /// The stored records whose merge fields equal the given cells. A cleared (null) merge value
    /// matches nothing, as in Airtable.
    private static func matches(of cells: [String: JSONValue], on fields: [FieldSchema], rows: RecordRows)
        throws -> [StoredRecord]
    {
        var equalities: [CandidateCondition] = []
        for field in fields {
            guard let value = cells[field.id], !value.isNull else { return [] }
            switch value {
            case .string(let text): equalities.append(.cellEquals(fieldID: field.id, value: .text(text)))
            case .number(let number): equalities.append(.cellEquals(fieldID: field.id, value: .real(number)))
            default: break  // arrays (multiple selects) are compared below
            }
        }
        let candidates = try rows.scan(after: 0, ceiling: .max, limit: .max, conditions: equalities)
        return candidates.filter { stored in
            fields.allSatisfy { field in
                guard let wanted = cells[field.id], let have = stored.cells[field.id] else { return false }
                if case .array(let a) = wanted, case .array(let b) = have {
                    return Set(a.compactMap(\.stringValue)) == Set(b.compactMap(\.stringValue))
                }
                return wanted == have
            }
        }
    }
}
