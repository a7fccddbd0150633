import Airtable
import AirtableHTTP
import AirtableURLSession
import Foundation
import HTTPServer
import Synchronization
import Testing
@testable import AirtableServer

/// The gateway with a public URL, against `drinkshop serve`'s API as the upstream (a live AirtableAPI on a
/// loopback port, pinging through the transport `serve` uses): a change made upstream reaches the cache
/// by webhook, with the freshness checks slowed so far that they cannot explain it.
@Suite struct GatewayWebhookTests {
    private static let counterToken = "patCOUNTER000000000000000"

    private final class GatewayBox: Sendable {
        let gateway = Mutex<AirtableGateway?>(nil)
    }

    private struct Setup {
        let harness: APIHarness
        let upstream: HTTPServer
        let front: HTTPServer
        let gateway: AirtableGateway

        func read(_ table: String) async -> APIResponse {
            await gateway.handle(APIRequest(method: "GET", target: "/v0/\(harness.base.baseID)/\(table)",
                                            headers: [("Authorization", "Bearer \(GatewayWebhookTests.counterToken)")]))
        }

        func upstreamHooks() async -> [JSONValue] {
            await harness.get("/v0/bases/\(harness.base.baseID)/webhooks").json["webhooks"]?.arrayValue ?? []
        }

        func stop() async {
            await front.shutdown()
            await upstream.shutdown()
        }
    }

    private func setUp() async throws -> Setup {
        // The gateway's front first: the upstream must be told to allow its loopback address as a receiver.
        let box = GatewayBox()
        let front = HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { request in
            guard let gateway = box.gateway.withLock({ $0 }) else { return HTTPResponse(status: 503) }
            let answer = await gateway.handle(APIRequest(method: request.method, target: request.target,
                                                         headers: request.headers.map { ($0.name, $0.value) },
                                                         body: request.body))
            return HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body)
        }
        let frontPort = try front.start()
        let harness = try await APIHarness(notifier: WebhookNotifier(transport: URLSessionTransport.shared, retryDelays: []),
                                           webhookReceivers: try WebhookReceivers(allowing: ["http://127.0.0.1:\(frontPort)"]))
        let api = harness.api
        let upstream = HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { request in
            let answer = await api.handle(APIRequest(method: request.method, target: request.target,
                                                     headers: request.headers.map { ($0.name, $0.value) }, body: request.body))
            return HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body)
        }
        let upstreamPort = try upstream.start()
        var configuration = GatewayConfiguration(
            upstream: "http://127.0.0.1:\(upstreamPort)", baseID: harness.base.baseID,
            upstreamToken: try #require(AccessToken(APIHarness.writer)), cachedTables: ["Drink"],
            checkInterval: 3600, maximumAge: 7200)
        configuration.publicURL = "http://127.0.0.1:\(frontPort)/"
        let gateway = AirtableGateway(configuration: configuration, tokens: AccessTokens([(Self.counterToken, .readWrite)]),
                                      throttle: RequestThrottle(requestsPerSecond: 50, burst: 10), transport: URLSessionTransport.shared)
        box.gateway.withLock { $0 = gateway }
        return Setup(harness: harness, upstream: upstream, front: front, gateway: gateway)
    }

    @Test func aMenuChangeMadeUpstreamReachesTheCacheByWebhook() async throws {
        let setup = try await setUp()
        let gateway = setup.gateway
        #expect(await gateway.startWebhooks() == [])
        #expect(gateway.tablesWithWebhooks == ["Drink"])
        let hooks = await setup.upstreamHooks()
        #expect(hooks.count == 1)
        #expect(hooks.first?["notificationUrl"]?.stringValue == gateway.configuration.publicURL.map { $0 + "gateway/webhook-ping" })

        #expect(await setup.read("Drink").status == 200)
        #expect(await setup.read("Drink").status == 200)
        #expect(gateway.counts.answeredFromCache == 1)

        // Changed upstream, not through the gateway: only the ping can tell it.
        let created = await setup.harness.send("POST", setup.harness.path("Drink"), json: ["fields": ["name": "冬瓜檸檬"]])
        #expect(created.status == 200)
        for _ in 0..<500 where gateway.counts.webhookPings == 0 { try? await Task.sleep(for: .milliseconds(20)) }
        #expect(gateway.counts.webhookPings == 1)
        let fresh = await setup.read("Drink")
        #expect(String(decoding: fresh.body, as: UTF8.self).contains("冬瓜檸檬"))
        #expect(gateway.counts.answeredFromCache == 1)
        #expect(gateway.counts.freshnessChecks == 0)

        await gateway.stopWebhooks()
        #expect(await setup.upstreamHooks().isEmpty)
        await setup.stop()
    }

    @Test func aPingWithoutTheWebhooksSignatureChangesNothing() async throws {
        let setup = try await setUp()
        let gateway = setup.gateway
        #expect(await gateway.startWebhooks() == [])
        let hookID = try #require(await setup.upstreamHooks().first?["id"]?.stringValue)
        #expect(await setup.read("Drink").status == 200)
        let body = Array(#"{"base":{"id":"x"},"webhook":{"id":"\#(hookID)"},"timestamp":"2026-12-01T00:00:00.000Z"}"#.utf8)
        let forged = await gateway.handle(APIRequest(method: "POST", target: "/gateway/webhook-ping",
                                                     headers: [("X-Airtable-Content-MAC", "hmac-sha256=00")], body: body))
        #expect(forged.status == 403)
        #expect(gateway.counts.webhookPings == 0)
        #expect(await setup.read("Drink").status == 200)
        #expect(gateway.counts.answeredFromCache == 1)
        await gateway.stopWebhooks()
        await setup.stop()
    }

    @Test func webhooksLeftByAnEarlierRunAreReplacedAndATableMissingUpstreamIsPolled() async throws {
        let setup = try await setUp()
        #expect(await setup.gateway.startWebhooks() == [])
        // A second gateway at the same URL (the first one crashed) replaces its webhook instead of adding one.
        var configuration = setup.gateway.configuration
        configuration.cachedTables = ["Drink", "Nope"]
        let again = AirtableGateway(configuration: configuration, tokens: AccessTokens([(Self.counterToken, .readWrite)]),
                                    throttle: RequestThrottle(requestsPerSecond: 50, burst: 10), transport: URLSessionTransport.shared)
        let problems = await again.startWebhooks()
        #expect(problems.count == 1 && problems.first?.contains("Nope") == true, "\(problems)")
        #expect(again.tablesWithWebhooks == ["Drink"])
        #expect(await setup.upstreamHooks().count == 1)
        await again.stopWebhooks()
        await setup.gateway.stopWebhooks()
        #expect(await setup.upstreamHooks().isEmpty)
        await setup.stop()
    }
}
