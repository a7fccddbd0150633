import Airtable

/// The record routes (reference §2–§6): list, get, create, update (PATCH merges, PUT replaces), upsert
/// and delete, one record or a batch. Each checks the whole request before the store sees it; the
/// store applies a batch wholly or not at all.
extension AirtableAPI {
    func list(_ table: String, _ query: ListQuery, reach: TokenReach?) async throws -> APIResponse {
        let limited = try limitedReach(reach, table)
        if let (reach, schema) = limited {
            try reach.checkNames(query.fields ?? [], in: schema, place: "fields[]")
            try reach.checkNames(query.sort.map(\.field), in: schema, place: "sort")
            try reach.checkFormula(query.filterByFormula, in: schema, place: "filterByFormula")
        }
        var page = try await store.listRecords(in: table, query: query)
        page.records = page.records.map { visible($0, limited) }
        var counts: [String: Int]?
        if query.includeCommentCount {
            counts = try await (store as? any CommentStore)?.commentCounts(in: table, records: page.records.map(\.id)) ?? [:]
        }
        let rendered = page.records.map { record in render(record, commentCount: counts.map { $0[record.id] ?? 0 }) }
        var body: [String: JSONValue] = ["records": .array(rendered)]
        // Airtable leaves `offset` out on the last page; it is never null or empty.
        if let offset = page.offset, !offset.isEmpty { body["offset"] = .string(offset) }
        return .json(.object(body))
    }

    func get(_ table: String, id: String, query: QueryString, reach: TokenReach?) async throws -> APIResponse {
        guard AirtableID.isValid(id, prefix: "rec") else { return .error(.notFound) }
        var options = ReadOptions()
        for (name, value) in query.items {
            switch name {
            case "cellFormat":
                guard let format = CellFormat(rawValue: value) else {
                    throw APIError.invalidRequest("cellFormat must be \"json\" or \"string\", not \"\(value)\"")
                }
                options.cellFormat = format
            case "timeZone": options.timeZone = value
            case "userLocale": options.userLocale = value
            case "returnFieldsByFieldId": options.returnFieldsByFieldId = try parseQueryBool(value, name: name)
            default:
                throw APIError.invalidRequest("unknown query parameter \"\(name)\"; getting a record takes only "
                    + "cellFormat, timeZone, userLocale and returnFieldsByFieldId")
            }
        }
        let limited = try limitedReach(reach, table)
        return .json(render(visible(try await store.getRecord(in: table, id: id, options: options), limited)))
    }

    func create(in table: String, request: APIRequest, query: QueryString, reach: TokenReach?) async throws
        -> APIResponse
    {
        try refuseQuery(query)
        var body = try WriteBody(json: try parseBody(request.body, emptyAs: [:]), allowsUpsert: false, requiresID: false,
                                 allowsSingle: true, limit: writeBatch(asked: request))
        if body.records.contains(where: { $0.id != nil }) {
            throw APIError.invalidRequest("records to create may not carry an id")
        }
        let limited = try limitedReach(reach, table, writing: body.records.map(\.fields))
        body = try await namingFields(of: body, in: table)
        try await refuseUnkeyed(in: table, body.records)
        let records = try await createKeepingKeysUnique(in: table, body.records.map(\.fields), options: body.options)
            .map { visible($0, limited) }
        if body.isSingle, let record = records.first { return .json(render(record)) }
        return .json(["records": .array(records.map { render($0) })])
    }

    func updateBatch(in table: String, replace: Bool, request: APIRequest, query: QueryString, reach: TokenReach?)
        async throws -> APIResponse
    {
        try refuseQuery(query)
        var body = try WriteBody(json: try parseBody(request.body, emptyAs: [:]), allowsUpsert: true, requiresID: true,
                                 allowsSingle: false, limit: writeBatch(asked: request))
        let limited = try limitedReach(reach, table, writing: body.records.map(\.fields), mergeOn: body.mergeOn ?? [])
        body = try await namingFields(of: body, in: table)
        try await refuseKeyChanges(in: table, body.records, mergeOn: body.mergeOn)
        try await refuseUnkeyed(in: table, body.records)
        if let mergeOn = body.mergeOn {
            let result = try await upsertKeepingGuards(
                in: table, body.records.map { UpsertRecord(id: $0.id, fields: $0.fields) }, mergeOn: mergeOn,
                replace: replace, options: body.options)
            return .json(["records": .array(result.records.map { render(visible($0, limited)) }),
                          "createdRecords": .array(result.createdRecords.map(JSONValue.string)),
                          "updatedRecords": .array(result.updatedRecords.map(JSONValue.string))])
        }
        let updates = body.records.map { RecordUpdate(id: $0.id ?? "", fields: $0.fields) }
        let records = try await store.updateRecords(in: table, updates, replace: replace, options: body.options)
        return .json(["records": .array(records.map { render(visible($0, limited)) })])
    }

