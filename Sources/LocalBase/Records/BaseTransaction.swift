import Airtable
import AirtableFormula

extension LocalBase: AtomicRecordStore {
    /// Runs `work` inside one write (a savepoint of the group commit it joins): every call in it sees the
    /// ones before, no other writer comes in between, and it is durable when this returns.
    public func atomically<T: Sendable>(_ work: @escaping @Sendable (any RecordTransaction) throws(AirtableError) -> T)
        async throws(AirtableError) -> T
    {
        let path = path
        return try await performWrite { context in
            try context.file.connection.writeTransaction {
                try work(ContextTransaction(context: context, path: path))
            }
        }
    }
}

/// The record calls of one `atomically` block, straight on the base's context (already on its queue).
private struct ContextTransaction: RecordTransaction {
    let context: BaseContext
    let path: String

    func listRecords(in table: String, query: ListQuery) throws(AirtableError) -> RecordPage {
        do { return try context.listRecords(in: table, query: query) } catch {
            throw LocalBase.airtableError(error, path: path)
        }
    }

    func containsRecord(in table: String, field: String, text: String) throws(AirtableError) -> Bool {
        do { return try context.containsRecord(in: table, field: field, text: text) } catch {
            throw LocalBase.airtableError(error, path: path)
        }
    }

    func getRecord(in table: String, id: String, options: ReadOptions) throws(AirtableError) -> Record {
        do { return try context.getRecord(in: table, id: id, options: options) } catch {
            throw LocalBase.airtableError(error, path: path)
        }
    }

    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        throws(AirtableError) -> [Record]
    {
        do { return try context.updateRecords(in: table, updates, replace: replace, options: options) } catch {
            throw LocalBase.airtableError(error, path: path)
        }
    }

    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) throws(AirtableError) -> [Record] {
        do { return try context.createRecords(in: table, records, options: options) } catch {
            throw LocalBase.airtableError(error, path: path)
        }
    }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) throws(AirtableError) -> UpsertResult
    {
        do {
            return try context.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
        } catch {
            throw LocalBase.airtableError(error, path: path)
        }
    }

    func deleteRecords(in table: String, ids: [String]) throws(AirtableError) -> [String] {
        do { return try context.deleteRecords(in: table, ids: ids) } catch {
            throw LocalBase.airtableError(error, path: path)
        }
    }
}

extension BaseContext {
    /// See `RecordTransaction.containsRecord`: the field's expression index (made if missing, as a
    /// filter on the field would) answers it. Call inside a write transaction.
    func containsRecord(in tableName: String, field fieldName: String, text: String) throws -> Bool {
        let table = try table(tableName)
        guard let field = table.field(fieldName) else { throw APIError.unknownFieldName(fieldName) }
        if try !file.hasIndex(tableID: table.id, fieldID: field.id) {
            try file.ensureIndex(tableID: table.id, fieldID: field.id)
        }
        let sql = "SELECT EXISTS (SELECT 1 FROM \(BaseFile.recordTable(table.id)) WHERE \(BaseFile.cellExpression(field.id)) = ?1)"
        return try file.connection.integerValue(sql, [.text(text)]) == 1
    }
}
