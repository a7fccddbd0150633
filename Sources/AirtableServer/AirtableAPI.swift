import Airtable
import Foundation

/// Airtable's REST API (reference §1.1, §12) over any `RecordStore`: authentication, routing, parameter
/// and body parsing, rate limiting, and responses and errors in Airtable's exact shapes. Knows nothing of
/// sockets (see `AirtableHTTPService`) and nothing of drinks.
///
/// Order of checks: CORS preflight, the URL limit, the token, the route and base, write permission, the
/// rate limit (so a refused request is never performed), then the request itself. Where the reference
/// leaves room (scripts/conformance/README.md lists it): bodies on GET and DELETE are refused, HEAD is
/// answered as GET, and unknown query parameters are named in the error message.
public final class AirtableAPI: Sendable {
    public let store: any RecordStore
    public let baseID: String
    public let baseName: String
    public let workspaceID: String
    let tokens: AccessTokens
    let rateLimiter: RateLimiter?
    /// Who the tokens act as: the base's owner when the store knows its users, else a user made for
    /// this process. Comments are written as this user and `whoami` names it.
    let user: Collaborator
    /// Pings webhook URLs after writes; nil sends no pings (payloads are still kept).
    let notifier: WebhookNotifier?
    /// Tables and fields the application behind this server reads by name: never renamed through the API.
    let protectedTables: ProtectedTables
    /// Tables a token reads or writes only with their scope (`TableScopes`).
    let tableScopes: TableScopes
    /// Where webhooks may send notifications: public https URLs, and the local receivers the operator named.
    let webhookReceivers: WebhookReceivers
    /// Key fields this server keeps unique (on a store that commits several calls as one), named to clients in
    /// `UniqueKeys.header` on every answer.
    let uniqueKeys: UniqueKeys
    /// Rules checked inside a create's commit (on a store that commits several calls as one), by table name,
    /// named to clients in `CreateGuards.header` on every answer.
    let createGuards: [String: [any CreateGuard]]
    /// The records a create, update or upsert may carry when the request asks for more than Airtable's ten
    /// (`WriteBatchLimit`): more only on a store that commits a request whole, named on every answer.
    let writeBatch: WriteBatchLimit
    let startedAt = Date()
    var userID: String { user.id }

    /// Airtable refuses URLs of 16,000 characters or more; clients then switch to `POST …/listRecords`.
    public static let maximumURLLength = 16_000

    /// The base's name in the metadata routes when the program names none.
    public static let defaultBaseName = "Local base"
    /// The workspace the metadata routes place the base in when the program names none (`wsp` + 14).
    public static let defaultWorkspaceID = "wspLocalBase00000"

    /// - Parameters:
    ///   - baseName, workspaceID: what the metadata routes call the base and its workspace.
    ///   - user: who the tokens act as; nil makes a user of `OwnerProfile.placeholder` for this process.
    public init(store: any RecordStore, baseID: String, baseName: String = AirtableAPI.defaultBaseName,
                workspaceID: String = AirtableAPI.defaultWorkspaceID, tokens: AccessTokens,
                rateLimiter: RateLimiter? = nil, user: Collaborator? = nil, notifier: WebhookNotifier? = nil,
                protectedTables: ProtectedTables = ProtectedTables(), tableScopes: TableScopes = TableScopes(),
                webhookReceivers: WebhookReceivers = WebhookReceivers(), uniqueKeys: UniqueKeys = UniqueKeys(),
                createGuards: [any CreateGuard] = [], writeBatch: WriteBatchLimit? = nil) {
        self.uniqueKeys = store is any AtomicRecordStore ? uniqueKeys : UniqueKeys()
        self.createGuards = store is any AtomicRecordStore ? Dictionary(grouping: createGuards, by: \.table) : [:]
        // More than Airtable's ten only where the store commits a request whole, unless the program asks for ten.
        self.writeBatch = store is any AtomicRecordStore ? writeBatch ?? .served : .airtable
        self.tableScopes = tableScopes
        self.notifier = notifier
        self.webhookReceivers = webhookReceivers
        self.protectedTables = protectedTables
        self.user = user ?? OwnerProfile.placeholder.newCollaborator()
        self.workspaceID = workspaceID
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
        if !uniqueKeys.isEmpty { response.headers.append((name: UniqueKeys.header, value: uniqueKeys.headerValue)) }
        if !createGuards.isEmpty {
            let names = createGuards.values.flatMap { $0.map(\.name) }.sorted().joined(separator: ",")
            response.headers.append((name: CreateGuards.header, value: names))
        }
        if writeBatch != .airtable { response.headers.append((name: WriteBatchLimit.header, value: writeBatch.headerValue)) }
        return response
    }

