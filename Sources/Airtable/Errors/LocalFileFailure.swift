/// A store file on this machine that failed, by what went wrong (`AirtableError.localFile`). The store
/// says what happened to the file; whoever shows it to a person adds what to do next (a program's own
/// commands), deciding by `problem`, never by the text.
public struct LocalFileFailure: Sendable, Hashable, CustomStringConvertible {
    public enum Problem: Sendable, Hashable {
        /// The file's pages do not hold together (SQLite's "corrupt" or "not a database").
        case damaged
        /// No permission to write the file or its folder.
        case readOnly
        /// The disk is full.
        case full
        /// The disk failed a read or a write.
        case diskError
        /// The file cannot be opened (its folder is missing, or no permission).
        case cannotOpen
        case outOfMemory
        /// Any other failure, with SQLite's result code (the details go to the store's debug log).
        case failed(code: Int32)
    }

    /// The file.
    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// One sentence for the person at the counter: what happened to the file, never the SQL that ran.
    public var description: String {
        switch problem {
        case .damaged: "the store \(path) is damaged and was not changed"
        case .readOnly:
            "the store \(path) is read-only (no permission to write the file or its folder): it can be read, but nothing "
                + "can be changed; ask whoever runs this computer for write access"
        case .full: "the disk holding the store \(path) is full; nothing was written: free some space and try again"
        case .diskError: "the store \(path) could not be read or written (a disk error); nothing was written"
        case .cannotOpen: "the store \(path) cannot be opened (its folder is missing or there is no permission)"
        case .outOfMemory: "the computer ran out of memory working on the store \(path); nothing was written"
        case .failed(let code): "the store \(path) failed (SQLite code \(code)); nothing was written"
        }
    }
}
