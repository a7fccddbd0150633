import Airtable

/// The record routes (reference §2–§6): list, get, create, update (PATCH merges, PUT replaces), upsert
/// and delete, one record or a batch. Each checks the whole request before the store sees it; the
/// store applies a batch wholly or not at all.
extension AirtableAPI {
    func list(_ table: String, _ query: ListQuery) async throws -> APIResponse {
        let page = try await store.listRecords(in: table, query: query)
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

    func get(_ table: String, id: String, query: QueryString) async throws -> APIResponse {
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
        return .json(render(try await store.getRecord(in: table, id: id, options: options)))
    }

    func create(in table: String, request: APIRequest, query: QueryString) async throws -> APIResponse {
        try refuseQuery(query)
        let body = try WriteBody(json: try parseBody(request.body, emptyAs: [:]), allowsUpsert: false, requiresID: false,
                                 allowsSingle: true)
        if body.records.contains(where: { $0.id != nil }) {
            throw APIError.invalidRequest("records to create may not carry an id")
        }
        let records = try await store.createRecords(in: table, body.records.map(\.fields), options: body.options)
        if body.isSingle, let record = records.first { return .json(render(record)) }
        return .json(["records": .array(records.map { render($0) })])
    }

    func updateBatch(in table: String, replace: Bool, request: APIRequest, query: QueryString) async throws
        -> APIResponse
    {
        try refuseQuery(query)
        let body = try WriteBody(json: try parseBody(request.body, emptyAs: [:]), allowsUpsert: true, requiresID: true,
                                 allowsSingle: false)
        if let mergeOn = body.mergeOn {
            let result = try await store.upsertRecords(
                in: table, body.records.map { UpsertRecord(id: $0.id, fields: $0.fields) }, mergeOn: mergeOn,
                replace: replace, options: body.options)
            return .json(["records": .array(result.records.map { render($0) }),
                          "createdRecords": .array(result.createdRecords.map(JSONValue.string)),
                          "updatedRecords": .array(result.updatedRecords.map(JSONValue.string))])
        }
        let updates = body.records.map { RecordUpdate(id: $0.id ?? "", fields: $0.fields) }
        let records = try await store.updateRecords(in: table, updates, replace: replace, options: body.options)
        return .json(["records": .array(records.map { render($0) })])
    }

    func updateOne(_ table: String, id: String, replace: Bool, request: APIRequest, query: QueryString)
        async throws -> APIResponse
    {
        try refuseQuery(query)
        guard AirtableID.isValid(id, prefix: "rec") else { return .error(.notFound) }
        let (fields, options) = try WriteBody.singleUpdate(try parseBody(request.body, emptyAs: [:]))
        do {
            let records = try await store.updateRecords(in: table, [RecordUpdate(id: id, fields: fields)],
                                                        replace: replace, options: options)
            guard let record = records.first else { throw AirtableError.decoding("the store updated no record") }
            return .json(render(record))
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
        guard !ids.isEmpty, ids.count <= WriteBody.maximumRecords else { throw APIError.invalidRecords }
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
}
