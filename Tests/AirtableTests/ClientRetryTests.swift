import Airtable
import AirtableHTTP
import Foundation
import Testing
import TestSupport

/// Pacing, retries and deadlines, on a clock that moves only when the client waits.
@Suite struct ClientRetryTests {
    private static let page = ClientFixture.json(["records": []])
    private static let rateLimited = ClientFixture.json(
        ["error": ["type": "RATE_LIMIT_REACHED", "message": "Rate limit exceeded. Please try again later"]], status: 429)
    private static let unavailable = ClientFixture.json(
        ["error": ["type": "RETRIABLE_ERROR", "message": "Server encountered an error"]], status: 503)

    /// A transport answering with `script` in turn (the last answer repeats).
    private func scripted(_ clock: TestClock, _ script: [Result<TransportResponse, TransportError>]) -> StubTransport {
        StubTransport(clock: clock) { _, index throws(TransportError) in
            try script[min(index, script.count - 1)].get()
        }
    }

    @Test func a429WaitsForRetryAfterThenRetries() async throws {
        let clock = TestClock()
        let transport = scripted(clock, [.success(Self.rateLimited.with(header: "Retry-After", "2")), .success(Self.page)])
        _ = try await ClientFixture.client(transport, clock: clock).listRecords(in: "Drink", query: ListQuery())
        #expect(transport.sendTimes == [0, 2])
    }

    @Test func a429WithoutRetryAfterWaitsTheConfiguredTime() async throws {
        let clock = TestClock()
        let transport = scripted(clock, [.success(Self.rateLimited), .success(Self.page)])
        let defaults = ClientFixture.client(transport, clock: clock)
        _ = try await defaults.listRecords(in: "Drink", query: ListQuery())
        #expect(transport.sendTimes == [0, 30])

        let quickClock = TestClock()
        let quick = scripted(quickClock, [.success(Self.rateLimited), .success(Self.page)])
        _ = try await ClientFixture.client(quick, clock: quickClock, retry: RetryPolicy(rateLimitWait: 7))
            .listRecords(in: "Drink", query: ListQuery())
        #expect(quick.sendTimes == [0, 7])
    }

    @Test func theMonthlyQuota429IsNotRetriedAndKeepsItsType() async throws {
        let clock = TestClock()
        let overQuota = ClientFixture.json(["error": ["type": "PUBLIC_API_BILLING_LIMIT_EXCEEDED",
                                                      "message": "Monthly API call limit exceeded"]], status: 429)
        let transport = scripted(clock, [.success(overQuota), .success(Self.page)])
        do {
            _ = try await ClientFixture.client(transport, clock: clock).listRecords(in: "Drink", query: ListQuery())
            Issue.record("an over-quota base answered")
        } catch {
            #expect(error.isOverQuota)
            #expect(error.isRateLimited)
        }
        #expect(transport.sendTimes == [0])
    }

