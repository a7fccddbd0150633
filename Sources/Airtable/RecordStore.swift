/// An Airtable-shaped base: the record operations of Airtable's API, whatever stores them.
///
/// `table` is a table name or id. Batches may hold any number of records here; a store that talks to
/// a server splits them into the API's batches of ten. A store that is one base (SQLite) applies a
/// batch wholly or not at all.
public protocol RecordStore: Sendable {
    /// One page of records.
    func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage
    /// One record by id.
    func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record
    /// Creates records; returns them in order.
    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError)
        -> [Record]
    /// Updates records: merges the given cells (PATCH), or with `replace` clears every other cell (PUT).
    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record]
    /// Creates or updates each record, matching those without an id on `mergeOn` (1-3 fields).
    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult
    /// Deletes records; returns the deleted ids in order.
    func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String]
    /// The tables and fields of the base.
    func schema() async throws(AirtableError) -> BaseSchema
}

/// A store whose tables and fields can be created (Airtable's metadata API).
public protocol SchemaEditing: RecordStore {
    func createTable(_ spec: TableSpec) async throws(AirtableError) -> TableSchema
    func createField(in table: String, _ spec: FieldSpec) async throws(AirtableError) -> FieldSchema
}

/// A store that answers a whole listing in one call, where page after page would cost a round trip each
/// (the embedded base: one read of one snapshot, no cursor kept between pages). `allRecords` uses it.
public protocol WholeListing: RecordStore {
    /// Every record matching `query` (its `offset` ignored), as `allRecords` would gather them.
    func listAllRecords(in table: String, query: ListQuery) async throws(AirtableError) -> [Record]
}

extension RecordStore {
    /// Every record matching `query`, page after page (or in one call, from a `WholeListing` store). An
    /// expired cursor restarts the listing from the beginning, at most `restarts` times.
    public func allRecords(in table: String, query: ListQuery = ListQuery(), restarts: Int = 3)
        async throws(AirtableError) -> [Record]
    {
        if let whole = self as? any WholeListing {
            var query = query
            query.offset = nil
            return try await whole.listAllRecords(in: table, query: query)
        }
        var attempt = 0
        while true {
            var page = query
            page.offset = nil
            var records: [Record] = []
            do {
                while true {
                    let result = try await listRecords(in: table, query: page)
                    records += result.records
                    guard let next = result.offset, !next.isEmpty else { return records }
                    page.offset = next
                }
            } catch let error where error.apiError?.type == APIError.iteratorNotAvailable.type && attempt < restarts {
                attempt += 1
            }
        }
    }

    /// Creates one record.
    public func createRecord(in table: String, _ fields: Fields, options: WriteOptions = WriteOptions())
        async throws(AirtableError) -> Record
    {
        let records = try await createRecords(in: table, [fields], options: options)
        guard let record = records.first else { throw .decoding("the store created no record") }
        return record
    }

    /// Merges `fields` into one record.
    public func updateRecord(in table: String, id: String, _ fields: Fields, options: WriteOptions = WriteOptions())
        async throws(AirtableError) -> Record
    {
        let records = try await updateRecords(in: table, [RecordUpdate(id: id, fields: fields)], replace: false,
                                              options: options)
        guard let record = records.first else { throw .decoding("the store updated no record") }
        return record
    }
}
