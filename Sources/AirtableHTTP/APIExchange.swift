import Airtable
/// One request to the API, and whether it may be sent again when its answer is lost.
struct APIExchange: Sendable {
    enum Repetition: Sendable, Equatable {
        /// Applying it twice has the effect of applying it once: reads, updates by id, upserts.
        case safe
        /// It creates something; sent again only when it certainly never reached the server.
        case onlyIfNotSent
        /// A delete: repeatable, and if a repeat finds the records gone after an earlier attempt may
        /// have reached the server, the earlier attempt deleted them and `assumed` is the answer.
        case deletion(assumed: JSONValue)
    }

    var method: String
    var url: String
    var body: JSONValue?
    /// What is being done, for messages: `PATCH Drink`, `listing OrderDrink`.
    var context: String
    var repetition: Repetition
    /// Header fields beyond the ones every request carries.
    var headers: [String: String] = [:]
}

extension AirtableClient {
    /// Sends an exchange through the throttle, retrying as the policy allows, within the deadline.
    /// Returns the JSON of the successful answer.
    func perform(_ exchange: APIExchange) async throws(AirtableError) -> JSONValue {
        let deadline = clock.now() + configuration.deadline
        var headers = ["Authorization": configuration.token.bearerHeader, "Accept": "application/json",
                       "User-Agent": configuration.userAgent]
        if exchange.body != nil { headers["Content-Type"] = "application/json" }
        headers.merge(exchange.headers) { common, _ in common }
        let request = TransportRequest(method: exchange.method, url: exchange.url, headers: headers,
                                       body: exchange.body.map(JSONWriter.bytes))
        var attempt = 0
        var mayHaveApplied = false
        while true {
            attempt += 1
            let slot: Double
            if let longest = configuration.retry.longestHeldWait {
                // Nothing is reserved when the turn is further off than that: the base is held after a 429.
                guard let turn = await throttle.reserveSlot(at: clock.now(), within: longest) else {
                    throw .rateLimited(retryAfter: nil)
                }
                slot = turn
            } else {
                slot = await throttle.reserveSlot(at: clock.now())
            }
            guard slot < deadline else { throw .timedOut(seconds: configuration.deadline) }
            try await sleep(until: slot)
            let remaining = deadline - clock.now()
            guard remaining > 0 else { throw .timedOut(seconds: configuration.deadline) }

            let failure: AirtableError
            let wait: Double
            let response: TransportResponse
            let allowed = min(configuration.attemptTimeout, remaining)
            do {
                response = try await transport.send(request, timeout: allowed)
            } catch {
                var detail = error.detail
                switch error.kind {
                case .timedOut where allowed >= remaining: throw .timedOut(seconds: configuration.deadline)
                case .cancelled: throw .transport(error.detail)
                case .notSent: break
                case .interrupted, .timedOut:
                    // The request may have reached the server and been applied; only its answer is missing.
                    if error.kind == .timedOut { detail = "no answer within \(Self.seconds(allowed)) s" }
                    if exchange.repetition == .onlyIfNotSent {
                        throw .transport(detail + " during \(exchange.context); it may or may not have been "
                            + "applied, so it was not sent again")
                    }
                    mayHaveApplied = true
                }
                try await retryOrThrow(.transport(detail), after: backoff(attempt), attempt: attempt,
                                       deadline: deadline)
                continue
            }

            if let said = response.headers[UniqueKeys.header.lowercased()] {
                reportedUniqueKeys.withLock { $0 = UniqueKeys(header: said) }
            }
            // Every answer says it afresh: one without it (a server in front of Airtable, a new server) means ten.
            let batch = response.headers[WriteBatchLimit.header.lowercased()].flatMap(WriteBatchLimit.init(header:))
            reportedWriteBatch.withLock { $0 = batch ?? .airtable }
            // Said afresh on every answer too: one without it (a server that holds none, a gateway's own refusal)
            // means the client relies on none, so the safe side wins.
            let guards = response.headers[CreateGuards.header.lowercased()].map(CreateGuards.names(header:)) ?? []
            reportedCreateGuards.withLock { $0 = guards }
            switch response.status {
            case 200..<300:
                return try ResponseDecoding.json(response.body, context: exchange.context)
            case 429:
                // The monthly quota: retrying cannot help before it resets, and the caller must know which it is.
                let refusal = apiError(response)
                if refusal.type == APIError.monthlyQuotaType { throw .api(refusal) }
                let after = RetryPolicy.retryAfterSeconds(response.header("Retry-After"))
                wait = after ?? configuration.retry.rateLimitWait
                // The server now refuses this base for everyone: hold every task of the process.
                await throttle.holdEveryone(until: clock.now() + wait, now: clock.now())
                failure = .rateLimited(retryAfter: wait)
                if let longest = configuration.retry.longestHeldWait, wait > longest { throw failure }
            case let status where APIError.isGatewayFailure(status: status):
                // A gateway timeout may come after the server applied the request.
                if response.status == 504, exchange.repetition == .onlyIfNotSent { throw .api(apiError(response)) }
                failure = .api(apiError(response))
                wait = RetryPolicy.retryAfterSeconds(response.header("Retry-After")) ?? backoff(attempt)
            default:
                let error = AirtableError.api(apiError(response))
                if mayHaveApplied, error.isNotFound, case .deletion(let assumed) = exchange.repetition {
                    return assumed
                }
                throw error
            }
            try await retryOrThrow(failure, after: wait, attempt: attempt, deadline: deadline)
        }
    }

    /// Waits `wait` seconds before the next attempt, or throws `failure` when no attempt is left or
    /// the wait would run past the deadline (saying what failed beats saying time ran out).
    private func retryOrThrow(_ failure: AirtableError, after wait: Double, attempt: Int, deadline: Double)
        async throws(AirtableError)
    {
        guard attempt < configuration.retry.maximumAttempts else { throw failure }
        let resume = clock.now() + wait
        guard resume < deadline else { throw failure }
        try await sleep(until: resume)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String((value * 10).rounded() / 10)
    }

    private func backoff(_ attempt: Int) -> Double {
        configuration.retry.backoff(afterAttempt: attempt, unit: randomUnit())
    }

    private func sleep(until moment: Double) async throws(AirtableError) {
        do { try await clock.sleep(until: moment) } catch { throw .transport("the request was cancelled") }
    }

    /// The error a response carries, with the token struck from anything the server wrote.
    private func apiError(_ response: TransportResponse) -> APIError {
        var error = ResponseDecoding.apiError(status: response.status, body: response.body)
        error.type = configuration.token.redacting(error.type)
        error.message = error.message.map(configuration.token.redacting)
        return error
    }
}
