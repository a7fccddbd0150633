import Airtable
import Dispatch
import Foundation
import Synchronization

/// A write waiting for a group commit: `run` does it inside the shared transaction and returns how to
/// answer once the commit is durable; `fail` answers when the commit itself fails.
private struct PendingWrite: Sendable {
    let run: @Sendable (BaseContext) -> (@Sendable () -> Void)
    let fail: @Sendable (AirtableError) -> Void
}

/// The answer to a write drained on the caller's own thread: set inside `queue.sync`, read after it.
private final class Answer<T: Sendable>: Sendable {
    private let value = Mutex<Result<T, AirtableError>?>(nil)

    func set(_ result: Result<T, AirtableError>) {
        value.withLock { $0 = result }
    }

    /// Every drained write was answered (run, or failed with its commit) before the drain returned.
    var result: Result<T, AirtableError> {
        value.withLock { $0 } ?? .failure(.localStore("the local base answered nothing to a write"))
    }
}

/// An Airtable base stored in one SQLite file: tables and fields described by Airtable's own metadata
/// JSON, records with Airtable's ids, cell types, errors, formula filtering, sorting and expiring offsets.
///
/// Every call runs on the base's own serial dispatch queue, off Swift's cooperative thread pool, and is
/// bridged back with a continuation, so a slow disk never stalls other tasks. Several instances (in one
/// process or several) may share a file: writes take SQLite's write lock up front (`BEGIN IMMEDIATE`),
/// wait for each other (busy timeout), and commit durably (WAL with `synchronous=FULL`; or synced apart, before
/// anything tells of the commit, once `deferDurability` is asked: `DeferredDurability.swift`).
public final class LocalBase: SchemaUpdating, CommentStore, WebhookStore, WholeListing, IndexPreparing, @unchecked Sendable {
    // Only `queue` touches `context`: that confinement is what @unchecked Sendable stands for here.
    private let queue: DispatchQueue
    private let context: BaseContext
    private let id: String
    /// Writes waiting for the queue, and whether a drain is already on its way.
    private let pendingWrites = Mutex<(writes: [PendingWrite], draining: Bool)>(([], false))
    /// The file this base lives in (":memory:" for an in-memory base).
    public let path: String
    /// Durable commits of record writes made by this instance (each group commit counts once).
    private let commitCounter = Atomic<Int>(0)
    /// Whether commits wait for the disk, or are made durable apart (`deferDurability`).
    let durability: DeferredSync

    /// How many durable commits this instance has made for record writes: what a write costs the disk
    /// (each one waits for fsync), for tests and benches.
    public var commitCount: Int { commitCounter.load(ordering: .relaxed) }

    /// Opens the base at `path`, creating the file and an empty schema if it is new.
    ///
    /// - Parameters:
    ///   - clock: the time of createdTime, lastModifiedTime and offset expiry (injectable for tests).
    ///   - iteratorLifetime: how long an unused offset stays valid.
    ///   - owner: the name and e-mail the base's owner is made with when the file has no users yet (a
    ///     file that has them keeps its own).
    /// - Throws: `.localStore` when the file cannot be opened or is not a base.
    public init(path: String, clock: @escaping @Sendable () -> Date = Date.init,
                iteratorLifetime: Duration = .seconds(600), owner: OwnerProfile = .placeholder) throws(AirtableError)
    {
        self.path = path
        queue = DispatchQueue(label: "LocalBase \(path)")
        do {
            let file = try BaseFile(path: path)
            id = file.baseID
            context = BaseContext(file: file, clock: clock, iteratorLifetime: iteratorLifetime, ownerProfile: owner)
            durability = DeferredSync(path: path, commits: file.connection.commits)
        } catch {
            throw Self.airtableError(error, path: path)
        }
    }

    /// A base that lives in memory only and vanishes with this object.
    public static func inMemory(clock: @escaping @Sendable () -> Date = Date.init,
                                iteratorLifetime: Duration = .seconds(600),
                                owner: OwnerProfile = .placeholder) throws(AirtableError) -> LocalBase
    {
        try LocalBase(path: ":memory:", clock: clock, iteratorLifetime: iteratorLifetime, owner: owner)
    }

    /// `app` + 14 base62 characters, made once when the file was created and kept in it.
    public var baseID: String { id }

