import Airtable
import Synchronization

/// A store whose calls can be made to fail on purpose, the rest passed on: while `failure` is set, every
/// record call (or, with `writesOnly`, every write) throws it. A base that is unplugged (`.transport`), or a
/// local file that stops taking writes (`.localStore`), for the tests of what the shop does then.
public final class GatedStore: ForwardingRecordStore {
    public let underlying: any RecordStore
    private let writesOnly: Bool
    private let failure = Mutex<AirtableError?>(nil)

    public init(_ underlying: any RecordStore, writesOnly: Bool = false) {
        self.underlying = underlying
        self.writesOnly = writesOnly
    }

    /// From now on the calls fail with `error`; nil lets them through again.
    public func fail(with error: AirtableError?) { failure.withLock { $0 = error } }

    private func check(write: Bool) throws(AirtableError) {
        guard write || !writesOnly, let error = failure.withLock({ $0 }) else { return }
        throw error
    }

    public func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        try check(write: false)
        return try await underlying.listRecords(in: table, query: query)
    }

    public func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        try check(write: false)
        return try await underlying.getRecord(in: table, id: id, options: options)
    }

    public func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        try check(write: true)
        return try await underlying.createRecords(in: table, records, options: options)
    }

    public func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        try check(write: true)
        return try await underlying.updateRecords(in: table, updates, replace: replace, options: options)
    }

    public func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                              options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        try check(write: true)
        return try await underlying.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }

    public func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        try check(write: true)
        return try await underlying.deleteRecords(in: table, ids: ids)
    }
}
