import Airtable
import AirtableFormula
import CSQLite
import Foundation

/// What `LocalBase.recover` copied.
public struct BaseRecoveryReport: Sendable, Equatable {
    /// Records copied, and records that could not be read (on a damaged page), over all tables.
    public var recordsCopied = 0
    public var recordsLost = 0
    /// Tables whose records could be listed; a table whose every page is unreadable counts as lost.
    public var tablesCopied = 0
    public var tablesLost: [String] = []
    /// Cells whose stored value was damaged: their records are copied with the other cells, these left empty.
    public var damagedCells: [DamagedCell] = []
}

/// A cell that could not be read: the table and field by name (their ids if the schema does not name
/// them), and the record's id. No field: none of the record's cells could be told apart, so all are empty.
public struct DamagedCell: Sendable, Equatable {
    public var table: String
    public var record: String
    public var field: String?

    public init(table: String, record: String, field: String?) {
        self.table = table
        self.record = record
        self.field = field
    }
}

extension LocalBase {
    /// SQLite's own check of every page of the file: `PRAGMA quick_check` (fast, catches damaged pages
    /// and b-trees), or `PRAGMA integrity_check` when `thorough` (also checks indexes against tables).
    /// Empty when the file is sound; otherwise SQLite's findings, at most `limit` of them.
    public func integrityProblems(thorough: Bool = false, limit: Int = 20) async throws(AirtableError) -> [String] {
        try await perform { context in
            try Self.checkPages(of: context.file.connection, thorough: thorough, limit: limit)
        }
    }

    /// `integrityProblems` for a file that is not open: opened read-only, so checking never writes, never
    /// creates a missing file and works on a file this process may not write. Blocking: call it off the
    /// cooperative pool.
    public static func integrityProblems(ofFileAt path: String, thorough: Bool = true, limit: Int = 20)
        throws(AirtableError) -> [String]
    {
        guard FileManager.default.fileExists(atPath: path) else { throw .localStore("there is no store at \(path)") }
        do {
            let connection = try SQLiteConnection.openForReading(path: path)
            return try checkPages(of: connection, thorough: thorough, limit: limit)
        } catch {
            throw airtableError(error, path: path)
        }
    }

    /// The check's findings; a check that stops on a damaged page reports that as its finding.
    static func checkPages(of connection: SQLiteConnection, thorough: Bool, limit: Int) throws -> [String] {
        var findings: [String] = []
        do {
            try connection.query("PRAGMA \(thorough ? "integrity_check" : "quick_check")(\(max(limit, 1)))") {
                findings.append($0.text(0) ?? "")
            }
        } catch let error as SQLiteError where error.isDamageFoundByCheck {
            return findings + [error.message]
        }
        return findings == ["ok"] ? [] : findings
    }

