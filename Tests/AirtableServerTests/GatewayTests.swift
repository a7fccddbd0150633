import Airtable
import AirtableHTTP
import Foundation
import Synchronization
import TestSupport
import Testing
@testable import AirtableServer

/// The upstream: records each request with the time it arrived and answers from a script.
private final class UpstreamStub: HTTPTransport {
    typealias Answer = @Sendable (TransportRequest, Int) throws(TransportError) -> TransportResponse
    private let seen = Mutex<[(TransportRequest, Double)]>([])
    private let clock: TestClock
    private let answer: Answer

    init(clock: TestClock, answer: @escaping Answer) {
        self.clock = clock
        self.answer = answer
    }

    func send(_ request: TransportRequest, timeout: Double) async throws(TransportError) -> TransportResponse {
        let index = seen.withLock { list in
            list.append((request, clock.seconds))
            return list.count - 1
        }
        return try answer(request, index)
    }

    var requests: [TransportRequest] { seen.withLock { $0.map(\.0) } }
    var times: [Double] { seen.withLock { $0.map(\.1) } }
}

@Suite("The gateway: one base, one budget, a cache for the menu")
struct GatewayTests {
    private let counterToken = "patCOUNTER000000000000000"
    private let upstreamToken = "patUPSTREAM00000000000000"

    /// A gateway on the test clock; `frozen`: its sleeps return at once without moving time, so
    /// reservations pile up as they would while requests queue.
    private func gateway(_ stub: UpstreamStub, clock: TestClock, frozen: Bool = false, rate: Double = 5,
                         burst: Int = 3, queueWait: Double = 8) throws -> AirtableGateway {
        let token = try #require(AccessToken(upstreamToken))
        let configuration = GatewayConfiguration(upstream: "https://api.example.test/", baseID: "appBASE",
                                                 upstreamToken: token, cachedTables: ["Drink", "Promotion"], checkInterval: 5, maximumAge: 60,
                                                 maximumQueueWait: queueWait)
        return AirtableGateway(configuration: configuration, tokens: AccessTokens([(counterToken, .readWrite)]),
                               throttle: RequestThrottle(requestsPerSecond: rate, burst: burst), transport: stub,
                               clock: frozen ? clock.frozenClient : clock.client,
                               wallClock: { clock.now.timeIntervalSince1970 })
    }

    private func request(_ method: String, _ target: String, body: String = "") -> APIRequest {
        APIRequest(method: method, target: target, headers: [("Authorization", "Bearer \(counterToken)")],
                   body: Array(body.utf8))
    }

