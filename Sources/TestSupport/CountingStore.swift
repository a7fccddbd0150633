import Airtable
import Synchronization

/// A `RecordStore` that passes every request through and writes down what it was, as a remote base would
/// see it (`GET OrderDrink`, `PATCH TillPayment`…): how tests hold a command to its number of requests.
public final class CountingStore: RecordStore {
    public let base: any RecordStore
    private let log = Mutex<[String]>([])

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

    private func note(_ method: String, _ table: String) { log.withLock { $0.append("\(method) \(table)") } }

    public func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        note("GET", table); return try await base.listRecords(in: table, query: query)
    }
    public func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        note("GET", table); return try await base.getRecord(in: table, id: id, options: options)
    }
    public func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        note("POST", table); return try await base.createRecords(in: table, records, options: options)
    }
    public func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record] {
        note("PATCH", table); return try await base.updateRecords(in: table, updates, replace: replace, options: options)
    }
    public func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                              options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        note("PATCH", table); return try await base.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }
    public func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        note("DELETE", table); return try await base.deleteRecords(in: table, ids: ids)
    }
    public func schema() async throws(AirtableError) -> BaseSchema { note("GET", "meta"); return try await base.schema() }
}
