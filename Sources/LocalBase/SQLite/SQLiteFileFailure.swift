import Airtable
import CSQLite
import Foundation
import Synchronization

extension LocalBase {
    /// Appends the details of every SQLite failure from now on (the SQL that ran, SQLite's message) to the file at
    /// `path`, for support; nil or empty: kept nowhere. The program decides where (an environment variable).
    public static func recordFailureDetails(in path: String?) {
        SQLiteDebugLog.file.withLock { $0 = path }
    }
}

extension SQLiteError {
    /// What happened to the store file, by kind, for the person at the counter (the program that shows it adds
    /// what to do next); never the SQL that was running (that goes to `SQLiteDebugLog`).
    func localFileFailure(path: String) -> LocalFileFailure {
        let problem: LocalFileFailure.Problem
        switch code & 0xFF {
        case SQLITE_CORRUPT, SQLITE_NOTADB: problem = .damaged
        case SQLITE_READONLY: problem = .readOnly
        case SQLITE_FULL: problem = .full
        case SQLITE_IOERR: problem = .diskError
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_AUTH: problem = .cannotOpen
        case SQLITE_NOMEM: problem = .outOfMemory
        default: problem = .failed(code: code)
        }
        return LocalFileFailure(path: path, problem: problem)
    }
}

/// Where the details of SQLite failures go (the SQL that ran, SQLite's message): the file the program named
/// (`LocalBase.recordFailureDetails(in:)`), if any. Staff only ever see `localFileFailure`.
enum SQLiteDebugLog {
    static let file = Mutex<String?>(nil)

    static func record(_ error: SQLiteError, path: String) {
        guard let log = file.withLock({ $0 }), !log.isEmpty else { return }
        let line = "\(Date()) \(path): \(error.description)\n"
        guard let handle = FileHandle(forWritingAtPath: log)
            ?? (FileManager.default.createFile(atPath: log, contents: nil) ? FileHandle(forWritingAtPath: log) : nil)
        else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(line.utf8))
    }
}
