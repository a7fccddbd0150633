import CSQLite
import Foundation
import Glibc
import Synchronization

/// How many write transactions a connection has committed: read from any thread (a store whose commits are made
/// durable apart, `LocalBase.deferDurability`, syncs up to a count).
final class CommitTally: Sendable {
    private let count = Atomic<Int>(0)

    func add() { count.add(1, ordering: .releasing) }
    var value: Int { count.load(ordering: .acquiring) }
}

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe by itself (it is opened with `SQLITE_OPEN_NOMUTEX`): its owner serializes every
/// call, which `LocalBase` does with its own serial queue.
final class SQLiteConnection {
    private let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]
    /// Statements built with field ids in them vary per table and field; the cache is bounded so a long
    /// life of schema changes cannot grow it without end.
    private let cacheLimit = 256
    /// The write transactions this connection committed (savepoints inside one are not counted).
    let commits = CommitTally()

    /// Opens (creating if needed) the database at `path`; `":memory:"` opens a private in-memory one.
    /// `readOnly` opens an existing file for reading only (never creating, never checkpointing into it).
    /// `immutable` reads a file nobody may write here, in a folder nobody may write either (SQLite then
    /// cannot make the shared-memory file a WAL reader needs; see "immutable" in SQLite's URI docs).
    init(path: String, readOnly: Bool = false, immutable: Bool = false) throws(SQLiteError) {
        var database: OpaquePointer?
        let flags = immutable ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX
            : readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
            : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let name = immutable ? "file:" + Self.uriEscaped(path) + "?immutable=1" : path
        if !readOnly && !immutable { Self.createPrivately(path) }
        let code = sqlite3_open_v2(name, &database, flags, nil)
        guard code == SQLITE_OK, let database else {
            // SQLite allocates a handle even when opening fails; it must be closed all the same.
            let message = database.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(database)
            throw SQLiteError(code: code, message: "cannot open \(path): \(message)", sql: nil)
        }
        self.handle = database
        sqlite3_extended_result_codes(database, 1)
    }

    /// A new database file is made here, empty and readable by its owner alone (0600, whatever the umask),
    /// before SQLite opens it: SQLite gives its -wal and -shm files the database's own mode, so they are
    /// private too. A store holds PIN hashes and customers' numbers. An existing file is left as it is.
    private static func createPrivately(_ path: String) {
        guard path != ":memory:", !path.isEmpty, !path.hasPrefix("file:") else { return }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        if descriptor >= 0 { close(descriptor) }
    }

    /// An existing file opened for reading only; in a folder this process may not write (where SQLite
    /// cannot make a WAL reader's shared-memory file), opened as immutable.
    static func openForReading(path: String) throws(SQLiteError) -> SQLiteConnection {
        let connection = try SQLiteConnection(path: path, readOnly: true)
        do {
            _ = try connection.integerValue("PRAGMA user_version")
            return connection
        } catch where error.code & 0xFF == 8 {  // SQLITE_READONLY (CANTINIT, RECOVERY)
            return try SQLiteConnection(path: path, immutable: true)
        }
    }

    /// A path as the path of a `file:` URI: the characters URIs give meaning to are percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            if byte == UInt8(ascii: "%") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || byte < 0x21 {
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                escaped += String(decoding: [byte], as: UTF8.self)
            }
        }
        return escaped
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that may hold several statements and returns no rows (DDL, pragmas that only set).
    func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: code, message: text, sql: sql)
        }
    }

    /// The cached prepared statement for `sql`, preparing it on first use.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let prepared = try SQLiteStatement(database: handle, sql: sql)
        if statements.count >= cacheLimit { statements.removeAll(keepingCapacity: true) }
        statements[sql] = prepared
        return prepared
    }

    /// Runs one statement that returns no rows.
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        let statement = try statement(sql)
        try statement.bind(values)
        defer { statement.finish() }
        while try statement.step() {}
    }

    /// Runs one query and hands each row to `row`.
    func query(_ sql: String, _ values: [SQLiteValue] = [], row: (SQLiteStatement) throws -> Void) throws {
        let statement = try statement(sql)
        try statement.bind(values)
        defer { statement.finish() }
        while try statement.step() { try row(statement) }
    }

    /// The first column of the first row as text, if any.
    func textValue(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> String? {
        let statement = try statement(sql)
        try statement.bind(values)
        defer { statement.finish() }
        return try statement.step() ? statement.text(0) : nil
    }

    /// The first column of the first row as an integer, if any row.
    func integerValue(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        let statement = try statement(sql)
        try statement.bind(values)
        defer { statement.finish() }
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Whether the file has a schema object (`table`, `index`…) of this name. Asked by every write (an
    /// index to read through, the webhook tables), so the names are read from `sqlite_master` (a scan
    /// of every row) only when SQLite's schema cookie, which every schema change of any connection
    /// bumps, is not the one they were read at, or a write of this connection was undone since.
    func schemaHas(_ type: String, named name: String) throws(SQLiteError) -> Bool {
        // The cookie first: names read after it are at least as new, never older than it says.
        let cookie = try integerValue("PRAGMA schema_version") ?? 0
        if schemaNames?.cookie != cookie {
            let statement = try statement("SELECT type, name FROM sqlite_master")
            defer { statement.finish() }
            var names = Set<String>()
            while try statement.step() { names.insert((statement.text(0) ?? "") + " " + (statement.text(1) ?? "")) }
            schemaNames = (cookie, names)
        }
        return schemaNames?.names.contains(type + " " + name) ?? false
    }

    /// The names of `schemaHas`, with the schema cookie they were read at.
    private var schemaNames: (cookie: Int64, names: Set<String>)?

    /// Whether SQLite opened the file read-only (no permission to write it), so nothing may be written.
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last row this connection inserted.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a write transaction taken with `BEGIN IMMEDIATE`, so the write lock is held from
    /// the start (a deferred read-to-write upgrade fails with SQLITE_BUSY without waiting). Commits when
    /// `body` returns, rolls back when it throws: all of it or none of it.
    func writeTransaction<T>(_ body: () throws -> T) throws -> T {
        // Inside a transaction already (a group commit), this write is a savepoint of it: it still
        // applies wholly or not at all, and the enclosing transaction commits it durably.
        if writeDepth > 0 {
            let name = "write\(writeDepth)"
            try run("SAVEPOINT \(name)")
            writeDepth += 1
            defer { writeDepth -= 1 }
            do {
                let result = try body()
                try run("RELEASE \(name)")
                return result
            } catch {
                // What the savepoint changed is undone, and with it anything it taught the memo.
                writeMemo = [:]
                schemaNames = nil
                try? run("ROLLBACK TO \(name)")
                try? run("RELEASE \(name)")
                throw error
            }
        }
        try run("BEGIN IMMEDIATE")
        writeDepth = 1
        writeMemo = [:]
        defer {
            writeDepth = 0
            writeMemo = [:]
        }
        do {
            let result = try body()
            try run("COMMIT")
            commits.add()
            return result
        } catch {
            try? run("ROLLBACK")
            // A schema change undone leaves the cookie where it was: the names read since are forgotten.
            schemaNames = nil
            throw error
        }
    }

    /// How deep in write transactions the connection is (0: none).
    private var writeDepth = 0

    /// Answers that hold until the write transaction ends: no other connection can write meanwhile, so
    /// only this one changes them (and forgets or replaces them when it does).
    private var writeMemo: [String: Int64] = [:]

    /// `value` once per write transaction: the first call asks it, later ones in the same transaction
    /// reuse the answer. Outside a write transaction it is asked every time.
    func memoizedInWrite(_ key: String, _ value: () throws -> Int64) rethrows -> Int64 {
        guard writeDepth > 0 else { return try value() }
        if let known = writeMemo[key] { return known }
        let answer = try value()
        writeMemo[key] = answer
        return answer
    }

    /// Replaces (or, with nil, forgets) a memoized answer after this connection changed it.
    func setMemo(_ key: String, _ value: Int64?) {
        if writeDepth > 0 { writeMemo[key] = value }
    }

    /// Runs `body` in a read transaction, so every query in it sees one snapshot of the file. Inside a
    /// write transaction it simply reads what that transaction sees.
    func readTransaction<T>(_ body: () throws -> T) throws -> T {
        if writeDepth > 0 { return try body() }
        try run("BEGIN")
        defer { try? run("COMMIT") }
        return try body()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
