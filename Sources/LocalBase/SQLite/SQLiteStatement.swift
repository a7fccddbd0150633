import CSQLite

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs at once, so the Swift buffer may go away.
/// The C macro is not imported, hence the cast.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One prepared statement. It finalizes itself when released; its connection outlives it because the
/// connection's cache owns every statement it hands out.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private let database: OpaquePointer

    init(database: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sql.withCString { text in
            sqlite3_prepare_v2(database, text, Int32(sql.utf8.count), &statement, nil)
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(statement)
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database)), sql: sql)
        }
        guard let statement else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "the SQL holds no statement", sql: sql)
        }
        self.handle = statement
        self.sql = sql
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Clears the previous run and binds `values` to the parameters `?1`, `?2`, ... in order.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null:
                code = sqlite3_bind_null(handle, index)
            case .integer(let number):
                code = sqlite3_bind_int64(handle, index, number)
            case .real(let number):
                code = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // An explicit byte count keeps embedded NULs; -1 would stop at the first one.
                code = text.withCString { sqlite3_bind_text(handle, index, $0, Int32(text.utf8.count), sqliteTransient) }
            case .blob(let bytes):
                code = bytes.isEmpty
                    ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes {
                        sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), sqliteTransient)
                    }
            }
            guard code == SQLITE_OK else { throw error(code) }
        }
    }

    /// Runs one step: true when a row is ready to read, false when the statement is done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = error(code)
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// Lets go of the statement's read lock and bound values once a caller has what it needs.
    func finish() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    func isText(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_TEXT }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The column as UTF-8 text; nil when it is NULL.
    func text(_ column: Int32) -> String? {
        // sqlite3.h: call column_text first, then column_bytes, for a byte count that matches the text.
        guard let pointer = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column as raw bytes (a copy); empty for NULL or an empty blob.
    func bytes(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: String(cString: sqlite3_errmsg(database)), sql: sql)
    }
}
