import Airtable
import Dispatch
import Foundation
import Glibc
import Synchronization

/// Commits made durable apart from the commit, for a process that tells nobody of a change before `makeDurable`
/// returns: a piped REPL acknowledges each command only then, so its next command's work goes on while the disk
/// syncs the last one's (`DurableAcknowledgements` in ShopREPL).
extension LocalBase: DurableOnDemand {
    /// From now on a commit returns once its pages are in the WAL, before they are on the disk (SQLite's
    /// `synchronous=NORMAL`): still all or nothing, and kept through a crash of the process, but a power cut may
    /// lose the commits since the last `makeDurable`. Every commit made before a `makeDurable` call is on the disk
    /// when it returns (the WAL is synced, as `synchronous=FULL` does at every commit).
    /// - Returns: whether commits are now deferred; false for a base in memory or a file opened for reading only.
    public func deferDurability() async throws(AirtableError) -> Bool {
        guard path != ":memory:", !path.isEmpty else { return false }
        let deferred = try await perform { context -> Bool in
            let connection = context.file.connection
            guard !connection.isReadOnly, try connection.textValue("PRAGMA journal_mode")?.lowercased() == "wal" else { return false }
            try connection.execute("PRAGMA synchronous = NORMAL")
            return true
        }
        if deferred { durability.defer() }
        return deferred
    }

    /// Returns once every commit this base made before the call is on the disk; at once when commits wait for the
    /// disk themselves (the default). Runs the sync on a thread of its own, off the cooperative pool.
    public func makeDurable() async throws(AirtableError) {
        guard durability.isDeferred else { return }
        if DedicatedThreadExecutor.mayWaitHere { return try durability.syncNow() }
        let durability = durability
        let result: Result<Void, AirtableError> = await withCheckedContinuation { continuation in
            DeferredSync.queue.async { continuation.resume(returning: Result { () throws(AirtableError) in try durability.syncNow() }) }
        }
        try result.get()
    }

    /// `makeDurable` for a caller on a thread of its own that may wait (blocking).
    public func makeDurableWaiting() throws(AirtableError) {
        try durability.syncNow()
    }

    /// How many times the WAL was synced by `makeDurable` (for tests and benches).
    public var durableSyncs: Int { durability.syncs }
}

/// The WAL sync of a base whose commits do not wait for the disk: one `fdatasync` covers every commit written
/// before it started, so callers that find the commits they need already covered do not sync again.
final class DeferredSync: Sendable {
    /// Where syncs asked from the cooperative pool run.
    static let queue = DispatchQueue(label: "LocalBase durability", attributes: .concurrent)

    private let path: String
    private let commits: CommitTally
    private let deferred = Atomic<Bool>(false)
    /// The commits known to be on the disk; held while a sync runs, so a second caller waits for it and then
    /// finds its commits covered.
    private let synced = Mutex<Int>(0)
    private let syncCount = Atomic<Int>(0)

    init(path: String, commits: CommitTally) {
        self.path = path
        self.commits = commits
    }

    func `defer`() { deferred.store(true, ordering: .releasing) }
    var isDeferred: Bool { deferred.load(ordering: .acquiring) }
    var syncs: Int { syncCount.load(ordering: .relaxed) }

    /// Blocking: syncs the WAL unless every commit counted now is on the disk already.
    func syncNow() throws(AirtableError) {
        guard isDeferred else { return }
        let wanted = commits.value
        try synced.withLock { (done: inout Int) throws(AirtableError) in
            guard done < wanted else { return }
            try Self.sync(wal: path + "-wal", database: path)
            syncCount.add(1, ordering: .relaxed)
            done = max(done, wanted)
        }
    }

    /// `fdatasync` of the WAL file (any descriptor of a file syncs what every writer of it wrote); with no WAL
    /// file (checkpointed and removed), of the database itself.
    private static func sync(wal: String, database: String) throws(AirtableError) {
        var descriptor = open(wal, O_RDONLY | O_CLOEXEC)
        var synced = wal
        if descriptor < 0, errno == ENOENT {
            descriptor = open(database, O_RDONLY | O_CLOEXEC)
            synced = database
        }
        guard descriptor >= 0 else { throw failure(database, "\(synced) cannot be opened", errno) }
        defer { close(descriptor) }
        var result: Int32
        repeat { result = fdatasync(descriptor) } while result != 0 && errno == EINTR
        guard result == 0 else { throw failure(database, "fdatasync of \(synced) failed", errno) }
    }

    private static func failure(_ database: String, _ what: String, _ code: Int32) -> AirtableError {
        .localStore("the local base \(database): its last changes could not be made durable (\(what): \(String(cString: strerror(code))))")
    }
}
