import Airtable
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
                    try copyRecords(table: row.name, from: source, to: target, report: &report)
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

    /// Copies one records table row by row; a row on a damaged page is counted as lost.
    private static func copyRecords(table name: String, from source: SQLiteConnection, to target: SQLiteConnection,
                                    report: inout BaseRecoveryReport) throws {
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
                try source.query("SELECT seq, id, created_ms, modified_ms, cells FROM \(table) WHERE seq = ?1",
                                 [.integer(sequence)]) { statement in
                    row = [.integer(statement.int64(0)), .text(statement.text(1) ?? ""), .integer(statement.int64(2)),
                           .integer(statement.int64(3)), .text(statement.text(4) ?? "{}")]
                }
                if let row {
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
