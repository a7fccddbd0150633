import Airtable
import AirtableFormula
import Foundation

/// List records (reference §2): parameters checked, then one page read from one snapshot of the file.
extension BaseContext {
    func listRecords(in tableName: String, query: ListQuery) throws -> RecordPage {
        let plan = try checkedPlan(tableName, query)
        return try file.connection.readTransaction { try page(plan, query: query) }
    }

    /// The listing's plan, with the indexes it reads through made. They are made before the read
    /// transaction: creating one writes, and a read transaction that tries to upgrade fails at once when
    /// another connection writes. An index only speeds the read up: a file that may not be written
    /// (read-only, or a writer holding it) is read without.
    private func checkedPlan(_ tableName: String, _ query: ListQuery) throws -> ListPlan {
        let plan = try ListPlan(query: query, table: table(tableName), now: clock(),
                                computed: try ComputedCells(context: self))
        try? file.ensureIndexes(tableID: plan.table.id, for: plan.filter.conditions)
        return plan
    }

    /// Makes the indexes a listing by each formula would make on its first page (see `listRecords`).
    func prepareIndexes(in tableName: String, for formulas: [String]) throws {
        let table = try table(tableName)
        let computed = try ComputedCells(context: self)
        for formula in formulas {
            let filter = try FormulaFilter.make(formula, table: table, now: clock(), linkNames: computed.linkNames,
                                                computed: computed)
            try? file.ensureIndexes(tableID: table.id, for: filter.conditions)
        }
    }

    /// Drops the single-field indexes of these fields of `tableName`, when present and the file may be written.
    func retireIndexes(in tableName: String, onFields fields: [String]) throws {
        let table = try table(tableName)
        guard !file.connection.isReadOnly else { return }
        try file.retireIndexes(tableID: table.id, fieldIDs: fields.compactMap { table.field($0)?.id })
    }

    /// Drops the creation-time index of `tableName`, when present and the file may be written.
    func retireCreatedIndex(in tableName: String) throws {
        let table = try table(tableName)
        guard !file.connection.isReadOnly, try file.hasCreatedIndex(tableID: table.id) else { return }
        try file.connection.writeTransaction {
            try file.connection.execute("DROP INDEX IF EXISTS \"created_\(table.id)\"")
        }
    }

    /// Every record a listing's pages would give, in their order, from one snapshot (`maxRecords` kept).
    func listAllRecords(in tableName: String, query: ListQuery) throws -> [Record] {
        let plan = try checkedPlan(tableName, query)
        // At most one below Int.max: a page reads one record past the ones it takes.
        let limit = min(query.maxRecords ?? Int.max, Int.max - 1)
        guard plan.pageSize > 0, limit > 0 else { return [] }
        return try file.connection.readTransaction {
            var rows = RecordRows(file: file, tableID: plan.table.id)
            rows.cellsRead = plan.cellsRead
            let found: [StoredRecord]
            if plan.order.keys.isEmpty {
                found = try creationOrderPage(after: 0, ceiling: rows.maxSeq(), take: limit, plan, answering(plan, rows)).0
            } else {
                let entries = try sortedEntries(plan, rows)
                found = try sortedPage(entries, from: 0, take: min(limit, entries.count), rows: answering(plan, rows)).0
            }
            return found.map(plan.output.record)
        }
    }

