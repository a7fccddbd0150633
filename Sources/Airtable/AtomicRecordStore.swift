/// Record calls made inside one all-or-nothing commit (`AtomicRecordStore.atomically`). They are
/// synchronous because they run on the store's own thread while it holds the write lock: nothing else
/// writes in between, and nothing of them is kept unless all of them succeed.
public protocol RecordTransaction {
    func listRecords(in table: String, query: ListQuery) throws(AirtableError) -> RecordPage
    /// Whether a record of `table` holds exactly `text` (case-sensitive) in `field`: the records a filter
    /// `{field}='text'` finds, asked as one index lookup without building a page of them.
    func containsRecord(in table: String, field: String, text: String) throws(AirtableError) -> Bool
    func getRecord(in table: String, id: String, options: ReadOptions) throws(AirtableError) -> Record
    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) throws(AirtableError) -> [Record]
    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        throws(AirtableError) -> [Record]
    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) throws(AirtableError) -> UpsertResult
    /// Deletes the records `ids` of `table`. - Returns: the ids deleted.
    func deleteRecords(in table: String, ids: [String]) throws(AirtableError) -> [String]
}

/// A store that can run several record calls as one durable commit with no other writer in between:
/// the embedded base. What needs a write, a read-back and a second write over Airtable's API (claiming a
/// pickup number, then writing the order) is one commit here.
public protocol AtomicRecordStore: RecordStore {
    /// Runs `work` as one commit: all of its writes are kept, or (when it throws) none.
    func atomically<T: Sendable>(_ work: @escaping @Sendable (any RecordTransaction) throws(AirtableError) -> T)
        async throws(AirtableError) -> T
}

/// A store whose commits may be made durable apart from the commit (the embedded base in a piped REPL:
/// `LocalBase.deferDurability`): whatever tells the world of a change (an acknowledgement, a printout, a file
/// for the tax office) waits for `makeDurable` first.
public protocol DurableOnDemand: Sendable {
    /// Returns once every commit made before the call is on the disk.
    func makeDurable() async throws(AirtableError)
}

/// A forwarding store whose every write reaches the store it wraps unchanged (it may add reads of its
/// own, as the shop's archive of closed days does): what that store commits as one, it commits as one.
/// Wrappers that fail or alter writes on purpose forward without this promise.
public protocol WrappingRecordStore: ForwardingRecordStore {}

extension RecordStore {
    /// The store itself or the one it wraps (through `WrappingRecordStore`s) when that one commits
    /// several calls as one: the embedded base. Nil for a base over the API.
    public var atomicStore: (any AtomicRecordStore)? {
        if let atomic = self as? any AtomicRecordStore { return atomic }
        return (self as? any WrappingRecordStore)?.underlying.atomicStore
    }
}

/// A store that keeps, beside its tables, the version of an owner's schema it was last brought to (the
/// embedded store, in its file), so the owner knows which of its tables and fields are there without
/// reading the schema or being refused a write. A base over the API has no such place: its schema is read.
public protocol SchemaVersionKeeping: Sendable {
    /// The version recorded under `name`; nil when none has been.
    func schemaVersion(named name: String) async throws(AirtableError) -> Int?
    /// Records `version` under `name` (durably, before it returns).
    func recordSchemaVersion(_ version: Int, named name: String) async throws(AirtableError)
}

extension RecordStore {
    /// The store itself or the one it wraps (through `WrappingRecordStore`s) when that one keeps schema
    /// versions: the embedded base. Nil for a base over the API.
    public var schemaVersions: (any SchemaVersionKeeping)? {
        if let keeper = self as? any SchemaVersionKeeping { return keeper }
        return (self as? any WrappingRecordStore)?.underlying.schemaVersions
    }
}

/// A store that makes an index the first time a listing filters by it (the embedded base), and can make
/// the ones listings by given formulas would need without listing anything: an owner that must not
/// write inside a command it may refuse asks for them when it opens the store.
public protocol IndexPreparing: Sendable {
    /// Makes whatever indexes listings of `table` filtered by `formulas` read through, when missing and
    /// the store may be written (a store that may not is read without them, as its listings are).
    func prepareIndexes(in table: String, for formulas: [String]) async throws(AirtableError)

    /// Drops the single-field indexes an earlier version made for filtering `table` by each of `fields`
    /// alone, which no listing reads through any more (each costs every insert a page), when present and
    /// the store may be written.
    func retireIndexes(in table: String, onFields fields: [String]) async throws(AirtableError)

    /// Drops the creation-time index of `table`, when present and the store may be written: for a table no
    /// listing bounds by creation time, where it only costs every insert a page. A listing that does bound
    /// it makes it again (as on first use).
    func retireCreatedIndex(in table: String) async throws(AirtableError)
}

extension RecordStore {
    /// The store itself or the one it wraps (through `WrappingRecordStore`s) when that one indexes on
    /// first use: the embedded base. Nil for a base over the API.
    public var indexPreparing: (any IndexPreparing)? {
        if let preparing = self as? any IndexPreparing { return preparing }
        return (self as? any WrappingRecordStore)?.underlying.indexPreparing
    }
}
