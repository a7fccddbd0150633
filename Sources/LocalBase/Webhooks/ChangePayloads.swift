import Airtable
import AirtableFormula
import Foundation

/// What one write did to one table's records, for webhook payloads.
struct RecordChanges {
    let table: TableSchema
    var created: [StoredRecord] = []
    var changed: [(before: [String: JSONValue], after: StoredRecord)] = []
    var destroyed: [String] = []
}

extension BaseContext {
    /// Writes one payload (Airtable's "v0" format) to every live webhook that watches these changes.
    /// Call inside the write's transaction, so the payload exists exactly when the change does.
    func publish(_ changes: RecordChanges) throws { try publish([changes]) }

    /// One payload per webhook for everything one write did, over all its tables (a link's other side
    /// included), as Airtable reports one transaction.
    func publish(_ all: [RecordChanges]) throws {
        guard try hasWebhookTables() else { return }
        try prunePayloads()
        // Ids only: each specification was parsed once, when first seen (`specification(of:)`).
        var live: [String] = []
        try file.connection.query("SELECT id FROM webhooks WHERE expires_ms > ?1",
                                  [.integer(now())]) { row in live.append(row.text(0) ?? "") }
        live.sort()
        guard !live.isEmpty else { return }
        let now = clock()
        var owner: Collaborator?
        var ownerLookedUp = false
        var number: Int64?
        for id in live {
            guard let filters = try specification(of: id)?.parsed else { continue }
            var tables: [String: JSONValue] = [:]
            for changes in all {
            var tableChange: [String: JSONValue] = [:]
            var created: [String: JSONValue] = [:]
            for record in changes.created where filters.watches(table: changes.table.id, change: "add", fields: []) {
                created[record.id] = ["createdTime": .string(AirtableTimestamp.format(record.createdTime)),
                                      "cellValuesByFieldId": .object(record.cells)]
            }
            var changed: [String: JSONValue] = [:]
            for (before, after) in changes.changed {
                let fields = Set(before.keys).union(after.cells.keys).filter { before[$0] != after.cells[$0] }
                guard !fields.isEmpty, filters.watches(table: changes.table.id, change: "update", fields: fields) else { continue }
                var current: [String: JSONValue] = [:]
                var previous: [String: JSONValue] = [:]
                for field in fields {
                    current[field] = after.cells[field] ?? .null
                    previous[field] = before[field] ?? .null
                }
                var entry: [String: JSONValue] = ["current": ["cellValuesByFieldId": .object(current)]]
                if filters.includesPreviousCellValues { entry["previous"] = ["cellValuesByFieldId": .object(previous)] }
                changed[after.id] = .object(entry)
            }
            let destroyed = filters.watches(table: changes.table.id, change: "remove", fields: []) ? changes.destroyed : []
            if !created.isEmpty { tableChange["createdRecordsById"] = .object(created) }
            if !changed.isEmpty { tableChange["changedRecordsById"] = .object(changed) }
            if !destroyed.isEmpty { tableChange["destroyedRecordIds"] = .array(destroyed.map(JSONValue.string)) }
            // A table can come twice (a deleted record's self-links): its parts are merged.
            if !tableChange.isEmpty {
                var merged = tables[changes.table.id]?.objectValue ?? [:]
                for (key, value) in tableChange {
                    if case .object(let earlier)? = merged[key], case .object(let later) = value {
                        merged[key] = .object(earlier.merging(later) { _, new in new })
                    } else {
                        merged[key] = value
                    }
                }
                tables[changes.table.id] = .object(merged)
            }
            }
            guard !tables.isEmpty else { continue }
            if number == nil {
                let next = (Int64(try file.meta("transactionNumber") ?? "0") ?? 0) + 1
                try file.setMeta("transactionNumber", String(next))
                number = next
            }
            var metadata: [String: JSONValue] = ["source": "publicApi"]
            if !ownerLookedUp { (owner, ownerLookedUp) = (try storedUsers().first, true) }
            if let owner {
                metadata["sourceMetadata"] = ["user": ["id": .string(owner.id), "email": .string(owner.email),
                                                       "name": .string(owner.name), "permissionLevel": "create"]]
            }
            let payload: JSONValue = [
                "timestamp": .string(AirtableTimestamp.format(now)),
                "baseTransactionNumber": .number(Double(number ?? 1)),
                "payloadFormat": "v0",
                "actionMetadata": .object(metadata),
                "changedTablesById": .object(tables),
            ]
            try file.connection.run("""
                INSERT INTO webhook_payloads(webhook_id, cursor, payload, created_ms)
                SELECT id, next_cursor, ?2, ?3 FROM webhooks WHERE id = ?1
                """, [.text(id), .text(JSONWriter.string(payload)), .integer(millis(now))])
            try file.connection.run("UPDATE webhooks SET next_cursor = next_cursor + 1 WHERE id = ?1", [.text(id)])
        }
    }
}
