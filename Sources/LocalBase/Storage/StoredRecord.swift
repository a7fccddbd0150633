import Airtable
import AirtableFormula
import Foundation

/// A record as the file holds it: its cells keyed by field id, empty cells and computed fields left out.
struct StoredRecord {
    /// The row key: creation (commit) order, and the value of every autoNumber field.
    var seq: Int64
    var id: String
    var createdMillis: Int64
    var modifiedMillis: Int64
    var cells: [String: JSONValue]
    /// Whether `cells` are already the API record's fields (read through `RecordRows.outputNames`): keyed
    /// by the listing's output names, only the fields it shows, no empty cell.
    var cellsAreOutput = false

    var createdTime: Date { Date(timeIntervalSince1970: Double(createdMillis) / 1000) }
    var modifiedTime: Date { Date(timeIntervalSince1970: Double(modifiedMillis) / 1000) }

    /// The value of `field` including the computed ones that need only this row (autoNumber, createdTime,
    /// lastModifiedTime; `ComputedCells` works out the others); nil when empty.
    func value(of field: FieldSchema) -> JSONValue? {
        switch field.type {
        case .autoNumber: return .number(Double(seq))
        case .createdTime: return .string(AirtableTimestamp.format(createdTime))
        case .lastModifiedTime: return .string(AirtableTimestamp.format(modifiedTime))
        default: return cells[field.id]
        }
    }

    /// Every non-empty cell keyed by field id, computed fields included (what formulas and sorting see).
    func allCells(_ table: TableSchema) -> [String: JSONValue] {
        var all = cells
        for field in table.fields where field.type.isComputed && field.type.isStoredInRow {
            all[field.id] = value(of: field)
        }
        return all
    }
}

extension FieldType {
    /// Whether a record's own row holds the field's value (computed ones included: autoNumber is the
    /// row key, createdTime and lastModifiedTime its times); the rest are `ComputedCells`' to work out.
    var isStoredInRow: Bool {
        switch self {
        case .formula, .rollup, .multipleLookupValues, .count, .button, .createdBy, .lastModifiedBy: return false
        default: return true
        }
    }
}

/// Milliseconds since 1970 of `date`, as createdTime keeps them.
func millis(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded(.down)) }

/// Reading and writing record rows of one table's SQL table.
struct RecordRows {
    let file: BaseFile
    let tableID: String
    /// The cells the reads build (by field id); the others are stepped over in the stored JSON, so a
    /// listing that asks for a few fields does not build every cell of every record. Nil builds all.
    var cellsRead: Set<String>? = nil
    /// Set when the records read are a listing's answer as they are (no formula looks at them): the cells
    /// are parsed straight into the record's fields under these names (`StoredRecord.cellsAreOutput`).
    var outputNames: JSONMemberNames? = nil

    private var name: String { BaseFile.recordTable(tableID) }

    /// The table to read, with the creation-time index forced when a creation-time bound narrows the
    /// scan: without statistics SQLite would rather walk the whole table in `seq` order than sort the
    /// few rows the index finds (the listing callers make it when missing; a file that may not be written
    /// and had it retired is read without it). A conjunction that has
    /// its own `ConditionIndex` reads through it when the file has it (a read-only file may not); one of
    /// `IS NOT` terms alone, through a partial index of exactly those terms (`BaseFile.partialIndex`).
    private func source(for conditions: [CandidateCondition]) throws -> String {
        let boundsCreation = conditions.contains { if case .createdTime = $0 { return true } else { return false } }
        if boundsCreation, try file.hasCreatedIndex(tableID: tableID) { return "\(name) INDEXED BY \"created_\(tableID)\"" }
        if let index = ConditionIndex(tableID: tableID, conditions: conditions), try file.hasIndex(named: index.name) {
            return "\(name) INDEXED BY \"\(index.name)\""
        }
        if let partial = try file.partialIndex(tableID: tableID, for: conditions) { return "\(name) INDEXED BY \"\(partial)\"" }
        return name
    }
    static let columns = "seq, id, created_ms, modified_ms, cells"