    func updateOne(_ table: String, id: String, replace: Bool, request: APIRequest, query: QueryString,
                   reach: TokenReach?) async throws -> APIResponse
    {
        try refuseQuery(query)
        guard AirtableID.isValid(id, prefix: "rec") else { return .error(.notFound) }
        let (sent, options) = try WriteBody.singleUpdate(try parseBody(request.body, emptyAs: [:]))
        let limited = try limitedReach(reach, table, writing: [sent])
        let fields = try await namingFields(of: [sent], in: table).first ?? sent
        try await refuseKeyChanges(in: table, [(id: id, fields: fields)])
        do {
            let records = try await store.updateRecords(in: table, [RecordUpdate(id: id, fields: fields)],
                                                        replace: replace, options: options)
            guard let record = records.first else { throw AirtableError.decoding("the store updated no record") }
            return .json(render(visible(record, limited)))
        } catch {
            if (error as? AirtableError)?.apiError?.type == "ROW_DOES_NOT_EXIST" { throw APIError.modelNotFound }
            throw error
        }
    }

    func deleteBatch(in table: String, query: QueryString) async throws -> APIResponse {
        var ids: [String] = []
        for (name, value) in query.items {
            guard name == "records[]" || name == "records" || (name.hasPrefix("records[") && name.hasSuffix("]")) else {
                throw APIError.invalidRequest("unknown query parameter \"\(name)\"")
            }
            ids.append(value)
        }
        guard !ids.isEmpty, ids.count <= WriteBatchLimit.airtable.records else { throw APIError.invalidRecords }
        for id in ids where !AirtableID.isValid(id, prefix: "rec") { throw APIError.recordNotFound(id) }
        let deleted = try await store.deleteRecords(in: table, ids: ids)
        return .json(["records": .array(deleted.map { ["id": .string($0), "deleted": true] })])
    }

    func deleteOne(_ table: String, id: String, query: QueryString) async throws -> APIResponse {
        try refuseQuery(query)
        guard AirtableID.isValid(id, prefix: "rec") else { return .error(.notFound) }
        do {
            let deleted = try await store.deleteRecords(in: table, ids: [id])
            return .json(["id": .string(deleted.first ?? id), "deleted": true])
        } catch {
            if error.apiError?.status == 404 { throw APIError.modelNotFound }
            throw error
        }
    }

    /// The records this request may write: this server's `writeBatch` when it carries `WriteBatchLimit.header`,
    /// else Airtable's ten.
    private func writeBatch(asked request: APIRequest) -> WriteBatchLimit {
        request.header(WriteBatchLimit.header) == nil ? .airtable : writeBatch
    }

    /// The token's reach and the table, when the token may not see some field of it; nil when it sees all.
    /// Refuses a write that names a hidden field (a link into a table the token may not read writes that
    /// table's inverse link, and with typecast may create its records), or merges on one.
    private func limitedReach(_ reach: TokenReach?, _ table: String, writing: [Fields] = [], mergeOn: [String] = [])
        throws(APIError) -> (TokenReach, TableSchema)?
    {
        guard let reach, let schema = reach.table(table), !reach.hidden(in: schema).isEmpty else { return nil }
        for fields in writing { try reach.checkNames(fields.keys, in: schema, place: "the write") }
        try reach.checkNames(mergeOn, in: schema, place: "fieldsToMergeOn")
        return (reach, schema)
    }

    /// `record` without the fields its reader may not see.
    private func visible(_ record: Record, _ limited: (TokenReach, TableSchema)?) -> Record {
        guard let (reach, schema) = limited else { return record }
        var record = record
        record.fields = reach.visible(record.fields, in: schema)
        return record
    }

    /// `body` with every field a record names by its id named by its name instead (Airtable takes both), where this
    /// server keeps rules on named fields of the table (a unique key, a keyed kind, a create guard), so the rules see
    /// every spelling of a field; the write itself is the same. A record naming one field twice is refused.
    private func namingFields(of body: WriteBody, in table: String) async throws -> WriteBody {
        var body = body
        let named = try await namingFields(of: body.records.map(\.fields), in: table)
        for index in body.records.indices { body.records[index].fields = named[index] }
        if let mergeOn = body.mergeOn, let schema = try await ruledTable(table) {
            body.mergeOn = mergeOn.map { schema.field($0)?.name ?? $0 }
        }
        return body
    }

    private func namingFields(of records: [Fields], in table: String) async throws -> [Fields] {
        guard let schema = try await ruledTable(table) else { return records }
        return try records.enumerated().map { (index, fields) throws(APIError) -> Fields in
            var named: Fields = [:]
            for (key, value) in fields {
                let name = schema.field(key)?.name ?? key
                guard named.updateValue(value, forKey: name) == nil else {
                    throw .invalidRequest("record \(index + 1) names the field \"\(name)\" twice (by its id and by its name)")
                }
            }
            return named
        }
    }