    private static let empty = TransportResponse(status: 200, headers: ["Content-Type": "application/json"],
                                                 body: Array(#"{"records":[]}"#.utf8))

    @Test("requests go upstream with the base's token, and Airtable's answers come back byte for byte")
    func forwardsUnchanged() async throws {
        let clock = TestClock(seconds: 100)
        let refusal = Array(#"{"error":{"type":"INVALID_VALUE_FOR_COLUMN","message":"Field \"price\" cannot accept \"x\""}}"#.utf8)
        let stub = UpstreamStub(clock: clock) { _, _ in
            TransportResponse(status: 422, headers: ["Content-Type": "application/json; charset=utf-8"], body: refusal)
        }
        let gateway = try gateway(stub, clock: clock)
        let answer = await gateway.handle(request("PATCH", "/v0/appBASE/OrderDrink", body: #"{"records":[]}"#))
        #expect(answer.status == 422)
        #expect(answer.body == refusal)
        let sent = try #require(stub.requests.first)
        #expect(sent.url == "https://api.example.test/v0/appBASE/OrderDrink")
        #expect(sent.headers["Authorization"] == "Bearer \(upstreamToken)")
        #expect(sent.bodyText == #"{"records":[]}"#)

        // Without the gateway's token, or for another base, nothing goes upstream.
        let stranger = await gateway.handle(APIRequest(method: "GET", target: "/v0/appBASE/Drink"))
        #expect(stranger.status == 401)
        let otherBase = await gateway.handle(request("GET", "/v0/appOTHER/Drink"))
        #expect(otherBase.status == 404)
        #expect(stub.requests.count == 1)
    }

    @Test("a token kept from some tables is not served: upstream the base's token reaches them all, whatever the path spells")
    func scopedTokensRefused() async throws {
        let clock = TestClock(seconds: 100)
        let stub = UpstreamStub(clock: clock) { _, _ in Self.empty }
        let token = try #require(AccessToken(upstreamToken))
        var configuration = GatewayConfiguration(upstream: "https://api.example.test", baseID: "appBASE", upstreamToken: token)
        configuration.tableScopes = TableScopes(["User": "drinkshop.staff", "TillPayment": "drinkshop.till"])
        let reader = "patREADER0000000000000000", orders = "patORDERS0000000000000000", staff = "patSTAFF00000000000000000"
        let gateway = AirtableGateway(
            configuration: configuration,
            tokens: AccessTokens([(reader, .read), (orders, AccessTokens.Access(scopes: ["data.records:read", "data.records:write"])),
                                  (staff, AccessTokens.Access(scopes: ["data.records:read", "drinkshop.staff:read", "drinkshop.till:read"])),
                                  (counterToken, .readWrite)]),
            throttle: RequestThrottle(requestsPerSecond: 100, burst: 100), transport: stub, clock: clock.client)
        func ask(_ token: String, _ method: String, _ target: String) async -> Int {
            await gateway.handle(APIRequest(method: method, target: target, headers: [("Authorization", "Bearer \(token)")],
                                            body: method == "GET" ? [] : Array(#"{"records":[]}"#.utf8))).status
        }
        for target in ["/v0/appBASE/User", "/v0/appBASE/user", "/v0/appBASE/tblUSERS000000000", "/v0/appBASE/Drink",
                       "/v0/meta/bases/appBASE/tables"] {
            #expect(await ask(reader, "GET", target) == 403)
            #expect(await ask(orders, "GET", target) == 403)
        }
        #expect(await ask(orders, "PATCH", "/v0/appBASE/OrderDrink") == 403)
        #expect(stub.requests.isEmpty)
        // Every table's read scope: reads go through; writes need every write scope too.
        #expect(await ask(staff, "GET", "/v0/appBASE/User") == 200)
        #expect(await ask(staff, "PATCH", "/v0/appBASE/OrderDrink") == 403)
        #expect(await ask(counterToken, "PATCH", "/v0/appBASE/OrderDrink") == 200)
        #expect(stub.requests.count == 2)
    }

    @Test("the keys an upstream drinkshop serve keeps unique, and the create guards it holds, are passed on, so counters behind the gateway pay under them")
    func passesOnTheUpstreamsUniqueKeys() async throws {
        let clock = TestClock(seconds: 100)
        let stub = UpstreamStub(clock: clock) { _, _ in
            TransportResponse(status: 200, headers: ["content-type": "application/json",
                                                     UniqueKeys.header.lowercased(): "PickupTicket.key,TillPayment.ref",
                                                     CreateGuards.header.lowercased(): "TillPayment.orderNotCancelled"],
                              body: Array(#"{"records":[]}"#.utf8))
        }
        let gateway = try gateway(stub, clock: clock)
        let answer = await gateway.handle(request("GET", "/v0/appBASE/TillPayment"))
        let said = answer.headers.first { $0.name.lowercased() == UniqueKeys.header.lowercased() }?.value
        #expect(said.map { UniqueKeys(header: $0).contains(field: "ref", in: "TillPayment") } == true)
        let guards = answer.headers.first { $0.name.lowercased() == CreateGuards.header.lowercased() }?.value
        #expect(guards.map(CreateGuards.names(header:)) == ["TillPayment.orderNotCancelled"])
        // Airtable says none: none is passed on (its counters keep the claim rule's read-back).
        let plain = try self.gateway(UpstreamStub(clock: clock) { _, _ in Self.empty }, clock: clock)
        let none = await plain.handle(request("GET", "/v0/appBASE/TillPayment"))
        #expect(!none.headers.contains { $0.name.lowercased() == UniqueKeys.header.lowercased() })
        #expect(!none.headers.contains { $0.name.lowercased() == CreateGuards.header.lowercased() })
    }

    @Test("menu listings come from the cache, checked with one small request at most every 5 s")
    func cachedMenu() async throws {
        let clock = TestClock(seconds: 100)
        let changed = Mutex(false)
        let menu = TransportResponse(status: 200, headers: ["Content-Type": "application/json"],
                                     body: Array(#"{"records":[{"id":"rec1","createdTime":"2026-12-01T00:00:00.000Z","fields":{"name":"熟成紅茶"}}]}"#.utf8))
        let stub = UpstreamStub(clock: clock) { request, _ in
            if request.url.contains("LAST_MODIFIED_TIME") {
                return changed.withLock { $0 } ? menu : GatewayTests.empty
            }
            return menu
        }
        let gateway = try gateway(stub, clock: clock)
        for _ in 0..<5 {
            let answer = await gateway.handle(request("GET", "/v0/appBASE/Drink?pageSize=100"))
            #expect(answer.body == menu.body)
        }
        #expect(stub.requests.count == 1)

        clock.advance(by: 6)
        _ = await gateway.handle(request("GET", "/v0/appBASE/Drink?pageSize=100"))
        _ = await gateway.handle(request("GET", "/v0/appBASE/Drink?pageSize=100"))
        #expect(stub.requests.count == 2)
        let check = try #require(stub.requests.last)
        #expect(check.url.contains("pageSize=1&filterByFormula=IS_AFTER%28LAST_MODIFIED_TIME%28%29"))

        // A record changed upstream: the next check sees it and the menu is read again.
        changed.withLock { $0 = true }
        clock.advance(by: 6)
        _ = await gateway.handle(request("GET", "/v0/appBASE/Drink?pageSize=100"))
        #expect(stub.requests.count == 4)

        // A write to the table through the gateway drops the cached answers at once.
        _ = await gateway.handle(request("PATCH", "/v0/appBASE/Drink", body: #"{"records":[]}"#))
        _ = await gateway.handle(request("GET", "/v0/appBASE/Drink?pageSize=100"))
        #expect(stub.requests.count == 6)
        // Tables that are not cached always go upstream.
        _ = await gateway.handle(request("GET", "/v0/appBASE/OrderDrink"))
        _ = await gateway.handle(request("GET", "/v0/appBASE/OrderDrink"))
        #expect(stub.requests.count == 8)
    }

    @Test("a 429 holds the budget for its Retry-After and the request is sent again")
    func rateLimitedUpstream() async throws {
        let clock = TestClock(seconds: 100)
        let stub = UpstreamStub(clock: clock) { _, index in
            index == 0 ? TransportResponse(status: 429, headers: ["Retry-After": "2"],
                                           body: Array(#"{"errors":[{"error":"RATE_LIMIT_REACHED"}]}"#.utf8))
                : GatewayTests.empty
        }
        let gateway = try gateway(stub, clock: clock)
        let answer = await gateway.handle(request("PATCH", "/v0/appBASE/OrderDrink", body: #"{"records":[]}"#))
        #expect(answer.status == 200)
        #expect(stub.times.count == 2)
        #expect(stub.times[1] - stub.times[0] >= 2)
        #expect(gateway.counts.upstream429 == 1)
    }

    @Test("an unreachable upstream is answered 503 at once, and for a moment without trying again")
    func unreachableUpstream() async throws {
        let clock = TestClock(seconds: 100)
        let stub = UpstreamStub(clock: clock) { _, _ throws(TransportError) in
            throw TransportError(.notSent, "could not connect to api.example.test (is the server running?)")
        }
        let gateway = try gateway(stub, clock: clock)
        let first = await gateway.handle(request("GET", "/v0/appBASE/OrderDrink"))
        let second = await gateway.handle(request("POST", "/v0/appBASE/OrderDrink", body: #"{"records":[]}"#))
        #expect(first.status == 503)
        #expect(second.status == 503)
        #expect(String(decoding: first.body, as: UTF8.self).contains("UPSTREAM_UNREACHABLE"))
        #expect(stub.requests.count == 1)
        clock.advance(by: 3)
        _ = await gateway.handle(request("GET", "/v0/appBASE/OrderDrink"))
        #expect(stub.requests.count == 2)
    }

    @Test("requests beyond what the budget sends within the queue wait are turned away busy, not queued")
    func busyWhenTheQueueIsLong() async throws {
        let clock = TestClock(seconds: 100)
        let stub = UpstreamStub(clock: clock) { _, _ in GatewayTests.empty }
        let gateway = try gateway(stub, clock: clock, frozen: true, rate: 1, burst: 1, queueWait: 2)
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(await gateway.handle(request("GET", "/v0/appBASE/OrderDrink")).status) }
        #expect(statuses == [200, 200, 200, 503, 503])
        #expect(stub.requests.count == 3)
    }

    @Test("the write lane runs one job at a time")
    func writesOneAtATime() async {
        final class Running: Sendable { let state = Mutex((now: 0, most: 0)) }
        let lane = WriteLane()
        let running = Running()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    await lane.run {
                        running.state.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        try? await Task.sleep(for: .milliseconds(2))
                        running.state.withLock { $0.now -= 1 }
                    }
                }
            }
        }
        #expect(running.state.withLock { $0.most } == 1)
    }
}