    func insert(id: String, created: Int64, cells: [String: JSONValue]) throws -> StoredRecord {
        try file.connection.run(
            "INSERT INTO \(name)(id, created_ms, modified_ms, cells) VALUES (?1, ?2, ?2, ?3)",
            [.text(id), .integer(created), .text(JSONWriter.string(.object(cells)))])
        let seq = file.connection.lastInsertRowID
        return StoredRecord(seq: seq, id: id, createdMillis: created, modifiedMillis: created, cells: cells)
    }

    func update(_ record: StoredRecord) throws {
        try file.connection.run("UPDATE \(name) SET modified_ms = ?2, cells = ?3 WHERE seq = ?1",
                                [.integer(record.seq), .integer(record.modifiedMillis),
                                 .text(JSONWriter.string(.object(record.cells)))])
    }

    func delete(id: String) throws {
        try file.connection.run("DELETE FROM \(name) WHERE id = ?1", [.text(id)])
    }

    func find(id: String) throws -> StoredRecord? {
        var found: StoredRecord?
        try file.connection.query("SELECT \(Self.columns) FROM \(name) WHERE id = ?1", [.text(id)]) { row in
            found = try Self.read(row)
        }
        return found
    }

    /// The largest seq so far (0 for an empty table): a listing's snapshot ceiling.
    func maxSeq() throws -> Int64 {
        try file.connection.integerValue("SELECT coalesce(max(seq), 0) FROM \(name)") ?? 0
    }

    /// Records with seq in `after+1 ... ceiling`, in seq order, at most `limit`, optionally only those
    /// meeting every candidate condition (an `anyOf` is read branch by branch and the rows merged).
    func scan(after: Int64, ceiling: Int64, limit: Int, conditions: [CandidateCondition] = [])
        throws -> [StoredRecord]
    {
        let branches = CandidateCondition.branches(conditions)
        guard branches.count > 1 else { return try scanBranch(after: after, ceiling: ceiling, limit: limit, branches[0]) }
        // Each branch gives only the seqs of its first `limit` rows after `after` (read from its index, no
        // cells), so the first `limit` of the union are among them; only those rows are read and parsed.
        // Reading whole rows from every branch parsed `limit` records per branch per page: an OR of 30 days
        // parsed about 15 times the records it returned.
        var seqs = Set<Int64>()
        for branch in branches {
            var sql = "SELECT seq FROM \(try source(for: branch)) WHERE seq > ?1 AND seq <= ?2"
            var values: [SQLiteValue] = [.integer(after), .integer(ceiling), .integer(Int64(limit))]
            CandidateCondition.append(branch, to: &sql, values: &values)
            try file.connection.query(sql + " ORDER BY seq LIMIT ?3", values) { row in seqs.insert(row.int64(0)) }
        }
        return try rows(seqs: seqs.sorted().prefix(limit))
    }

    /// The rows of these seqs (ascending), in seq order, read by one statement; a seq whose row is gone
    /// is skipped.
    func rows(seqs: some Collection<Int64>) throws -> [StoredRecord] {
        guard !seqs.isEmpty else { return [] }
        let list = "[" + seqs.map(String.init).joined(separator: ",") + "]"
        var records: [StoredRecord] = []
        records.reserveCapacity(seqs.count)
        try file.connection.query(
            "SELECT \(Self.columns) FROM \(name) WHERE seq IN (SELECT value FROM json_each(?1)) ORDER BY seq",
            [.text(list)]) { row in records.append(try read(row)) }
        return records
    }

    private func scanBranch(after: Int64, ceiling: Int64, limit: Int, _ conditions: [CandidateCondition])
        throws -> [StoredRecord]
    {
        var sql = "SELECT \(Self.columns) FROM \(try source(for: conditions)) WHERE seq > ?1 AND seq <= ?2"
        var values: [SQLiteValue] = [.integer(after), .integer(ceiling), .integer(Int64(limit))]
        CandidateCondition.append(conditions, to: &sql, values: &values)
        sql += " ORDER BY seq LIMIT ?3"
        var records: [StoredRecord] = []
        try file.connection.query(sql, values) { row in records.append(try read(row)) }
        return records
    }

