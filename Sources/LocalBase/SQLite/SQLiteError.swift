import CSQLite

/// A failed SQLite call: the result code, SQLite's own message for it (`sqlite3_errmsg`) and the SQL
/// that was running, so a log line says exactly what went wrong where.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var sql: String?

    var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " (while running: \(sql.prefix(200)))" }
        return text
    }

    /// Whether another connection held the lock for longer than the busy timeout.
    var isBusy: Bool { code & 0xFF == SQLITE_BUSY || code & 0xFF == SQLITE_LOCKED }
}