    /// The schema of `table` when this server keeps a unique key or a create guard on it.
    private func ruledTable(_ table: String) async throws -> TableSchema? {
        guard !uniqueKeys.isEmpty || !createGuards.isEmpty, let schema = try await store.schema().table(table),
              uniqueKeys.fieldByTable[schema.name] != nil || createGuards[schema.name] != nil
        else { return nil }
        return schema
    }

    /// The unique key field of `table` (however the path spells the table), if this server keeps one.
    private func uniqueKey(of table: String) async throws -> String? {
        guard !uniqueKeys.isEmpty, let name = try await store.schema().table(table)?.name else { return nil }
        return uniqueKeys.fieldByTable[name]
    }

    /// Creates the records; in a table with a unique key or create guards (`CreateGuard`), in one commit that first
    /// makes sure no record (nor another of this batch) holds any of their keys, else refuses them all: 422
    /// `UniqueKeys.duplicateType`, and that every guard lets each record be created, else refuses them all with the
    /// guard's refusal.
    private func createKeepingKeysUnique(in table: String, _ records: [Fields], options: WriteOptions) async throws
        -> [Record]
    {
        let name = uniqueKeys.isEmpty && createGuards.isEmpty ? nil : try await store.schema().table(table)?.name
        let field = name.flatMap { uniqueKeys.fieldByTable[$0] }
        let guards = name.flatMap { createGuards[$0] } ?? []
        guard field != nil || !guards.isEmpty, let atomic = store as? any AtomicRecordStore else {
            return try await store.createRecords(in: table, records, options: options)
        }
        let keys = field.map { field in records.compactMap { $0[field]?.stringValue } } ?? []
        var seen: Set<String> = []
        for key in keys where !seen.insert(key).inserted { throw APIError.duplicateKey(field ?? "", key) }
        return try await atomic.atomically { (transaction) throws(AirtableError) -> [Record] in
            if let field {
                for key in keys where try transaction.containsRecord(in: table, field: field, text: key) {
                    throw .api(.duplicateKey(field, key))
                }
            }
            for fields in records {
                for rule in guards { if let refusal = try rule.refusal(of: fields, in: transaction) { throw .api(refusal) } }
            }
            return try transaction.createRecords(in: table, records, options: options)
        }
    }

    /// Upserts the records; in a table with create guards (`CreateGuard`), in one commit that first makes sure every
    /// guard lets each record be written (an upsert may create it), else refuses them all with the guard's refusal.
    private func upsertKeepingGuards(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                                     options: WriteOptions) async throws -> UpsertResult
    {
        let name = createGuards.isEmpty ? nil : try await store.schema().table(table)?.name
        let guards = name.flatMap { createGuards[$0] } ?? []
        guard !guards.isEmpty, let atomic = store as? any AtomicRecordStore else {
            return try await store.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
        }
        return try await atomic.atomically { (transaction) throws(AirtableError) -> UpsertResult in
            for record in records {
                for rule in guards { if let refusal = try rule.refusal(of: record.fields, in: transaction) { throw .api(refusal) } }
            }
            return try transaction.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
        }
    }

    /// Refuses records of a kind this server takes only under its kept key (`KeyedKinds`) written without it, by a
    /// writer that predates the key: 422 `KeyedKinds.refusalType` (an update by id creates nothing: not checked).
    private func refuseUnkeyed(in table: String, _ records: [(id: String?, fields: Fields)]) async throws {
        guard !uniqueKeys.keyedKinds.ruleByTable.isEmpty, let name = try await store.schema().table(table)?.name,
              let field = uniqueKeys.fieldByTable[name],
              let refusal = uniqueKeys.keyedKinds.refusal(in: name, keyField: field, records)
        else { return }
        throw APIError(status: 422, type: KeyedKinds.refusalType, message: refusal)
    }

    /// A key that is kept unique is never changed once written (only a create gives it). An upsert merged on the
    /// key alone may name it: it writes the record holding that key, or creates the one record with it, in one
    /// commit of the store (so payments and refunds keyed by their client, `TillPayment.ref`, stay upserts).
    private func refuseKeyChanges(in table: String, _ records: [(id: String?, fields: Fields)], mergeOn: [String]? = nil)
        async throws
    {
        guard let field = try await uniqueKey(of: table) else { return }
        let mergedOnKey = mergeOn == [field]
        guard records.contains(where: { $0.fields[field] != nil && !(mergedOnKey && $0.id == nil) }) else { return }
        throw APIError(status: 422, type: UniqueKeys.duplicateType,
                       message: "Field \"\(field)\" is a key this server keeps unique: it is given when a record is "
                           + "created and never changed")
    }
}

extension APIError {
    /// 422 `UniqueKeys.duplicateType`: another record holds this key's value.
    static func duplicateKey(_ field: String, _ value: String) -> APIError {
        APIError(status: 422, type: UniqueKeys.duplicateType,
                 message: "Field \"\(field)\" must be unique in its table, and another record holds \"\(value.prefix(80))\"")
    }
}
