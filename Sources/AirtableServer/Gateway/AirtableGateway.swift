import Airtable
import AirtableHTTP
import Foundation
import Synchronization

/// Airtable's API for one base, served by forwarding to the real one (`drinkshop serve --upstream URL
/// --base appX`), so that the counters of a shop on several machines spend one rate budget:
///
/// - counters authenticate with the gateway's own tokens; the upstream token replaces them and is only
///   ever sent upstream;
/// - every upstream request waits for its turn in one `RequestThrottle` (with a pacing file, shared with
///   every drinkshop process of this machine); a request that would wait longer than
///   `maximumQueueWait` is answered 503 with `Retry-After` instead, before the counter's own timeout;
/// - a token must reach every table the program keeps apart (`GatewayConfiguration.tableScopes`): upstream, the
///   base's token reaches them all, so a token kept from one is refused whole rather than trusted to the path;
/// - writes go upstream one at a time, in the order they arrived;
/// - plain listings of the cached tables (Drink and Promotion by default) are answered from
///   `GatewayReadCache`, which costs at most one small request per table every `checkInterval`;
/// - the upstream's answers, errors included, are passed back unchanged (with the keys an upstream `drinkshop
///   serve` says it keeps unique, `UniqueKeys.header`); a 429 holds the budget for its
///   `Retry-After` and the request is sent again when that fits in the queue wait;
/// - when the upstream cannot be reached the answer is 503 at once (and for `unreachablePause` seconds
///   without trying), so a client that keeps its writes meanwhile is not held up (`unreachableNote` says so).
public final class AirtableGateway: Sendable {
    public let configuration: GatewayConfiguration
    let tokens: AccessTokens
    let transport: any HTTPTransport
    let clock: any ClientClock
    let throttle: RequestThrottle
    let wallClock: @Sendable () -> Double
    let cache: GatewayReadCache
    let lane = WriteLane()
    /// Set when the upstream can reach the gateway (`publicURL`): see `GatewayWebhooks`.
    let webhooks: GatewayWebhooks?
    /// Set when the gateway holds updates of some tables (`HeldWrites`, `AirtableGateway+HeldWrites`).
    let held: HeldWrites?
    /// The keys and guards the base's last answer named, for answers the gateway gives from its copy.
    let lastRelayedHeaders = Mutex<[(name: String, value: String)]>([])
    let unreachableUntil = Mutex(-Double.infinity)
    let statistics = Mutex(GatewayStatistics())