    private func respond(to request: APIRequest) async -> APIResponse {
        var method = request.method.uppercased()
        if method == "OPTIONS" { return preflight() }
        // HEAD is answered as GET; the socket layer sends the headers without the body.
        if method == "HEAD" { method = "GET" }
        guard request.target.utf8.count < AirtableAPI.maximumURLLength else { return .error(.urlTooLong) }
        guard let token = AccessTokens.bearer(request.header("Authorization")),
              let access = tokens.access(for: token)
        else { return .error(.authenticationRequired) }

        let (path, rawQuery) = split(request.target)
        guard let route = Route(path: path) else { return .error(.notFound) }
        if let base = route.base, base != baseID {
            switch route {
            case .tables, .fields, .metaTable, .metaField, .baseInfo: return .error(.modelNotFound)
            default: return .error(.notFound)
            }
        }
        let writes = isWrite(method: method, route: route)
        // What this token reaches, decided once, on the tables as the store resolves them, before anything else.
        let reach: TokenReach?
        do {
            reach = try await self.reach(of: access)
        } catch let error as AirtableError {
            return .error(apiError(for: error))
        } catch {
            return .error(APIError(status: 500, type: "SERVER_ERROR", message: "\(error)"))
        }
        if let refusal = refusal(of: access, route: route, writes: writes, reach: reach) { return .error(refusal) }
        if let limiter = rateLimiter {
            let decision = limiter.admit(base: baseID)
            if !decision.allowed { return .error(.rateLimitReached, retryAfter: decision.retryAfter) }
        }
        if (method == "GET" || method == "DELETE") && !isBlank(request.body) {
            return .error(.invalidRequest("\(request.method.uppercased()) takes no request body"
                + (method == "DELETE" ? "; name the records to delete in the query, as records[]=rec…" : "")
                + (method == "GET" ? "; send list parameters in the query, or POST them to …/listRecords" : "")))
        }
        do {
            let query = try QueryString(raw: rawQuery)
            let response = try await dispatch(method: method, route: route, query: query, request: request, access: access,
                                              reach: reach)
            if writes, response.status == 200, notifier != nil { _ = notifyWebhooks() }
            return response
        } catch let error as APIError {
            return .error(error)
        } catch let error as AirtableError {
            return .error(apiError(for: error))
        } catch {
            return .error(APIError(status: 500, type: "SERVER_ERROR", message: "\(error)"))
        }
    }

    private func dispatch(method: String, route: Route, query: QueryString, request: APIRequest,
                          access: AccessTokens.Access, reach: TokenReach?) async throws -> APIResponse {
        switch (method, route) {
        case ("GET", .whoami): return whoami(access: access)
        case ("GET", .listBases): return .json(["bases": [["id": .string(baseID), "name": .string(baseName),
                                                            "permissionLevel": access.writes ? "create" : "read"]]])
        case ("GET", .tables): return try await tableSchemas(query: query)
        case ("POST", .tables): return try await createTable(body: request.body, reach: reach)
        case ("POST", .fields(_, let table)): return try await createField(in: table, body: request.body, reach: reach)
        case ("PATCH", .metaTable(_, let table)): return try await updateTable(table, body: request.body)
        case ("PATCH", .metaField(_, let table, let field)):
            return try await updateField(in: table, field: field, body: request.body)
        case ("GET", .baseInfo): return try await baseInfo(access: access)
        case ("GET", .comments(_, let table, let record)): return try await listComments(table, record, query: query)
        case ("POST", .comments(_, let table, let record)):
            return try await addComment(table, record, body: request.body)
        case ("PATCH", .comment(_, let table, let record, let id)):
            return try await updateComment(table, record, id: id, body: request.body)
        case ("DELETE", .comment(_, let table, let record, let id)):
            return try await deleteComment(table, record, id: id)
        case ("POST", .webhooks): return try await createWebhook(body: request.body, reach: reach)
        case ("GET", .webhooks): return try await listWebhooks()
        case ("DELETE", .webhook(_, let id)): return try await deleteWebhook(id)
        case (_, .webhookAction(_, let id, let action)):
            return try await webhookAction(id, action: action, method: method, query: query, body: request.body,
                                         reach: reach)
        case ("GET", .table(_, let table)): return try await list(table, ListParameters.fromQuery(query), reach: reach)
        case ("POST", .listRecords(_, let table)):
            return try await list(table, ListParameters.fromBody(try parseBody(request.body, emptyAs: [:]), query: query),
                                  reach: reach)
        case ("POST", .table(_, let table)): return try await create(in: table, request: request, query: query, reach: reach)
        case ("PATCH", .table(_, let table)), ("PUT", .table(_, let table)):
            return try await updateBatch(in: table, replace: method == "PUT", request: request, query: query, reach: reach)
        case ("DELETE", .table(_, let table)): return try await deleteBatch(in: table, query: query)
        case ("GET", .record(_, let table, let id)): return try await get(table, id: id, query: query, reach: reach)
        case ("PATCH", .record(_, let table, let id)), ("PUT", .record(_, let table, let id)):
            return try await updateOne(table, id: id, replace: method == "PUT", request: request, query: query,
                                       reach: reach)
        case ("DELETE", .record(_, let table, let id)): return try await deleteOne(table, id: id, query: query)
        default: return .error(.notFound)
        }
    }

