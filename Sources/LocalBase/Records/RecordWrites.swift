import Airtable
import Foundation

/// Create, update, delete: each request is checked whole first, then applied in one transaction.
extension BaseContext {
    func createRecords(in tableName: String, _ records: [Fields], options: WriteOptions) throws -> [Record] {
        try file.connection.writeTransaction {
            let table = try table(tableName)
            var normalizer = try normalizer(for: table, typecast: options.typecast)
            var all: [[String: JSONValue]] = []
            for (index, fields) in records.enumerated() {
                all.append(try normalizer.normalize(fields, record: records.count > 1 ? index + 1 : nil))
            }
            if normalizer.schemaChanged { try save(normalizer.table) }
            for index in all.indices {
                try resolveLinks(&all[index], table: table, typecast: options.typecast,
                                 record: records.count > 1 ? index + 1 : nil)
            }
            let rows = RecordRows(file: file, tableID: table.id)
            let created = now()
            var stored: [StoredRecord] = []
            var linked = LinkedChanges()
            for cells in all {
                let record = try rows.insert(id: AirtableID.make("rec"), created: created,
                                             cells: cells.filter { !$0.value.isNull })
                try syncLinks(table: table, recordID: record.id, old: [:], new: record.cells, into: &linked)
                stored.append(record)
            }
            try publish(RecordChanges(table: table, created: stored), linked)
            // Read back the records a self-link within the batch changed after they were written; the
            // others are as inserted.
            let relinked = Set(linked.tables[table.id]?.changed.map(\.after.id) ?? [])
            let written = try self.table(table.id)
            let output = RecordOutput(table: written, byFieldID: options.returnFieldsByFieldId,
                                      computed: try ComputedCells(context: self),
                                      layout: outputLayout(of: written, byFieldID: options.returnFieldsByFieldId))
            return try stored.map { output.record(relinked.contains($0.id) ? try rows.find(id: $0.id) ?? $0 : $0) }
        }
    }

    func updateRecords(in tableName: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        throws -> [Record]
    {
        try file.connection.writeTransaction {
            let table = try table(tableName)
            var normalizer = try normalizer(for: table, typecast: options.typecast)
            var changes: [[String: JSONValue]] = []
            for (index, update) in updates.enumerated() {
                changes.append(try normalizer.normalize(update.fields, record: updates.count > 1 ? index + 1 : nil))
            }
            for index in changes.indices {
                try resolveLinks(&changes[index], table: table, typecast: options.typecast,
                                 record: updates.count > 1 ? index + 1 : nil)
            }
            let rows = RecordRows(file: file, tableID: table.id)
            for update in updates where try rows.find(id: update.id) == nil {
                throw APIError.rowDoesNotExist(update.id)
            }
            if normalizer.schemaChanged { try save(normalizer.table) }
            let modified = now()
            var results: [StoredRecord] = []
            var changed: [(before: [String: JSONValue], after: StoredRecord)] = []
            var linked = LinkedChanges()
            for (update, cells) in zip(updates, changes) {
                guard var stored = try rows.find(id: update.id) else { throw APIError.rowDoesNotExist(update.id) }
                let old = stored.cells
                stored.apply(cells, replace: replace, at: modified)
                try rows.update(stored)
                try syncLinks(table: table, recordID: stored.id, old: old, new: stored.cells, into: &linked)
                results.append(stored)
                changed.append((old, stored))
            }
            try publish(RecordChanges(table: table, changed: changed), linked)
            // Read back: a self-link within the batch may have changed an earlier record.
            let output = RecordOutput(table: normalizer.table, byFieldID: options.returnFieldsByFieldId,
                                      computed: try ComputedCells(context: self))
            return try results.map { output.record(try rows.find(id: $0.id) ?? $0) }
        }
    }

    func deleteRecords(in tableName: String, ids: [String]) throws -> [String] {
        try file.connection.writeTransaction {
            let table = try table(tableName)
            let rows = RecordRows(file: file, tableID: table.id)
            var seen = Set<String>()
            for id in ids {
                guard seen.insert(id).inserted else {
                    throw APIError.invalidRequest("record \(id) is listed twice in one delete")
                }
                guard try rows.find(id: id) != nil else { throw APIError.recordNotFound(id) }
            }
            var linked = LinkedChanges()
            for id in ids {
                if let stored = try rows.find(id: id) {
                    try syncLinks(table: table, recordID: id, old: stored.cells, new: nil, into: &linked)
                }
                try rows.delete(id: id)
            }
            try deleteComments(ofRecords: ids)
            try publish(RecordChanges(table: table, destroyed: ids), linked)
            return ids
        }
    }

    func getRecord(in tableName: String, id: String, options: ReadOptions) throws -> Record {
        try file.connection.readTransaction {
            let table = try table(tableName)
            let text = try RecordOutput.cellText(format: options.cellFormat, timeZone: options.timeZone,
                                                 userLocale: options.userLocale)
            guard let stored = try RecordRows(file: file, tableID: table.id).find(id: id) else {
                throw APIError.modelNotFound
            }
            let computed = try ComputedCells(context: self)
            return RecordOutput(table: table, byFieldID: options.returnFieldsByFieldId, text: text,
                                linkNames: computed.linkNames, computed: computed).record(stored)
        }
    }
}

extension StoredRecord {
    /// Applies normalized cells: merged (PATCH), or replacing every stored cell (PUT; computed fields
    /// are never stored, so they stay). `.null` clears a cell.
    mutating func apply(_ changes: [String: JSONValue], replace: Bool, at time: Int64) {
        if replace { cells = [:] }
        for (fieldID, value) in changes {
            if value.isNull { cells[fieldID] = nil } else { cells[fieldID] = value }
        }
        modifiedMillis = time
    }
}
