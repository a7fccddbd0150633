import Airtable
import Synchronization

/// A `RecordStore` that passes every request through and writes down what it was, as a remote base would
/// see it (`GET OrderDrink`, `PATCH TillPayment`…): how tests hold a command to its number of requests.
/// It can also refuse a kind of request (`refuse(_:with:)`), to show what a failure between two writes leaves.
public final class CountingStore: RecordStore {
    public let base: any RecordStore
    private let log = Mutex<[String]>([])
    private let refusals = Mutex<[String: AirtableError]>([:])

    public init(_ base: any RecordStore) { self.base = base }

    /// Every request so far, oldest first.
    public var requestLog: [String] { log.withLock { $0 } }
    /// How many requests so far.
    public var requests: Int { log.withLock { $0.count } }

    /// The requests `work` makes.
    public func requests(during work: () async throws -> Void) async rethrows -> [String] {
        let before = requests
        try await work()
        return Array(requestLog.dropFirst(before))
    }

    /// Refuses the next request `request` (`PATCH TillPayment`) with `error` (after writing it down).
    public func refuse(_ request: String, with error: AirtableError) { refusals.withLock { $0[request] = error } }

    private func note(_ method: String, _ table: String) throws(AirtableError) {
        let request = "\(method) \(table)"
        log.withLock { $0.append(request) }
        if let error = refusals.withLock({ $0.removeValue(forKey: request) }) { throw error }
    }

    public func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        try note("GET", table); return try await base.listRecords(in: table, query: query)
    }
    public func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        try note("GET", table); return try await base.getRecord(in: table, id: id, options: options)
    }
    public func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        try note("POST", table); return try await base.createRecords(in: table, records, options: options)
    }
    public func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record] {
        try note("PATCH", table); return try await base.updateRecords(in: table, updates, replace: replace, options: options)
    }
    public func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                              options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        try note("PATCH", table); return try await base.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }
    public func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        try note("DELETE", table); return try await base.deleteRecords(in: table, ids: ids)
    }
    public func schema() async throws(AirtableError) -> BaseSchema { try note("GET", "meta"); return try await base.schema() }
}