    /// Every record (optionally only those meeting the candidate conditions), carrying only the cells
    /// of `fields`: read with json_extract, so sorting a large table never parses whole records.
    func scanCells(of fields: [FieldSchema], conditions: [CandidateCondition]) throws -> [StoredRecord] {
        let branches = CandidateCondition.branches(conditions)
        guard branches.count > 1 else { return try scanCellsBranch(of: fields, branches[0]) }
        var merged: [Int64: StoredRecord] = [:]
        for branch in branches {
            for record in try scanCellsBranch(of: fields, branch) { merged[record.seq] = record }
        }
        return merged.values.sorted { $0.seq < $1.seq }
    }

    private func scanCellsBranch(of fields: [FieldSchema], _ conditions: [CandidateCondition]) throws -> [StoredRecord] {
        let stored = fields.filter { !$0.type.isComputed }
        var sql = "SELECT seq, id, created_ms, modified_ms"
        for field in stored { sql += ", " + BaseFile.cellExpression(field.id) }
        sql += " FROM \(try source(for: conditions)) WHERE 1"
        var values: [SQLiteValue] = []
        CandidateCondition.append(conditions, to: &sql, values: &values)
        var records: [StoredRecord] = []
        try file.connection.query(sql + " ORDER BY seq", values) { row in
            var cells: [String: JSONValue] = [:]
            for (index, field) in stored.enumerated() {
                if let value = Self.extracted(row, column: Int32(4 + index), type: field.type) { cells[field.id] = value }
            }
            records.append(StoredRecord(seq: row.int64(0), id: row.text(1) ?? "", createdMillis: row.int64(2),
                                        modifiedMillis: row.int64(3), cells: cells))
        }
        return records
    }

    /// A json_extract result as the cell it came from: arrays come back as JSON text, booleans as 0/1.
    private static func extracted(_ row: SQLiteStatement, column: Int32, type: FieldType) -> JSONValue? {
        if row.isNull(column) { return nil }
        switch type {
        case .multipleSelects, .multipleAttachments, .multipleRecordLinks, .singleCollaborator, .multipleCollaborators,
            .barcode:
            return row.text(column).flatMap { try? JSONParser.parse($0) }
        case .checkbox:
            return .bool(row.int64(column) != 0)
        default:
            if row.isText(column) { return row.text(column).map(JSONValue.string) }
            return .number(row.double(column))
        }
    }

    /// A row as this reading builds it: its cells by field id (only `cellsRead`), or its record's fields.
    private func read(_ row: SQLiteStatement) throws -> StoredRecord {
        try Self.read(row, keeping: cellsRead, outputNames: outputNames)
    }

    /// A stored row: its cells by field id (only those in `keeping`, when given), or, with `outputNames`, its
    /// record's fields under those names (`StoredRecord.cellsAreOutput`).
    static func read(_ row: SQLiteStatement, keeping: Set<String>? = nil, outputNames: JSONMemberNames? = nil) throws
        -> StoredRecord
    {
        let id = row.text(1) ?? ""
        let text = row.text(4) ?? "{}"
        let cells: [String: JSONValue]
        do {
            if let outputNames {
                cells = try JSONParser.parseObject(text, renaming: outputNames, droppingEmptyCells: true)
            } else if keeping != nil || text.utf8.first == UInt8(ascii: "{") {
                // Room for a record's cells made once (a shop record has about twenty).
                cells = try JSONParser.parseObject(text, keeping: keeping, capacity: keeping?.count ?? 24)
            } else {
                cells = try JSONParser.parse(text).objectValue ?? [:]
            }
        } catch {
            throw SQLiteError(code: 11, message: "record \(id) has unreadable cells: \(error)", sql: nil)
        }
        return StoredRecord(seq: row.int64(0), id: id, createdMillis: row.int64(2), modifiedMillis: row.int64(3),
                            cells: cells, cellsAreOutput: outputNames != nil)
    }
}
