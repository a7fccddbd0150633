import Airtable
import DrinkShopCore

/// A change to the store that has audit entries (a staff change, a setting, a pass sale, a drawer close),
/// written with them by the shop's `CommitStrategy` (`write(with:trail:entries:)`):
///
/// - On the embedded store (`OneTransaction`) the change's writes and the entries' `AuditLog` records are one commit: both
///   are kept or neither is. Entries that cannot be written leave nothing changed
///   (`ShopError.auditNotWrittenNothingChanged`).
/// - Over Airtable's API (`OrderedWrites`) no commit holds both: the change is written, then its entries. When the entries can
///   be neither written nor kept in the outbox, a change that can be put back cheaply (`undo`) is put back,
///   so neither stands (`auditNotWrittenNothingChanged`); one that cannot, or whose undo fails as well,
///   stands, and the missing entry is the command's error (`ShopError.auditNotWritten`).
struct AuditedChange<Outcome: Sendable>: Sendable {
    /// The change's reads and writes inside the embedded store's commit.
    let inCommit: @Sendable (any RecordTransaction) throws(AirtableError) -> Outcome
    /// The same change over the API, one call after another.
    let overTheAPI: @Sendable () async throws(ShopError) -> Outcome
    /// Puts back what `overTheAPI` wrote (given its outcome); nil when that cannot be done cheaply.
    let undo: (@Sendable (Outcome) async throws(ShopError) -> Void)?

    init(inCommit: @escaping @Sendable (any RecordTransaction) throws(AirtableError) -> Outcome,
         overTheAPI: @escaping @Sendable () async throws(ShopError) -> Outcome,
         undo: (@Sendable (Outcome) async throws(ShopError) -> Void)? = nil) {
        self.inCommit = inCommit
        self.overTheAPI = overTheAPI
        self.undo = undo
    }
}

extension AuditedChange where Outcome == [Record] {
    /// A change made of `writes` to `store`, the same on either kind of store; `undo` makes, from the
    /// records they wrote (in order), the writes that put things back (nil: not undone over the API).
    init(_ writes: [RecordWrite], to store: any RecordStore, undo: (@Sendable ([Record]) -> [RecordWrite])? = nil) {
        var undoing: (@Sendable ([Record]) async throws(ShopError) -> Void)? = nil
        if let undo {
            undoing = { (written) async throws(ShopError) in _ = try await RecordWrite.apply(undo(written), to: store) }
        }
        self.init(
            inCommit: { (transaction) throws(AirtableError) in
                var written: [Record] = []
                for write in writes { written += try write.apply(in: transaction) }
                return written
            },
            overTheAPI: { () async throws(ShopError) in try await RecordWrite.apply(writes, to: store) },
            undo: undoing)
    }
}

/// One record write of a change, made the same way in a commit or over the API.
enum RecordWrite: Sendable {
    case create(table: String, Fields)
    case update(table: String, id: String, Fields)
    /// Upserts on `mergeOn` (over the API in one request of up to ten records).
    case upsert(table: String, [Fields], mergeOn: [String])
    /// Deletes `ids` (over the API in one request: at most ten).
    case delete(table: String, ids: [String])

    /// The write inside a commit. - Returns: the records written (none for a delete).
    func apply(in transaction: any RecordTransaction) throws(AirtableError) -> [Record] {
        let options = WriteOptions(typecast: true)
        switch self {
        case .create(let table, let cells): return try transaction.createRecords(in: table, [cells], options: options)
        case .update(let table, let id, let cells):
            return try transaction.updateRecords(in: table, [RecordUpdate(id: id, fields: cells)], replace: false, options: options)
        case .upsert(let table, let cells, let mergeOn):
            return try transaction.upsertRecords(in: table, cells.map { UpsertRecord(fields: $0) }, mergeOn: mergeOn, replace: false,
                                                 options: options).records
        case .delete(let table, let ids):
            _ = try transaction.deleteRecords(in: table, ids: ids)
            return []
        }
    }

    /// `writes` one call after another over the API. - Returns: the records written.
    static func apply(_ writes: [RecordWrite], to store: any RecordStore) async throws(ShopError) -> [Record] {
        do throws(AirtableError) { return try await applying(writes, to: store) } catch { throw .store(error) }
    }

    private static func applying(_ writes: [RecordWrite], to store: any RecordStore) async throws(AirtableError) -> [Record] {
        let options = WriteOptions(typecast: true)
        var written: [Record] = []
        for write in writes {
            switch write {
            case .create(let table, let cells): written += try await store.createRecords(in: table, [cells], options: options)
            case .update(let table, let id, let cells):
                written += try await store.updateRecords(in: table, [RecordUpdate(id: id, fields: cells)], replace: false,
                                                         options: options)
            case .upsert(let table, let cells, let mergeOn):
                written += try await store.upsertRecords(in: table, cells.map { UpsertRecord(fields: $0) }, mergeOn: mergeOn,
                                                         replace: false, options: options).records
            case .delete(let table, let ids): _ = try await store.deleteRecords(in: table, ids: ids)
            }
        }
        return written
    }
}

extension AuditedChange {
    /// Writes the change with the audit entries `entries` makes of its outcome, as `commits` makes a group
    /// durable (the type says how for each kind of store); with no entries (or no `trail`), the change alone
    /// (still one commit on the embedded store).
    /// - Throws: what the change threw (nothing changed); `.auditNotWrittenNothingChanged` when its entries
    ///   could not be written and nothing stands; `.auditNotWritten` when they could not be and the change
    ///   stands (over the API only).
    func write(with commits: any CommitStrategy, trail: AuditTrail?,
               entries: @escaping @Sendable (Outcome) -> [AuditEntry] = { _ in [] }) async throws(ShopError) -> Outcome
    {
        try await commits.write(self, trail: trail, entries: entries)
    }
}
