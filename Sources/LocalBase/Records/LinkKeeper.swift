import Airtable
import AirtableFormula
import Foundation

/// Keeps link fields true: every linked id names a record of the linked table, and a link and its
/// inverse always agree (a record linked from A to B shows up in B's inverse field, and leaves it when
/// the link is removed or either record is deleted). Runs inside the write's transaction.
extension BaseContext {
    /// A normalizer for `table` that knows the base's users when the table has collaborator fields.
    func normalizer(for table: TableSchema, typecast: Bool) throws -> CellNormalizer {
        var normalizer = CellNormalizer(table: table, typecast: typecast)
        let positions = fieldPositions(of: table)
        normalizer.findField = { key, table in BaseContext.field(key, of: table, positions: positions) }
        if table.fields.contains(where: { $0.type == .singleCollaborator || $0.type == .multipleCollaborators }) {
            normalizer.users = try users()
        }
        return normalizer
    }

    /// Checks the link cells of one record about to be written; with typecast, names that are not
    /// record ids are looked up by the linked table's primary field, and made there when missing.
    func resolveLinks(_ cells: inout [String: JSONValue], table: TableSchema, typecast: Bool, record: Int?) throws {
        for field in table.fields {
            guard let link = field.link, case .array(let items)? = cells[field.id] else { continue }
            guard let linked = try schema().table(link.table) else { continue }
            let rows = RecordRows(file: file, tableID: linked.id)
            var ids: [JSONValue] = []
            for item in items {
                guard let text = item.stringValue else { continue }
                if AirtableID.isValid(text, prefix: "rec") {
                    guard try rows.find(id: text) != nil else {
                        throw APIError(status: 422, type: "ROW_DOES_NOT_EXIST",
                                       message: "Record ID \(text) does not exist in table \"\(linked.name)\", which "
                                           + "field \"\(field.name)\" links to" + (record.map { " (record \($0) of the request)" } ?? ""))
                    }
                    ids.append(.string(text))
                } else if typecast {
                    ids.append(.string(try recordNamed(text, in: linked, rows: rows)))
                } else {
                    throw APIError(status: 422, type: "INVALID_RECORD_ID", message: "Value \"\(text)\" is not a valid record ID.")
                }
            }
            var seen = Set<String>()
            cells[field.id] = .array(ids.filter { seen.insert($0.stringValue ?? "").inserted })
        }
    }

    /// The record of `table` whose primary field reads `name`, made if there is none (typecast).
    private func recordNamed(_ name: String, in table: TableSchema, rows: RecordRows) throws -> String {
        guard let primary = table.field(table.primaryFieldId) else { throw APIError.modelNotFound }
        if let found = try rows.scan(after: 0, ceiling: .max, limit: 1,
                                     conditions: [.cellEquals(fieldID: primary.id, value: .text(name))]).first {
            return found.id
        }
        var normalizer = try normalizer(for: table, typecast: true)
        let cells = try normalizer.normalize([primary.id: .string(name)], record: nil)
        if normalizer.schemaChanged { try save(normalizer.table) }
        return try rows.insert(id: AirtableID.make("rec"), created: now(), cells: cells.filter { !$0.value.isNull }).id
    }

    /// After record `id` of `table` changed from `old` to `new` cells (`new` nil: deleted), brings the
    /// inverse fields of the records it links to (or linked to) up to date.
    func syncLinks(table: TableSchema, recordID id: String, old: [String: JSONValue], new: [String: JSONValue]?,
                   into linked: inout LinkedChanges) throws
    {
        for field in table.fields {
            guard let link = field.link else { continue }
            let before = Self.linkedIDs(old[field.id])
            let after = Self.linkedIDs(new?[field.id])
            guard let inverse = link.inverse, link.table != table.id else {
                if new == nil { try dropSelfLinks(to: id, field: field, table: table, into: &linked) }
                continue
            }
            let rows = RecordRows(file: file, tableID: link.table)
            let time = now()
            let linkedTable = try schema().table(link.table)
            for other in before where !after.contains(other) {
                guard var stored = try rows.find(id: other) else { continue }
                let before = stored.cells
                let kept = Self.linkedIDs(stored.cells[inverse]).filter { $0 != id }
                stored.cells[inverse] = kept.isEmpty ? nil : .array(kept.map(JSONValue.string))
                stored.modifiedMillis = time
                try rows.update(stored)
                if let linkedTable { linked.note(table: linkedTable, before: before, after: stored) }
            }
            for other in after where !before.contains(other) {
                guard var stored = try rows.find(id: other) else { continue }
                var ids = Self.linkedIDs(stored.cells[inverse])
                guard !ids.contains(id) else { continue }
                let before = stored.cells
                ids.append(id)
                stored.cells[inverse] = .array(ids.map(JSONValue.string))
                stored.modifiedMillis = time
                try rows.update(stored)
                if let linkedTable { linked.note(table: linkedTable, before: before, after: stored) }
            }
        }
    }

    /// A deleted record leaves the self-link fields of its own table's other records.
    private func dropSelfLinks(to id: String, field: FieldSchema, table: TableSchema,
                               into linked: inout LinkedChanges) throws {
        let rows = RecordRows(file: file, tableID: table.id)
        for var stored in try rows.scan(after: 0, ceiling: .max, limit: .max) {
            let ids = Self.linkedIDs(stored.cells[field.id])
            guard ids.contains(id) else { continue }
            let before = stored.cells
            let kept = ids.filter { $0 != id }
            stored.cells[field.id] = kept.isEmpty ? nil : .array(kept.map(JSONValue.string))
            stored.modifiedMillis = now()
            try rows.update(stored)
            linked.note(table: table, before: before, after: stored)
        }
    }

    static func linkedIDs(_ cell: JSONValue?) -> [String] {
        cell?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}

/// The records a write changed through their link fields' other side, by table, for webhook payloads:
/// each record once, with its cells before the write and after it.
struct LinkedChanges {
    private(set) var tables: [String: RecordChanges] = [:]

    mutating func note(table: TableSchema, before: [String: JSONValue], after: StoredRecord) {
        var changes = tables[table.id] ?? RecordChanges(table: table)
        if let index = changes.changed.firstIndex(where: { $0.after.id == after.id }) {
            changes.changed[index].after = after
        } else {
            changes.changed.append((before, after))
        }
        tables[table.id] = changes
    }
}

extension BaseContext {
    /// Publishes a write's own changes with those made to the other side of its links, as one payload.
    func publish(_ changes: RecordChanges, _ linked: LinkedChanges) throws {
        try publish([changes] + linked.tables.keys.sorted().compactMap { linked.tables[$0] })
    }
}