    /// Copies every record that can still be read from the base at `damaged` into a new base at
    /// `destination` (which must not exist yet): the schema, the base id, the records with their ids,
    /// creation times and cells, and the indexes. `damaged` is opened read-only and never written.
    ///
    /// Records are read one by one by their sequence number, so a damaged page costs only the records on
    /// it. Blocking: call it off the cooperative pool.
    public static func recover(from damaged: String, into destination: String) throws(AirtableError) -> BaseRecoveryReport {
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw .localStore("\(destination) already exists; recovery writes only into a new file")
        }
        do {
            let source = try SQLiteConnection.openForReading(path: damaged)
            var schemaRows: [(type: String, name: String, sql: String)] = []
            try source.query("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL") {
                schemaRows.append(($0.text(0) ?? "", $0.text(1) ?? "", $0.text(2) ?? ""))
            }
            var meta: [(String, String)] = []
            try source.query("SELECT key, value FROM base_meta") { meta.append(($0.text(0) ?? "", $0.text(1) ?? "")) }
            let version = try source.integerValue("PRAGMA user_version") ?? 0
            // Names for the report of damaged cells; without a readable schema, the ids stand in.
            let schema = meta.first { $0.0 == "schema" }.flatMap { try? BaseSchema(json: try JSONParser.parse($0.1)) }

            let target = try SQLiteConnection(path: destination)
            _ = try target.textValue("PRAGMA journal_mode = WAL")
            try target.execute("PRAGMA synchronous = FULL")
            var report = BaseRecoveryReport()
            try target.writeTransaction {
                for row in schemaRows where row.type == "table" && !row.name.hasPrefix("sqlite_") {
                    try target.execute(row.sql)
                }
                try target.execute("PRAGMA user_version = \(version)")
                for (key, value) in meta {
                    try target.run("INSERT INTO base_meta(key, value) VALUES (?1, ?2)", [.text(key), .text(value)])
                }
                for row in schemaRows where row.type == "table" && row.name.hasPrefix("records_") {
                    let table = schema?.tables.first { "records_" + $0.id == row.name }
                    try copyRecords(table: row.name, schema: table, from: source, to: target, report: &report)
                }
                for row in schemaRows where row.type == "index" {
                    try target.execute(row.sql)
                }
            }
            return report
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw airtableError(error, path: damaged)
        }
    }

    /// Copies one records table row by row; a row on a damaged page is counted as lost, a row whose cells'
    /// JSON is damaged is copied with the cells that can still be read (`CellSalvage`).
    private static func copyRecords(table name: String, schema: TableSchema?, from source: SQLiteConnection,
                                    to target: SQLiteConnection, report: inout BaseRecoveryReport) throws {
        let table = "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        // The highest sequence number ever given: from sqlite_sequence, else the table's own maximum.
        let highest = (try? source.integerValue("SELECT seq FROM sqlite_sequence WHERE name = ?1", [.text(name)]))
            .flatMap { $0 } ?? (try? source.integerValue("SELECT max(seq) FROM \(table)")).flatMap { $0 }
        guard let highest else {
            report.tablesLost.append(name)
            return
        }
        report.tablesCopied += 1
        let insert = "INSERT INTO \(table)(seq, id, created_ms, modified_ms, cells) VALUES (?1, ?2, ?3, ?4, ?5)"
        // The indexes are b-trees of their own: a record they list that cannot be found in the table
        // was on a damaged page, and is counted as lost rather than silently missing.
        var listed = Set<Int64>()
        for index in ["sqlite_autoindex_\(name)_1", "created_\(name.dropFirst("records_".count))"] {
            try? source.query("SELECT seq FROM \(table) INDEXED BY \"\(index)\"") { listed.insert($0.int64(0)) }
        }
        var copied = Set<Int64>()
        var unreadable = Set<Int64>()
        var sequence: Int64 = 1
        while sequence <= highest {
            do {
                var row: [SQLiteValue]?
                var damaged: CellSalvage?
                try source.query("SELECT seq, id, created_ms, modified_ms, cells, json_valid(cells) FROM \(table) WHERE seq = ?1",
                                 [.integer(sequence)]) { statement in
                    var cells = statement.text(4) ?? "{}"
                    if statement.int64(5) == 0 {
                        let salvage = CellSalvage(cells)
                        cells = JSONWriter.string(.object(salvage.kept))
                        damaged = salvage
                    }
                    row = [.integer(statement.int64(0)), .text(statement.text(1) ?? ""), .integer(statement.int64(2)),
                           .integer(statement.int64(3)), .text(cells)]
                }
                if let row {
                    if let damaged, case .text(let record) = row[1] {
                        let table = schema?.name ?? String(name.dropFirst("records_".count))
                        let fields = damaged.nothingReadable ? [nil] : damaged.damagedFields.map { id in
                            Optional(schema?.fields.first { $0.id == id }?.name ?? id)
                        }
                        report.damagedCells += fields.map { DamagedCell(table: table, record: record, field: $0) }
                    }
                    try target.run(insert, row)
                    copied.insert(sequence)
                }
            } catch let error as SQLiteError where error.isDamageFoundByCheck {
                unreadable.insert(sequence)
            }
            sequence += 1
        }
        report.recordsCopied += copied.count
        report.recordsLost += unreadable.union(listed.subtracting(copied)).count
        // Numbers once given are never given again, in the new file too.
        try target.run("UPDATE sqlite_sequence SET seq = ?2 WHERE name = ?1", [.text(name), .integer(highest)])
        if target.changes == 0 {
            try target.run("INSERT INTO sqlite_sequence(name, seq) VALUES (?1, ?2)", [.text(name), .integer(highest)])
        }
    }
}

extension SQLiteError {
    /// The file is damaged (as opposed to locked, full or refused): SQLITE_CORRUPT, SQLITE_NOTADB.
    var isDamage: Bool { [SQLITE_CORRUPT, SQLITE_NOTADB].contains(code & 0xFF) }

    /// A failure of one of the check's or the recovery's own statements that shows damage: `isDamage`, or a
    /// plain SQLITE_ERROR, which those fixed, valid statements raise only for the file's content (a damaged
    /// cell met while working out an index over the cells' JSON). Decided by the code, never SQLite's message.
    var isDamageFoundByCheck: Bool { isDamage || code & 0xFF == SQLITE_ERROR }
}
