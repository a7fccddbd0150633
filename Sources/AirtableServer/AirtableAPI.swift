import Airtable

/// Airtable's REST API (reference §1.1, §12) over any `RecordStore`: authentication, routing, parameter
/// and body parsing, rate limiting, and responses and errors in Airtable's exact shapes. Knows nothing of
/// sockets (see `AirtableHTTPService`) and nothing of drinks.
public final class AirtableAPI: Sendable {
    public let store: any RecordStore
    public let baseID: String
    public let baseName: String
    let tokens: AccessTokens
    let rateLimiter: RateLimiter?
    let userID = AirtableID.make("usr")

    /// Airtable refuses URLs of 16,000 characters or more; clients then switch to `POST …/listRecords`.
    public static let maximumURLLength = 16_000

    public init(store: any RecordStore, baseID: String, baseName: String = "DrinkShop", tokens: AccessTokens,
                rateLimiter: RateLimiter? = nil) {
        self.store = store
        self.baseID = baseID
        self.baseName = baseName
        self.tokens = tokens
        self.rateLimiter = rateLimiter
    }

    /// Answers one request. Never throws: every failure is an Airtable-shaped error response, and a
    /// request answered with an error has changed nothing.
    public func handle(_ request: APIRequest) async -> APIResponse {
        var response = await respond(to: request)
        response.headers.append((name: "Access-Control-Allow-Origin", value: "*"))
        return response
    }

    private func respond(to request: APIRequest) async -> APIResponse {
        let method = request.method.uppercased()
        if method == "OPTIONS" { return preflight() }
        guard request.target.utf8.count < AirtableAPI.maximumURLLength else {
            return .error(APIError(status: 414, type: "URL_TOO_LONG",
                                   message: "URLs must be shorter than 16,000 characters; use POST …/listRecords"))
        }
        guard let token = AccessTokens.bearer(request.header("Authorization")),
              let access = tokens.access(for: token)
        else { return .error(.authenticationRequired) }

        let (path, rawQuery) = split(request.target)
        guard let route = Route(path: path) else { return .error(.notFound) }
        if let base = route.base, base != baseID {
            if case .tables = route { return .error(.modelNotFound) }
            if case .fields = route { return .error(.modelNotFound) }
            return .error(.notFound)
        }
        let writes = isWrite(method: method, route: route)
        if writes && access == .read { return .error(.invalidPermissions) }
        if let limiter = rateLimiter {
            let decision = limiter.admit(base: baseID)
            if !decision.allowed { return .error(.rateLimitReached, retryAfter: decision.retryAfter) }
        }
        do {
            let query = try QueryString(raw: rawQuery)
            return try await dispatch(method: method, route: route, query: query, request: request, access: access)
        } catch let error as APIError {
            return .error(error)
        } catch let error as AirtableError {
            return .error(apiError(for: error))
        } catch {
            return .error(APIError(status: 500, type: "SERVER_ERROR", message: "\(error)"))
        }
    }

    private func dispatch(method: String, route: Route, query: QueryString, request: APIRequest,
                          access: AccessTokens.Access) async throws -> APIResponse {
        switch (method, route) {
        case ("GET", .whoami): return whoami(access: access)
        case ("GET", .listBases): return .json(["bases": [["id": .string(baseID), "name": .string(baseName),
                                                            "permissionLevel": access == .read ? "read" : "create"]]])
        case ("GET", .tables): return try await tableSchemas(query: query)
        case ("POST", .tables): return try await createTable(body: request.body)
        case ("POST", .fields(_, let table)): return try await createField(in: table, body: request.body)
        case ("GET", .table(_, let table)): return try await list(table, ListParameters.fromQuery(query))
        case ("POST", .listRecords(_, let table)):
            return try await list(table, ListParameters.fromBody(try parseBody(request.body, emptyAs: [:]), query: query))
        case ("POST", .table(_, let table)): return try await create(in: table, request: request, query: query)
        case ("PATCH", .table(_, let table)), ("PUT", .table(_, let table)):
            return try await updateBatch(in: table, replace: method == "PUT", request: request, query: query)
        case ("DELETE", .table(_, let table)): return try await deleteBatch(in: table, query: query)
        case ("GET", .record(_, let table, let id)): return try await get(table, id: id, query: query)
        case ("PATCH", .record(_, let table, let id)), ("PUT", .record(_, let table, let id)):
            return try await updateOne(table, id: id, replace: method == "PUT", request: request, query: query)
        case ("DELETE", .record(_, let table, let id)): return try await deleteOne(table, id: id, query: query)
        default: return .error(.notFound)
        }
    }

