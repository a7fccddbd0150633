import Airtable
import AirtableFormula
import Foundation
import Glibc

/// The SQLite file of one base: its metadata rows (base id, schema JSON, schema generation) and one
/// SQL table of records per Airtable table.
///
/// Layout: `base_meta(key, value)` holds `baseID`, `schema` (Airtable's metadata JSON for the base) and
/// `generation` (bumped on every schema change, so another process's change is noticed). Each Airtable
/// table `tblX` has `"records_tblX"(seq, id, created_ms, modified_ms, cells)`: `seq` is an
/// AUTOINCREMENT key, so it grows in commit order and is never reused, which makes it both the
/// creation order and the autoNumber value; `cells` is a JSON object keyed by field id.
final class BaseFile {
    /// The file format this code reads and writes (`PRAGMA user_version`).
    static let formatVersion: Int64 = 1

    let connection: SQLiteConnection
    let path: String
    private(set) var baseID = ""

    init(path: String) throws {
        self.path = path
        connection = try Self.connect(path: path)
        // Set first, so that everything after (the WAL switch included) waits for another process's lock
        // instead of failing at once.
        try connection.execute("PRAGMA busy_timeout = 10000")
        // Statement journals and sorts stay in memory: a temporary file for each (SQLite's default)
        // cost an open, an unlink and a close every few orders.
        try connection.execute("PRAGMA temp_store = MEMORY")
        // The start check reads every page only of small files (`startProblems`): SQLite's stricter check
        // of each page as it is read makes a write that meets a damaged page fail before it commits.
        try connection.execute("PRAGMA cell_size_check = ON")
        // 1 MiB of page cache (SQLite's default is 2 MiB): a month's export streams its pages once, and
        // the cache was most of what it added to the process's peak memory.
        try connection.execute("PRAGMA cache_size = -1024")
        // A file this process may not write is read as it is: setting WAL would be a write.
        if connection.isReadOnly {
            try connection.readTransaction { try bootstrap(readOnly: true) }
            return
        }
        let mode = try Self.switchToWAL(connection)
        let inMemory = path == ":memory:" || path.isEmpty
        guard mode == "wal" || (inMemory && mode == "memory") else {
            throw SQLiteError(code: 1, message: "cannot switch \(path) to WAL mode (journal mode is \(mode ?? "unknown"))",
                              sql: "PRAGMA journal_mode = WAL")
        }
        // FULL: a transaction that has committed survives a power cut, not just a crash of the process.
        try connection.execute("PRAGMA synchronous = FULL")
        try connection.writeTransaction { try bootstrap(readOnly: false) }
    }

    /// Switches the file to WAL. On a new file another process may be doing the same at this moment; SQLite
    /// then answers busy at once (its busy handler is not called for this), so it is tried again for a
    /// few seconds. Blocking: `LocalBase` is opened off the cooperative pool.
    private static func switchToWAL(_ connection: SQLiteConnection) throws -> String? {
        for _ in 0..<200 {
            do {
                return try connection.textValue("PRAGMA journal_mode = WAL")?.lowercased()
            } catch {
                guard error.isBusy else { throw error }
            }
            usleep(25_000)
        }
        return try connection.textValue("PRAGMA journal_mode = WAL")?.lowercased()
    }

