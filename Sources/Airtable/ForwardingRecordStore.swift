/// A store that passes every call on to another (`underlying`): a wrapper implements only the calls it
/// changes (counting, failing on purpose, reading a second place) and the rest go through unchanged.
public protocol ForwardingRecordStore: RecordStore {
    var underlying: any RecordStore { get }
}

extension ForwardingRecordStore {
    public func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        try await underlying.listRecords(in: table, query: query)
    }

    public func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        try await underlying.getRecord(in: table, id: id, options: options)
    }

    public func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError)
        -> [Record]
    {
        try await underlying.createRecords(in: table, records, options: options)
    }

    public func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        try await underlying.updateRecords(in: table, updates, replace: replace, options: options)
    }

    public func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                              options: WriteOptions) async throws(AirtableError) -> UpsertResult
    {
        try await underlying.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }

    public func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        try await underlying.deleteRecords(in: table, ids: ids)
    }

    public func schema() async throws(AirtableError) -> BaseSchema {
        try await underlying.schema()
    }
}
