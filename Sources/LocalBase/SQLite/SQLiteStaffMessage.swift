import CSQLite
import Foundation

extension SQLiteError {
    /// One sentence for the person at the counter: what is wrong with the store file and what to do,
    /// never the SQL that was running (that goes to `SQLiteDebugLog`).
    func staffSentence(path: String) -> String {
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return "the store \(path) is damaged and was not changed; run `drinkshop check --db \(path)` for details "
                + "and `drinkshop recover --db \(path) --into NEW.sqlite` to copy every readable order into a new store"
        case SQLITE_READONLY:
            return "the store \(path) is read-only (no permission to write the file or its folder): the menu and "
                + "orders can be shown, but nothing can be changed; ask whoever runs this computer for write access"
        case SQLITE_FULL:
            return "the disk holding the store \(path) is full; nothing was written: free some space and try again"
        case SQLITE_IOERR:
            return "the store \(path) could not be read or written (a disk error); nothing was written"
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH:
            return "the store \(path) cannot be opened (its folder is missing or there is no permission)"
        case SQLITE_NOMEM:
            return "the computer ran out of memory working on the store \(path); nothing was written"
        default:
            return "the store \(path) failed (SQLite code \(code)); nothing was written. "
                + "Set DRINKSHOP_DEBUG_LOG=FILE to record the details for support"
        }
    }
}

/// Where the details of SQLite failures go (the SQL that ran, SQLite's message): the file named by
/// `DRINKSHOP_DEBUG_LOG`, if set. Staff only ever see `staffSentence`.
enum SQLiteDebugLog {
    static func record(_ error: SQLiteError, path: String) {
        guard let log = ProcessInfo.processInfo.environment["DRINKSHOP_DEBUG_LOG"], !log.isEmpty else { return }
        let line = "\(Date()) \(path): \(error.description)\n"
        guard let handle = FileHandle(forWritingAtPath: log)
            ?? (FileManager.default.createFile(atPath: log, contents: nil) ? FileHandle(forWritingAtPath: log) : nil)
        else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(line.utf8))
    }
}