    /// The connection to `path`. A file this process may not write, in a folder it may not write either,
    /// is read as immutable: SQLite could not otherwise read a WAL file there.
    private static func connect(path: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path)
        guard connection.isReadOnly else { return connection }
        do {
            _ = try connection.integerValue("PRAGMA user_version")
            return connection
        } catch let error where error.code & 0xFF == 8 {  // SQLITE_READONLY (CANTINIT, RECOVERY)
            return try SQLiteConnection(path: path, immutable: true)
        }
    }

    /// Creates the metadata table and a base id in a new file; checks the format of an existing one.
    private func bootstrap(readOnly: Bool) throws {
        do {
            let version = try connection.integerValue("PRAGMA user_version") ?? 0
            let hasMeta = try connection.integerValue(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'base_meta'") ?? 0
            if version == 0 && hasMeta == 0 {
                let tables = try connection.integerValue("SELECT count(*) FROM sqlite_master") ?? 0
                guard tables == 0 else {
                    throw LocalBaseFileError.notALocalBase(path: path, detail: "it already holds other SQLite tables")
                }
                guard !readOnly else {
                    throw LocalBaseFileError.notALocalBase(path: path, detail: "it is empty and may not be written")
                }
                try connection.execute("""
                    CREATE TABLE base_meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                    PRAGMA user_version = \(Self.formatVersion);
                    """)
                try setMeta("baseID", AirtableID.make("app"))
                try setMeta("schema", JSONWriter.string(BaseSchema(tables: []).json))
                try setMeta("generation", "0")
            } else if version != Self.formatVersion {
                throw LocalBaseFileError.notALocalBase(
                    path: path, detail: "its format version is \(version), this program reads \(Self.formatVersion)")
            }
            guard let id = try meta("baseID") else {
                throw LocalBaseFileError.notALocalBase(path: path, detail: "it has no base id")
            }
            baseID = id
        }
    }

    // MARK: Metadata

    func meta(_ key: String) throws -> String? {
        try connection.textValue("SELECT value FROM base_meta WHERE key = ?1", [.text(key)])
    }

    func setMeta(_ key: String, _ value: String) throws {
        try connection.run("INSERT OR REPLACE INTO base_meta(key, value) VALUES (?1, ?2)", [.text(key), .text(value)])
    }

    /// The schema generation: it changes whenever any process changes the schema.
    func schemaGeneration() throws -> Int64 {
        // Asked before almost every call; in a write transaction only this connection can change it.
        try connection.memoizedInWrite("generation") { Int64(try meta("generation") ?? "0") ?? 0 }
    }

    func loadSchema() throws -> BaseSchema {
        guard let text = try meta("schema") else {
            throw LocalBaseFileError.notALocalBase(path: path, detail: "it has no schema")
        }
        do {
            return try BaseSchema(json: try JSONParser.parse(text))
        } catch {
            throw LocalBaseFileError.notALocalBase(path: path, detail: "its schema cannot be read: \(error)")
        }
    }

    /// Writes the schema and bumps the generation. Call inside a write transaction.
    func saveSchema(_ schema: BaseSchema) throws {
        try setMeta("schema", JSONWriter.string(schema.storedJSON))
        let generation = try schemaGeneration() + 1
        try setMeta("generation", String(generation))
        connection.setMemo("generation", generation)
    }

    // MARK: Record tables

    /// The SQL name of the records of table `tableID`; ids are base62, so quoting is all it needs.
    static func recordTable(_ tableID: String) -> String { "\"records_\(tableID)\"" }

    func createRecordTable(_ tableID: String) throws {
        try connection.execute("""
            CREATE TABLE \(Self.recordTable(tableID)) (
                seq INTEGER PRIMARY KEY AUTOINCREMENT,
                id TEXT NOT NULL UNIQUE,
                created_ms INTEGER NOT NULL,
                modified_ms INTEGER NOT NULL,
                cells TEXT NOT NULL
            )
            """)
        // Made with the table, not on first use: listing "today's records" must not write to the file
        // (a refused command leaves the store byte-identical).
        try ensureCreatedIndex(tableID: tableID)
    }

    /// Creates, if missing, the expression index on one field's value that filters and upserts use.
    func ensureIndex(tableID: String, fieldID: String) throws {
        try connection.execute("""
            CREATE INDEX IF NOT EXISTS "index_\(tableID)_\(fieldID)"
            ON \(Self.recordTable(tableID)) (\(Self.cellExpression(fieldID)))
            """)
    }

    /// Creates, if missing, the index on creation times that "today's records" filters use.
    func ensureCreatedIndex(tableID: String) throws {
        try connection.execute("""
            CREATE INDEX IF NOT EXISTS "created_\(tableID)" ON \(Self.recordTable(tableID)) (created_ms)
            """)
    }

    func hasCreatedIndex(tableID: String) throws -> Bool {
        try connection.schemaHas("index", named: "created_\(tableID)")
    }

    /// The SQL expression of a field's stored value; the same text in index and query lets SQLite use
    /// the index.
    static func cellExpression(_ fieldID: String) -> String { "json_extract(cells, '$.\(fieldID)')" }

    /// Whether the expression index of this field exists.
    func hasIndex(tableID: String, fieldID: String) throws -> Bool {
        try connection.schemaHas("index", named: "index_\(tableID)_\(fieldID)")
    }
}

/// A file that is not a base this program can open.
enum LocalBaseFileError: Error, CustomStringConvertible {
    case notALocalBase(path: String, detail: String)

    var description: String {
        switch self {
        case .notALocalBase(let path, let detail): return "\(path) is not a local base: \(detail)"
        }
    }
}