    @Test func a429HoldsTheOtherRequestsOfTheProcessToo() async throws {
        let clock = TestClock()
        let transport = scripted(clock, [.success(Self.rateLimited.with(header: "Retry-After", "5")), .success(Self.page)])
        let throttle = RequestThrottle(requestsPerSecond: 5, burst: 3)
        let first = AirtableClient(configuration: ClientFixture.configuration(retry: RetryPolicy(maximumAttempts: 1)),
                                   transport: transport, clock: clock.client, throttle: throttle)
        await #expect(throws: AirtableError.rateLimited(retryAfter: 5)) {
            _ = try await first.listRecords(in: "Drink", query: ListQuery())
        }
        let second = AirtableClient(configuration: ClientFixture.configuration(), transport: transport, clock: clock.client,
                                    throttle: throttle)
        _ = try await second.listRecords(in: "Promotion", query: ListQuery())
        #expect(transport.sendTimes == [0, 5])
    }

    @Test("a counter that can keep the order hands a 429 back at once instead of waiting out the base's penalty")
    func aCounterHandsA429BackAtOnce() async throws {
        let clock = TestClock()
        let transport = scripted(clock, [.success(Self.rateLimited.with(header: "Retry-After", "30")), .success(Self.page)])
        let counter = ClientFixture.client(transport, clock: clock, retry: RetryPolicy(longestHeldWait: 3))
        await #expect(throws: AirtableError.rateLimited(retryAfter: 30)) {
            _ = try await counter.listRecords(in: "Drink", query: ListQuery())
        }
        #expect(transport.sendTimes == [0])
        #expect(clock.waits.allSatisfy { $0 == 0 }, "the counter waited \(clock.waits)")

        // A penalty within the counter's patience is still waited out and the request retried.
        let shortClock = TestClock()
        let short = scripted(shortClock, [.success(Self.rateLimited.with(header: "Retry-After", "1")), .success(Self.page)])
        _ = try await ClientFixture.client(short, clock: shortClock, retry: RetryPolicy(longestHeldWait: 3))
            .listRecords(in: "Drink", query: ListQuery())
        #expect(short.sendTimes == [0, 1])
    }

    @Test("while the base is held after another request's 429, a counter's request is handed back unsent and reserves no turn")
    func aCounterDoesNotQueueBehindAHold() async throws {
        let clock = TestClock()
        let transport = scripted(clock, [.success(Self.rateLimited.with(header: "Retry-After", "30")), .success(Self.page)])
        let throttle = RequestThrottle(requestsPerSecond: 5, burst: 3)
        let batch = AirtableClient(configuration: ClientFixture.configuration(retry: RetryPolicy(maximumAttempts: 1)),
                                   transport: transport, clock: clock.client, throttle: throttle)
        await #expect(throws: AirtableError.rateLimited(retryAfter: 30)) {
            _ = try await batch.listRecords(in: "Drink", query: ListQuery())
        }
        let counter = AirtableClient(configuration: ClientFixture.configuration(retry: RetryPolicy(longestHeldWait: 3)),
                                     transport: transport, clock: clock.client, throttle: throttle)
        await #expect(throws: AirtableError.rateLimited(retryAfter: nil)) {
            _ = try await counter.listRecords(in: "Promotion", query: ListQuery())
        }
        #expect(transport.requests.count == 1)
        // Once the hold has passed the counter is served at once: its refused tries took no turn.
        clock.advance(by: 30)
        _ = try await counter.listRecords(in: "Promotion", query: ListQuery())
        #expect(transport.sendTimes == [0, 30])
    }

    @Test func transientServerErrorsBackOffExponentiallyWithJitter() async throws {
        for (unit, expected) in [(0.0, [0.25, 0.5, 1.0]), (1.0, [0.5, 1.0, 2.0])] {
            let clock = TestClock()
            let transport = scripted(clock, [.success(Self.unavailable), .success(Self.unavailable.with(status: 502)),
                                             .success(Self.unavailable.with(status: 504)), .success(Self.page)])
            let client = ClientFixture.client(transport, clock: clock, randomUnit: { unit })
            _ = try await client.listRecords(in: "Drink", query: ListQuery())
            #expect(clock.waits == expected)
            #expect(transport.requests.count == 4)
        }
    }

    @Test func a503RetryAfterIsHonoured() async throws {
        let clock = TestClock()
        let transport = scripted(clock, [.success(Self.unavailable.with(header: "Retry-After", "3")), .success(Self.page)])
        _ = try await ClientFixture.client(transport, clock: clock).listRecords(in: "Drink", query: ListQuery())
        #expect(transport.sendTimes == [0, 3])
    }

    @Test func attemptsAreBounded() async throws {
        let clock = TestClock()
        let transport = scripted(clock, [.success(Self.unavailable.with(status: 502))])
        await #expect {
            _ = try await ClientFixture.client(transport, clock: clock, retry: RetryPolicy(maximumAttempts: 4))
                .listRecords(in: "Drink", query: ListQuery())
        } throws: { error in
            (error as? AirtableError)?.apiError?.status == 502
        }
        #expect(transport.requests.count == 4)
    }

    @Test func otherErrorsAreNotRetried() async throws {
        for status in [400, 401, 403, 404, 413, 422, 500] {
            let clock = TestClock()
            let transport = scripted(clock, [.success(ClientFixture.json(["error": "NOT_FOUND"], status: status))])
            await #expect(throws: AirtableError.self) {
                _ = try await ClientFixture.client(transport, clock: clock).listRecords(in: "Drink", query: ListQuery())
            }
            #expect(transport.requests.count == 1, "status \(status)")
        }
    }

    @Test func aRequestThatNeverLeftIsSentAgainEvenACreate() async throws {
        let clock = TestClock()
        let transport = StubTransport(clock: clock) { request, index throws(TransportError) in
            if index == 0 { throw TransportError(.notSent, "could not connect to api.airtable.com") }
            return ClientFixture.echoWrites(request)
        }
        let created = try await ClientFixture.client(transport, clock: clock)
            .createRecords(in: "Drink", [["name": "紅茶"]], options: WriteOptions())
        #expect(created.count == 1)
        #expect(transport.requests.count == 2)
    }

    @Test func aCreateWhoseAnswerWasLostIsNotSentAgain() async throws {
        let clock = TestClock()
        let transport = StubTransport(clock: clock) { _, _ throws(TransportError) in
            throw TransportError(.interrupted, "the connection to api.airtable.com was lost")
        }
        await #expect {
            _ = try await ClientFixture.client(transport, clock: clock)
                .createRecords(in: "Drink", [["name": "紅茶"]], options: WriteOptions())
        } throws: { error in
            // Staff are told why the order was not sent twice, in these words.
            (error as? AirtableError) == .transport("the connection to api.airtable.com was lost during POST Drink; "
                + "it may or may not have been applied, so it was not sent again")
        }
        #expect(transport.requests.count == 1)
    }

    @Test func aGatewayTimeoutOnACreateIsNotRetriedButOnAReadItIs() async throws {
        let clock = TestClock()
        let timeout = ClientFixture.json(["error": "GATEWAY_TIMEOUT"], status: 504)
        let create = scripted(clock, [.success(timeout)])
        await #expect(throws: AirtableError.self) {
            _ = try await ClientFixture.client(create, clock: clock).createRecords(in: "Drink", [["name": "紅茶"]],
                                                                                  options: WriteOptions())
        }
        #expect(create.requests.count == 1)
        let read = scripted(clock, [.success(timeout), .success(Self.page)])
        _ = try await ClientFixture.client(read, clock: clock).listRecords(in: "Drink", query: ListQuery())
        #expect(read.requests.count == 2)
    }

    @Test func anUpsertWhoseAnswerWasLostIsSentAgain() async throws {
        let clock = TestClock()
        let transport = StubTransport(clock: clock) { request, index throws(TransportError) in
            if index == 0 { throw TransportError(.interrupted, "the connection to api.airtable.com was lost") }
            return ClientFixture.echoWrites(request)
        }
        let result = try await ClientFixture.client(transport, clock: clock).upsertRecords(
            in: "OrderDrink", [UpsertRecord(fields: ["ref": "ord1-1"])], mergeOn: ["ref"], replace: false,
            options: WriteOptions())
        #expect(result.records.count == 1)
        #expect(transport.requests.count == 2)
        #expect(transport.requests[0] == transport.requests[1])
    }

    @Test func aRepeatedDeleteThatFindsTheRecordsGoneCountsAsDone() async throws {
        let clock = TestClock()
        let transport = StubTransport(clock: clock) { _, index throws(TransportError) in
            if index == 0 { throw TransportError(.interrupted, "the connection to api.airtable.com was lost") }
            return ClientFixture.json(["error": ["type": "NOT_FOUND", "message": "Could not find a record with ID \"rec00000000000001\"."]],
                                      status: 404)
        }
        let deleted = try await ClientFixture.client(transport, clock: clock).deleteRecords(in: "OrderDrink",
                                                                                           ids: [ClientFixture.id(1)])
        #expect(deleted == [ClientFixture.id(1)])

        // Without a lost answer before it, a 404 is the caller's problem.
        let plain = StubTransport(clock: clock) { _, _ in ClientFixture.json(["error": "NOT_FOUND"], status: 404) }
        await #expect(throws: AirtableError.self) {
            _ = try await ClientFixture.client(plain, clock: clock).deleteRecords(in: "OrderDrink", ids: [ClientFixture.id(1)])
        }
    }

    @Test func theDeadlineBoundsRetriesAndIsPassedToTheTransport() async throws {
        let clock = TestClock()
        let transport = StubTransport(clock: clock) { _, _ in
            clock.advance(by: 0.75)  // each attempt takes 0.75 s on the wire
            return Self.unavailable
        }
        await #expect {
            _ = try await ClientFixture.client(transport, clock: clock, deadline: 2.5, randomUnit: { 1 })
                .listRecords(in: "Drink", query: ListQuery())
        } throws: { error in
            (error as? AirtableError)?.apiError?.status == 503
        }
        // 0 → 0.75, wait 0.5 → 1.25 → 2.0, a 1 s wait would pass 2.5: stop with the last error.
        #expect(transport.sendTimes == [0, 1.25])
        #expect(transport.timeouts == [2.5, 1.25])
        #expect(clock.seconds < 2.5)
    }

    @Test func aTransportTimeoutIsTheDeadline() async throws {
        let clock = TestClock()
        let transport = StubTransport(clock: clock) { _, _ throws(TransportError) in
            throw TransportError(.timedOut, "api.airtable.com did not answer in time")
        }
        await #expect(throws: AirtableError.timedOut(seconds: 9)) {
            _ = try await ClientFixture.client(transport, clock: clock, deadline: 9).listRecords(in: "Drink", query: ListQuery())
        }
        #expect(transport.requests.count == 1)
    }

    @Test func aStalledAttemptIsAbandonedAndRepeatedWhenSafe() async throws {
        let clock = TestClock()
        let stalling = StubTransport(clock: clock) { request, index throws(TransportError) in
            if index == 0 {
                clock.advance(by: 5)
                throw TransportError(.timedOut, "api.airtable.com did not answer in time")
            }
            return ClientFixture.echoWrites(request)
        }
        let client = ClientFixture.client(stalling, clock: clock, deadline: 60, attemptTimeout: 5, randomUnit: { 0 })
        _ = try await client.upsertRecords(in: "OrderDrink", [UpsertRecord(fields: ["ref": "ord1-1"])], mergeOn: ["ref"],
                                           replace: false, options: WriteOptions())
        #expect(stalling.timeouts == [5, 5])
        #expect(stalling.sendTimes == [0, 5.25])

        let createClock = TestClock()
        let stallingCreate = StubTransport(clock: createClock) { _, _ throws(TransportError) in
            throw TransportError(.timedOut, "api.airtable.com did not answer in time")
        }
        await #expect {
            _ = try await ClientFixture.client(stallingCreate, clock: createClock, attemptTimeout: 5)
                .createRecords(in: "Drink", [["name": "紅茶"]], options: WriteOptions())
        } throws: { error in
            "\(error)" == "cannot reach the store: no answer within 5 s during POST Drink; it may or may not have "
                + "been applied, so it was not sent again"
        }
        #expect(stallingCreate.requests.count == 1)
    }

    @Test func requestsArePacedBurstThenRate() async throws {
        let clock = TestClock()
        let transport = StubTransport(clock: clock) { _, _ in Self.page }
        let client = ClientFixture.client(transport, clock: clock, requestsPerSecond: 5, burst: 3)
        for _ in 0..<8 { _ = try await client.listRecords(in: "Drink", query: ListQuery()) }
        let expected: [Double] = [0, 0, 0, 0.2, 0.4, 0.6, 0.8, 1.0]
        #expect(zip(transport.sendTimes, expected).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test func concurrentTasksShareTheThrottle() async throws {
        let clock = TestClock()
        let transport = StubTransport(clock: clock) { _, _ in Self.page }
        let client = ClientFixture.client(transport, clock: clock, requestsPerSecond: 5, burst: 3)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10 { group.addTask { _ = try? await client.listRecords(in: "Drink", query: ListQuery()) } }
        }
        // However the tasks interleave, each of the 10 got its own slot: 3 at once, then one per 0.2 s. On
        // this clock a sleep moves time on for everyone, so a task whose slot has passed when it wakes
        // (another's sleep went further) sends later than its slot, never earlier: so the sorted send times
        // are at or after the sorted slots, one for one.
        let slots = [0.0, 0.0] + stride(from: 0.0, through: 1.4, by: 0.2).map { $0 }
        let times = transport.sendTimes.sorted()
        #expect(times.count == 10)
        #expect(zip(times, slots).allSatisfy { $0 >= $1 - 1e-9 }, "\(times)")
    }

    @Test func concurrentReservationsGetOneSlotEach() async {
        let throttle = RequestThrottle(requestsPerSecond: 5, burst: 3)
        let slots = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<10 { group.addTask { await throttle.reserveSlot(at: 0) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let expected = [0.0, 0.0] + stride(from: 0.0, through: 1.4, by: 0.2).map { $0 }
        #expect(zip(slots.sorted(), expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(slots.sorted())")
    }

    @Test func theThrottleKeepsEveryWindowWithinBurstPlusRate() {
        let throttle = RequestThrottle(requestsPerSecond: 5, burst: 3)
        var generator = SystemRandomNumberGenerator()
        var now = 0.0
        var sends: [Double] = []
        for _ in 0..<300 {
            now += Double.random(in: 0..<0.3, using: &generator)
            let send = throttle.reserve(at: now)
            #expect(send >= now)
            sends.append(send)
            now = max(now, send)
        }
        for i in sends.indices {
            for j in i..<min(sends.count, i + 20) {
                #expect(Double(j - i + 1) <= 3 + 5 * (sends[j] - sends[i]) + 1e-9)
            }
        }
    }
}

extension TransportResponse {
    func with(header name: String, _ value: String) -> TransportResponse {
        var copy = self
        copy.headers[name.lowercased()] = value
        return copy
    }

    func with(status: Int) -> TransportResponse {
        var copy = self
        copy.status = status
        return copy
    }
}