    /// Starts pinging the webhooks that have new payloads, in a task of its own that the request
    /// does not wait for; the task is returned so tests can.
    @discardableResult
    func notifyWebhooks() -> Task<Void, Never> {
        let (store, notifier, baseID, receivers) = (store, notifier, baseID, webhookReceivers)
        return Task.detached {
            guard let notifier, let hooks = store as? any WebhookStore else { return }
            await notifier.notify(store: hooks, baseID: baseID, receivers: receivers)
        }
    }

    // MARK: - Helpers

    /// A record as the API returns it, with `commentCount` when the listing asked for it.
    func render(_ record: Record, commentCount: Int? = nil) -> JSONValue {
        guard let commentCount, case .object(var object) = record.json else { return record.json }
        object["commentCount"] = .number(Double(commentCount))
        return .object(object)
    }

    func parseBody(_ bytes: [UInt8], emptyAs empty: JSONValue) throws(APIError) -> JSONValue {
        if isBlank(bytes) { return empty }
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw .invalidJSON(error.description)
        }
    }

    /// Whether a body is empty or only white space (what clients send when they send "nothing").
    private func isBlank(_ bytes: [UInt8]) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }

    func refuseQuery(_ query: QueryString) throws(APIError) {
        if let first = query.items.first { throw .invalidRequest("unknown query parameter \"\(first.name)\"") }
    }

    private func split(_ target: String) -> (Substring, String) {
        guard let mark = target.firstIndex(of: "?") else { return (target[...], "") }
        return (target[..<mark], String(target[target.index(after: mark)...]))
    }

    /// What `access` reaches of the base, or nil when it reaches everything (a read-write token, or a server
    /// that keeps no table apart). Read from the store's schema for every request, so a table renamed or
    /// added meanwhile is judged as it is now; a schema that cannot be read refuses the request.
    private func reach(of access: AccessTokens.Access) async throws -> TokenReach? {
        guard !access.isFull, !tableScopes.scopeByTable.isEmpty else { return nil }
        return TokenReach(schema: try await store.schema(), access: access, scopes: tableScopes)
    }

    /// Why `access` may not make this request (the scope it lacks), or nil when it may. A table kept apart
    /// (`tableScopes`) needs its own scope besides Airtable's, however the path names it (`TokenReach`).
    private func refusal(of access: AccessTokens.Access, route: Route, writes: Bool, reach: TokenReach?) -> APIError? {
        typealias Scope = AccessTokens.Scope
        let needed: String?, table: String?
        switch route {
        case .whoami: (needed, table) = (nil, nil)
        case .listBases, .tables, .baseInfo: (needed, table) = (writes ? Scope.schemaWrite : Scope.schemaRead, nil)
        case .fields(_, let name), .metaTable(_, let name), .metaField(_, let name, _):
            (needed, table) = (writes ? Scope.schemaWrite : Scope.schemaRead, name)
        case .comments(_, let name, _), .comment(_, let name, _, _):
            (needed, table) = (writes ? Scope.commentsWrite : Scope.commentsRead, name)
        case .webhooks, .webhook, .webhookAction: (needed, table) = (Scope.webhookManage, nil)
        case .table(_, let name), .listRecords(_, let name), .record(_, let name, _):
            (needed, table) = (writes ? Scope.recordsWrite : Scope.recordsRead, name)
        }
        // Airtable's own answer, word for word, for a scope of its own the token lacks.
        if let needed, !access.allows(needed) { return .invalidPermissions }
        guard let table, let reach else { return nil }
        return reach.refusal(table: table, writes: writes)
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
        case .transport(let detail), .decoding(let detail), .localStore(let detail):
            return APIError(status: 502, type: "BAD_GATEWAY", message: "The base behind this server failed: \(detail)")
        case .localFile(let failure):
            return APIError(status: 502, type: "BAD_GATEWAY", message: "The base behind this server failed: \(failure)")
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