    public init(configuration: GatewayConfiguration, tokens: AccessTokens, throttle: RequestThrottle,
                transport: any HTTPTransport, clock: any ClientClock = MonotonicClock(),
                wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }, held: HeldWrites? = nil) {
        self.held = held
        self.configuration = configuration
        self.tokens = tokens
        self.throttle = throttle
        self.transport = transport
        self.clock = clock
        self.wallClock = wallClock
        cache = GatewayReadCache(checkInterval: configuration.checkInterval, maximumAge: configuration.maximumAge)
        webhooks = configuration.publicURL.map(GatewayWebhooks.init(publicURL:))
    }

    /// What the gateway did so far.
    public var counts: GatewayStatistics { statistics.withLock { $0 } }

    /// Answers one request. Never throws; every failure is an Airtable-shaped answer.
    public func handle(_ request: APIRequest) async -> APIResponse {
        let method = request.method.uppercased()
        // The upstream's webhook pings carry its signature, not a token.
        if webhooks != nil, AirtableGateway.split(request.target).0 == GatewayWebhooks.pingPath {
            return await receivePing(request)
        }
        guard let token = AccessTokens.bearer(request.header("Authorization")),
              let access = tokens.access(for: token)
        else { return .error(.authenticationRequired) }
        let (path, query) = AirtableGateway.split(request.target)
        guard let route = Route(path: path[...]), route.base == configuration.baseID else {
            return .error(.notFound)
        }
        let writes = !(method == "GET" || method == "HEAD" || { if case .listRecords = route { return true } else { return false } }())
        if writes && !access.writes { return .error(.invalidPermissions) }
        // Everything goes upstream under the base's own token, which reaches every table: a gateway token kept
        // from a table (`TableScopes`) cannot be held to it here, whatever the path spells, so it is not served.
        let kept = configuration.tableScopes.scopeByTable.values.sorted()
        if let lacking = (kept.map { $0 + ":read" } + (writes ? kept.map { $0 + ":write" } : [])).first(where: { !access.allows($0) }) {
            return .error(.invalidPermissions("this gateway serves only tokens that reach every table (this one lacks "
                + "\(lacking)); a token kept from some tables is for `drinkshop serve` on the shop's own base"))
        }
        let upstream = TransportRequest(method: method, url: configuration.upstream + request.target,
                                        headers: upstreamHeaders(request), body: request.body.isEmpty ? nil : request.body)
        // A held table's copy answers while the base is away too (what needs the base finds out itself).
        if let table = heldTable(route) {
            return await handleHeld(request, route: route, table: table, method: method, query: query, upstream: upstream)
        }
        if clock.now() < unreachableUntil.withLock({ $0 }) { return unreachable("it did not answer moments ago") }

        if let table = heldSpelling(route) {
            // The held table by another name: what it holds goes first, and the copy is read again after a write.
            return await lane.run {
                let answer = await self.sendHeldThenForward(upstream, table: table, method: method, absorbing: false)
                if writes { self.reload(table) }
                return answer
            }
        }
        if case .table(_, let table) = route {
            if writes {
                let answer = await lane.run { await self.forward(upstream) }
                await cache.forget(table: table)
                return answer
            }
            if configuration.cachedTables.contains(table), !query.contains("offset=") {
                return await cachedRead(upstream, table: table, target: request.target)
            }
        }
        if writes {
            let answer = await lane.run { await self.forward(upstream) }
            if case .record(_, let table, _) = route { await cache.forget(table: table) }
            return answer
        }
        return await forward(upstream)
    }

    // MARK: - Reads from the cache

    private func cachedRead(_ request: TransportRequest, table: String, target: String) async -> APIResponse {
        let base = configuration.baseID
        if let kept = await cache.answer(table: table, target: target, now: clock.now(), changedSince: { since in
            await self.changed(table: table, base: base, since: since)
        }) {
            statistics.withLock { $0.answeredFromCache += 1 }
            return kept
        }
        return await cache.sharedLoad(target: target) {
            let readAt = self.wallClock()
            let answer = await self.forward(request)
            await self.cache.keep(answer, table: table, target: target, now: self.clock.now(),
                                  wallRead: answer.headerValue("Date").flatMap(AirtableGateway.httpDate) ?? readAt)
            return answer
        }
    }

    /// One small request: the first record of `table` modified after `since`. True when there is one, or
    /// when the question could not be answered.
    private func changed(table: String, base: String, since: Double) async -> Bool {
        statistics.withLock { $0.freshnessChecks += 1 }
        let stamp = AirtableTimestamp.format(Date(timeIntervalSince1970: since))
        let formula = "IS_AFTER(LAST_MODIFIED_TIME(), '\(stamp)')"
        let query = PercentEncoding.query([("pageSize", "1"), ("filterByFormula", formula)])
        let url = configuration.upstream + "/v0/" + PercentEncoding.encode(base) + "/" + PercentEncoding.encode(table)
            + "?" + query
        let answer = await forward(TransportRequest(method: "GET", url: url, headers: upstreamHeaders(nil)))
        guard answer.status == 200, let json = try? JSONParser.parse(answer.body),
              case .array(let records)? = json["records"] else { return true }
        return !records.isEmpty
    }

    // MARK: - Forwarding

    /// Sends one request upstream in its turn; the upstream's answer, or a 503/504 of the gateway's own.
    func forward(_ request: TransportRequest) async -> APIResponse {
        var retriedAfter429 = false
        while true {
            guard let slot = await throttle.reserveSlot(at: clock.now(), within: configuration.maximumQueueWait) else {
                statistics.withLock { $0.turnedAway += 1 }
                return .error(APIError(status: 503, type: "GATEWAY_BUSY",
                                       message: "More requests are waiting for the base's rate limit than can be sent "
                                           + "within \(Int(configuration.maximumQueueWait)) s; try again shortly"),
                              retryAfter: 1)
            }
            do { try await clock.sleep(until: slot) } catch { return unreachable("the request was cancelled") }
            let response: TransportResponse
            do {
                statistics.withLock { $0.forwarded += 1 }
                response = try await transport.send(request, timeout: configuration.upstreamTimeout)
            } catch {
                switch error.kind {
                case .notSent:
                    let until = clock.now() + configuration.unreachablePause
                    unreachableUntil.withLock { $0 = max($0, until) }
                    return unreachable(error.detail)
                case .timedOut, .interrupted, .cancelled:
                    return .error(APIError(status: 504, type: "GATEWAY_TIMEOUT",
                                           message: "The base \(configuration.baseID) did not answer the gateway: "
                                               + "\(error.detail); the request may or may not have been applied"))
                }
            }
            if response.status == 429 {
                statistics.withLock { $0.upstream429 += 1 }
                let wait = RetryPolicy.retryAfterSeconds(response.header("Retry-After")) ?? 30
                await throttle.holdEveryone(until: clock.now() + wait, now: clock.now())
                // Airtable refused it, so it was not applied: send it again if the wait fits in the queue.
                if !retriedAfter429 && wait <= configuration.maximumQueueWait {
                    retriedAfter429 = true
                    continue
                }
            }
            var headers: [(name: String, value: String)] = []
            for name in ["content-type", "retry-after", "date"] {
                if let value = response.header(name) { headers.append((name: name.capitalizedHeader, value: value)) }
            }
            // The keys an upstream `drinkshop serve` keeps unique hold for what goes through the gateway too (its
            // writes go upstream as sent): the counters behind it pay and claim under them, as counters there do.
            if let value = response.header(UniqueKeys.header) { headers.append((name: UniqueKeys.header, value: value)) }
            // Likewise the rules it checks in a create's commit (`CreateGuard`): they hold for creates sent through.
            if let value = response.header(CreateGuards.header) { headers.append((name: CreateGuards.header, value: value)) }
            let promises = headers.filter { $0.name == UniqueKeys.header || $0.name == CreateGuards.header }
            lastRelayedHeaders.withLock { $0 = promises }
            return APIResponse(status: response.status, headers: headers, body: response.body)
        }
    }

    func unreachable(_ detail: String) -> APIResponse {
        statistics.withLock { $0.unreachable += 1 }
        let host = configuration.upstream.split(separator: "/").dropFirst().first.map(String.init) ?? configuration.upstream
        return .error(APIError(status: 503, type: "UPSTREAM_UNREACHABLE",
                               message: "The gateway cannot reach \(host) (\(detail))"
                                   + (configuration.unreachableNote.map { "; " + $0 } ?? "")),
                      retryAfter: Int(configuration.unreachablePause.rounded(.up)))
    }

    func upstreamHeaders(_ request: APIRequest?) -> [String: String] {
        var headers = ["Authorization": configuration.upstreamToken.bearerHeader, "Accept": "application/json",
                       "User-Agent": configuration.userAgent]
        if let request, !request.body.isEmpty {
            headers["Content-Type"] = request.header("Content-Type") ?? "application/json"
        }
        return headers
    }

    static func split(_ target: String) -> (String, String) {
        guard let mark = target.firstIndex(of: "?") else { return (target, "") }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }

    /// An HTTP date (`Tue, 01 Dec 2026 15:04:05 GMT`) as seconds since 1970.
    static func httpDate(_ text: String) -> Double? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)?.timeIntervalSince1970
    }
}

/// Counts of what the gateway did, for its log line at exit and for tests.
public struct GatewayStatistics: Sendable, Equatable {
    public var forwarded = 0
    public var answeredFromCache = 0
    public var freshnessChecks = 0
    public var turnedAway = 0
    public var unreachable = 0
    public var upstream429 = 0
    /// Webhook pings from the upstream that dropped a cached table.
    public var webhookPings = 0
    /// Record updates answered from the gateway's copy and held (`HeldWrites`).
    public var heldWrites = 0
    /// Requests that sent held writes to the base (ten records at most each).
    public var heldBatches = 0
    /// Held writes the base refused when they were sent (dropped, logged).
    public var heldRefused = 0
    /// Reads of a held table answered from the gateway's copy.
    public var answeredFromCopy = 0
    /// Times the copy of a held table was filled from the base.
    public var copyFills = 0
}

extension APIResponse {
    func headerValue(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

private extension String {
    /// `content-type` → `Content-Type`.
    var capitalizedHeader: String {
        split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }
}