    /// Runs `work` on the base's queue and hands back its result or its error as an AirtableError. A
    /// caller on a thread that may wait (`DedicatedThreadExecutor`) runs it there, in the queue's turn.
    func perform<T: Sendable>(_ work: @escaping @Sendable (BaseContext) throws -> T)
        async throws(AirtableError) -> T
    {
        let run: @Sendable () -> Result<T, AirtableError> = { [context, path] in
            Result { try work(context) }.mapError { Self.airtableError($0, path: path) }
        }
        if DedicatedThreadExecutor.mayWaitHere { return try queue.sync(execute: run).get() }
        let result: Result<T, AirtableError> = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: run()) }
        }
        return try result.get()
    }

    /// Runs a write on the base's queue. Writes that arrive while others wait are committed together
    /// (group commit): one transaction, each write inside it a savepoint that applies wholly or not at
    /// all, one durable commit for them all. Nobody hears "done" before that commit.
    ///
    /// A caller on a thread that may wait (`DedicatedThreadExecutor`) drains the waiting writes itself,
    /// on its own thread in the queue's turn, instead of waiting for the queue to wake and answer.
    func performWrite<T: Sendable>(_ work: @escaping @Sendable (BaseContext) throws -> T)
        async throws(AirtableError) -> T
    {
        if DedicatedThreadExecutor.mayWaitHere {
            let answer = Answer<T>()
            // Marked as draining so no other caller schedules a drain for it: this one drains (or a drain
            // already scheduled does, ahead of this one in the queue).
            pendingWrites.withLock { pending in
                pending.writes.append(pendingWrite(work, answer: answer.set))
                pending.draining = true
            }
            queue.sync { drainWrites() }
            return try answer.result.get()
        }
        let result: Result<T, AirtableError> = await withCheckedContinuation { continuation in
            let write = pendingWrite(work) { continuation.resume(returning: $0) }
            let shouldDrain = pendingWrites.withLock { pending in
                pending.writes.append(write)
                defer { pending.draining = true }
                return !pending.draining
            }
            if shouldDrain { queue.async { [self] in drainWrites() } }
        }
        return try result.get()
    }

    /// `work` as a write waiting for a group commit, which hands `answer` its result once the commit is
    /// durable (or the commit's failure).
    private func pendingWrite<T: Sendable>(_ work: @escaping @Sendable (BaseContext) throws -> T,
                                           answer: @escaping @Sendable (Result<T, AirtableError>) -> Void)
        -> PendingWrite
    {
        let path = path
        return PendingWrite(
            run: { context in
                let result = Result { try work(context) }.mapError { Self.airtableError($0, path: path) }
                return { answer(result) }
            },
            fail: { answer(.failure($0)) })
    }

    /// On the queue: commits every write waiting now, together.
    private func drainWrites() {
        let writes = pendingWrites.withLock { pending in
            defer { pending.writes.removeAll(); pending.draining = false }
            return pending.writes
        }
        guard !writes.isEmpty else { return }
        var finishers: [() -> Void] = []
        do {
            try context.file.connection.writeTransaction {
                for write in writes { finishers.append(write.run(context)) }
            }
        } catch {
            let failure = Self.airtableError(error, path: path)
            for write in writes { write.fail(failure) }
            return
        }
        commitCounter.add(1, ordering: .relaxed)
        for finish in finishers { finish() }
    }

    static func airtableError(_ error: any Error, path: String) -> AirtableError {
        switch error {
        case let error as AirtableError: return error
        case let error as APIError: return .api(error)
        case let error as SQLiteError where error.isBusy:
            SQLiteDebugLog.record(error, path: path)
            return .localStore("the local base \(path) stayed locked by another writer: \(error.message)")
        case let error as SQLiteError:
            // SQL text stays in the debug log; staff read one sentence about the file.
            SQLiteDebugLog.record(error, path: path)
            return .localFile(error.localFileFailure(path: path))
        default: return .localStore("the local base \(path) failed: \(error)")
        }
    }

    // MARK: RecordStore

    public func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        try await perform { try $0.listRecords(in: table, query: query) }
    }

    public func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        try await perform { try $0.getRecord(in: table, id: id, options: options) }
    }

    /// Makes the indexes listings of `table` by `formulas` read through (`IndexPreparing`), as their
    /// first listing would, without reading a record.
    public func prepareIndexes(in table: String, for formulas: [String]) async throws(AirtableError) {
        try await perform { try $0.prepareIndexes(in: table, for: formulas) }
    }

    /// Drops the single-field indexes of `fields` in `table` (`IndexPreparing`): an upgrade's step.
    public func retireIndexes(in table: String, onFields fields: [String]) async throws(AirtableError) {
        try await perform { try $0.retireIndexes(in: table, onFields: fields) }
    }

    /// Drops the creation-time index of `table` (`IndexPreparing`): an upgrade's step.
    public func retireCreatedIndex(in table: String) async throws(AirtableError) {
        try await perform { try $0.retireCreatedIndex(in: table) }
    }

    /// Every matching record from one read of the file (`WholeListing`): what the pages would give, with
    /// no cursor and no hop to the base's thread between them.
    public func listAllRecords(in table: String, query: ListQuery) async throws(AirtableError) -> [Record] {
        try await perform { try $0.listAllRecords(in: table, query: query) }
    }

    public func createRecords(in table: String, _ records: [Fields], options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        try await performWrite { try $0.createRecords(in: table, records, options: options) }
    }

    public func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        try await performWrite { try $0.updateRecords(in: table, updates, replace: replace, options: options) }
    }

    public func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                              options: WriteOptions) async throws(AirtableError) -> UpsertResult
    {
        try await performWrite {
            try $0.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
        }
    }

    public func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        try await performWrite { try $0.deleteRecords(in: table, ids: ids) }
    }

    public func schema() async throws(AirtableError) -> BaseSchema {
        try await perform { try $0.schema() }
    }

    // MARK: SchemaEditing

    public func createTable(_ spec: TableSpec) async throws(AirtableError) -> TableSchema {
        try await perform { try $0.createTable(spec) }
    }

    public func createField(in table: String, _ spec: FieldSpec) async throws(AirtableError) -> FieldSchema {
        try await perform { try $0.createField(in: table, spec) }
    }

    public func updateTable(_ table: String, _ change: SchemaChange) async throws(AirtableError) -> TableSchema {
        try await perform { try $0.updateTable(table, change) }
    }

    public func updateField(in table: String, field: String, _ change: SchemaChange) async throws(AirtableError)
        -> FieldSchema
    {
        try await perform { try $0.updateField(in: table, field: field, change) }
    }

    // MARK: CommentStore

    public func collaborators() async throws(AirtableError) -> [Collaborator] {
        try await perform { try $0.users() }
    }

    public func comments(in table: String, record: String, pageSize: Int, offset: String?)
        async throws(AirtableError) -> CommentPage
    {
        try await perform { try $0.comments(in: table, record: record, pageSize: pageSize, offset: offset) }
    }

    public func addComment(in table: String, record: String, text: String, author: Collaborator)
        async throws(AirtableError) -> RecordComment
    {
        try await performWrite { try $0.addComment(in: table, record: record, text: text, author: author) }
    }

    public func updateComment(in table: String, record: String, id: String, text: String, author: Collaborator)
        async throws(AirtableError) -> RecordComment
    {
        try await performWrite {
            try $0.updateComment(in: table, record: record, id: id, text: text, author: author)
        }
    }

    public func deleteComment(in table: String, record: String, id: String, author: Collaborator)
        async throws(AirtableError)
    {
        try await performWrite { try $0.deleteComment(in: table, record: record, id: id, author: author) }
    }

    public func commentCounts(in table: String, records: [String]) async throws(AirtableError) -> [String: Int] {
        try await perform { try $0.commentCounts(in: table, records: records) }
    }

    // MARK: Views (DrinkShop's own; Airtable's API cannot make views)

    /// Adds or replaces the owner's views (see `ViewDefinition`), all or none.
    @discardableResult
    public func defineViews(_ definitions: [ViewDefinition]) async throws(AirtableError) -> [ViewSchema] {
        try await perform { try $0.defineViews(definitions) }
    }

    // MARK: WebhookStore

    public func createWebhook(notificationURL: String?, specification: JSONValue, by user: Collaborator)
        async throws(AirtableError) -> Webhook
    {
        try await perform { try $0.createWebhook(notificationURL: notificationURL, specification: specification) }
    }

    public func webhooks() async throws(AirtableError) -> [Webhook] {
        try await perform { try $0.webhooks() }
    }

    public func deleteWebhook(_ id: String) async throws(AirtableError) {
        try await perform { try $0.deleteWebhook(id) }
    }

    public func refreshWebhook(_ id: String) async throws(AirtableError) -> Date {
        try await perform { try $0.refreshWebhook(id) }
    }

    public func enableWebhookNotifications(_ id: String, _ enable: Bool) async throws(AirtableError) {
        try await perform { try $0.enableWebhookNotifications(id, enable) }
    }

    public func webhookPayloads(_ id: String, cursor: Int, limit: Int) async throws(AirtableError) -> WebhookPayloadPage {
        try await perform { try $0.webhookPayloads(id, cursor: cursor, limit: limit) }
    }

    public func webhooksToNotify() async throws(AirtableError) -> [Webhook] {
        try await perform { try $0.webhooksToNotify() }
    }

    public func recordNotification(_ id: String, success: Bool, error: String?, at time: Date, durationMs: Double,
                                   retryNumber: Int) async throws(AirtableError)
    {
        try await perform {
            try $0.recordNotification(id, success: success, error: error, at: time, durationMs: durationMs,
                                      retryNumber: retryNumber)
        }
    }
}