    private func page(_ plan: ListPlan, query: ListQuery) throws -> RecordPage {
        let now = clock()
        var rows = RecordRows(file: file, tableID: plan.table.id)
        rows.cellsRead = plan.cellsRead
        var resumed: (key: String, iterator: ListIterators.Iterator)?
        if let offset = query.offset, !offset.isEmpty {
            resumed = try iterators.resume(offset, tableID: plan.table.id, now: now)
        }
        let remaining = resumed.map { $0.iterator.remaining } ?? query.maxRecords
        if plan.pageSize == 0 || remaining == 0 {
            iterators.finish(resumed?.key)
            return RecordPage(records: [])
        }
        let take = min(plan.pageSize, remaining ?? Int.max)

        var page: [StoredRecord]
        var next: ListIterators.Position?
        var nextID: String?
        switch resumed?.iterator.position {
        case .sorted(let entries, let start)?:
            (page, next, nextID) = try sortedPage(entries, from: start, take: take, rows: answering(plan, rows))
        case .creationOrder(let after, let ceiling)?:
            (page, next, nextID) = try creationOrderPage(after: after, ceiling: ceiling, take: take, plan,
                                                         answering(plan, rows))
        case nil where plan.order.keys.isEmpty:
            (page, next, nextID) = try creationOrderPage(after: 0, ceiling: rows.maxSeq(), take: take, plan,
                                                         answering(plan, rows))
        case nil:
            let entries = try sortedEntries(plan, rows)
            (page, next, nextID) = try sortedPage(entries, from: 0, take: take, rows: answering(plan, rows))
        }

        let left = remaining.map { $0 - take }
        var offset: String?
        if let next, let nextID, left.map({ $0 > 0 }) ?? true {
            let iterator = ListIterators.Iterator(tableID: plan.table.id, position: next, remaining: left,
                                                  nextRecordID: nextID, lastUsed: now)
            offset = iterators.store(iterator, key: resumed?.key)
        } else {
            iterators.finish(resumed?.key)
        }
        return RecordPage(records: page.map(plan.output.record), offset: offset)
    }

    /// `rows` reading a listing's answer: straight into the records' fields when no formula looks at the
    /// rows read (the filter is its SQL conditions, or none) and the fields are stored cells renamed.
    private func answering(_ plan: ListPlan, _ rows: RecordRows) -> RecordRows {
        guard let names = plan.directNames else { return rows }
        var direct = rows
        direct.outputNames = names
        return direct
    }

    /// Up to `take` matching records after `after` in creation order, and where the next page starts. Rows
    /// are read at most 500 at a time, so a whole listing with a formula to run holds no more candidates.
    private func creationOrderPage(after: Int64, ceiling: Int64, take: Int, _ plan: ListPlan, _ rows: RecordRows)
        throws -> ([StoredRecord], ListIterators.Position?, String?)
    {
        var found: [StoredRecord] = []
        var cursor = after
        let batch = min(max(64, take + 1), 500)
        scanning: while true {
            let chunk = try rows.scan(after: cursor, ceiling: ceiling, limit: batch, conditions: plan.filter.conditions)
            for record in chunk {
                cursor = record.seq
                if try plan.filter.keeps(record) {
                    found.append(record)
                    if found.count > take { break scanning }
                }
            }
            if chunk.count < batch { break }
        }
        guard found.count > take else { return (found, nil, nil) }
        return (Array(found.prefix(take)), .creationOrder(after: found[take - 1].seq, ceiling: ceiling), found[take].id)
    }

    /// Every matching record's (seq, id), sorted; done once, at a sorted listing's first page.
    private func sortedEntries(_ plan: ListPlan, _ rows: RecordRows) throws -> [(seq: Int64, id: String)] {
        // Without a formula to run, only the sort fields are needed, and SQLite extracts them.
        let candidates = !plan.filter.evaluates && !plan.order.needsWholeRecords
            ? try rows.scanCells(of: plan.order.keys.map(\.field), conditions: plan.filter.conditions)
            : try rows.scan(after: 0, ceiling: .max, limit: .max, conditions: plan.filter.conditions)
        var keyed: [(seq: Int64, id: String, values: [RecordOrder.Value])] = []
        for record in candidates {
            guard try plan.filter.keeps(record) else { continue }
            keyed.append((record.seq, record.id, plan.order.values(of: record)))
        }
        keyed.sort { a, b in plan.order.precedes(a.values, b.values) ?? (a.seq < b.seq) }
        return keyed.map { ($0.seq, $0.id) }
    }

    /// One page of a sorted snapshot. Records deleted since the first page are skipped; the others are
    /// read as they are now.
    private func sortedPage(_ entries: [(seq: Int64, id: String)], from start: Int, take: Int, rows: RecordRows)
        throws -> ([StoredRecord], ListIterators.Position?, String?)
    {
        let end = min(entries.count, start + take)
        let slice = entries[min(start, end)..<end]
        var read: [Int64: StoredRecord] = [:]
        for record in try rows.rows(seqs: slice.map(\.seq).sorted()) { read[record.seq] = record }
        let page = slice.compactMap { read[$0.seq] }
        guard end < entries.count else { return (page, nil, nil) }
        return (page, .sorted(entries: entries, next: end), entries[end].id)
    }
}