    // MARK: - Records

    private func list(_ table: String, _ query: ListQuery) async throws -> APIResponse {
        let page = try await store.listRecords(in: table, query: query)
        var body: [String: JSONValue] = ["records": .array(page.records.map { render($0, comments: query.includeCommentCount) })]
        if let offset = page.offset { body["offset"] = .string(offset) }
        return .json(.object(body))
    }

    private func get(_ table: String, id: String, query: QueryString) async throws -> APIResponse {
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
            default: throw APIError.invalidRequestUnknown
            }
        }
        return .json(render(try await store.getRecord(in: table, id: id, options: options)))
    }

    private func create(in table: String, request: APIRequest, query: QueryString) async throws -> APIResponse {
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

    private func updateBatch(in table: String, replace: Bool, request: APIRequest, query: QueryString) async throws
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

    private func updateOne(_ table: String, id: String, replace: Bool, request: APIRequest, query: QueryString)
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

    private func deleteBatch(in table: String, query: QueryString) async throws -> APIResponse {
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

    private func deleteOne(_ table: String, id: String, query: QueryString) async throws -> APIResponse {
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

    // MARK: - Helpers

    func render(_ record: Record, comments: Bool = false) -> JSONValue {
        guard comments, case .object(var object) = record.json else { return record.json }
        object["commentCount"] = 0
        return .object(object)
    }

    func parseBody(_ bytes: [UInt8], emptyAs empty: JSONValue) throws(APIError) -> JSONValue {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return empty }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .invalidJSON(error.description)
        }
    }

    private func refuseQuery(_ query: QueryString) throws(APIError) {
        if let first = query.items.first { throw .invalidRequest("unknown query parameter \"\(first.name)\"") }
    }

    private func split(_ target: String) -> (Substring, String) {
        guard let mark = target.firstIndex(of: "?") else { return (target[...], "") }
        return (target[..<mark], String(target[target.index(after: mark)...]))
    }

    private func isWrite(method: String, route: Route) -> Bool {
        switch method {
        case "GET", "HEAD": return false
        case "POST": if case .listRecords = route { return false } else { return true }
        default: return true
        }
    }

    func apiError(for error: AirtableError) -> APIError {
        switch error {
        case .api(let apiError): return apiError
        case .rateLimited(let after): return APIError(status: 429, type: "RATE_LIMIT_REACHED",
                                                      message: "Rate limit exceeded. Please try again later"
                                                          + (after.map { " (retry after \(Int($0)) s)" } ?? ""))
        case .transport(let detail), .decoding(let detail):
            return APIError(status: 502, type: "BAD_GATEWAY", message: "The base behind this server failed: \(detail)")
        case .timedOut(let seconds):
            return APIError(status: 503, type: "RETRIABLE_ERROR",
                            message: "The base behind this server did not answer within \(Int(seconds)) s")
        }
    }

    private func preflight() -> APIResponse {
        APIResponse(status: 204, headers: [
            (name: "Access-Control-Allow-Methods", value: "DELETE,GET,OPTIONS,PATCH,POST,PUT"),
            (name: "Access-Control-Allow-Headers",
             value: "authorization,content-length,content-type,user-agent,x-airtable-application-id,"
                + "x-airtable-user-agent,x-api-version,x-requested-with"),
            (name: "Access-Control-Max-Age", value: "86400"),
        ], body: [])
    }
}
