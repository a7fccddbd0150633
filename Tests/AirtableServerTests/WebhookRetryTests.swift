import Airtable
import AirtableHTTP
import AirtableURLSession
import Foundation
import Glibc
import HTTPServer
import Synchronization
import Testing
import TestSupport
@testable import AirtableServer

/// A ping that fails is sent again with backoff, against a real receiver on a loopback port, through
/// the transport `drinkshop serve` uses.
@Suite struct WebhookRetryTests {
    /// A loopback receiver that answers `statuses` in turn (then 200), counting the pings it gets.
    private final class PingLog: Sendable {
        let pings = Mutex<[HTTPRequest]>([])
    }

    private final class Receiver: Sendable {
        let log = PingLog()
        let server: HTTPServer
        let port: Int

        init(statuses: [Int]) throws {
            let log = self.log
            server = HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { request in
                let count = log.pings.withLock { $0.append(request); return $0.count }
                return HTTPResponse(status: count <= statuses.count ? statuses[count - 1] : 200)
            }
            port = try server.start()
        }

        var url: String { "http://127.0.0.1:\(port)/ping" }
        /// A loopback receiver must be named to the server, as `serve --webhook-allow` does.
        func allowance() throws -> WebhookReceivers { try WebhookReceivers(allowing: ["http://127.0.0.1:\(port)"]) }
        var count: Int { log.pings.withLock { $0.count } }
        var pings: [HTTPRequest] { log.pings.withLock { $0 } }
    }

    /// Waits the retry delays are told to wait, remembering them, without sleeping.
    private final class Waits: Sendable {
        let asked = Mutex<[Duration]>([])
        let gate: AsyncGate?
        init(gate: AsyncGate? = nil) { self.gate = gate }
        func sleep(_ duration: Duration) async {
            asked.withLock { $0.append(duration) }
            await gate?.wait()
        }
    }

    private func hook(_ api: APIHarness, url: String) async throws -> String {
        let created = await api.send("POST", "/v0/bases/\(api.base.baseID)/webhooks", json: [
            "notificationUrl": .string(url),
            "specification": ["options": ["filters": ["dataTypes": ["tableData"]]]],
        ])
        return try #require(created.json["id"]?.stringValue, "\(created)")
    }

    private func lastResult(_ api: APIHarness) async -> JSONValue? {
        await api.get("/v0/bases/\(api.base.baseID)/webhooks").json["webhooks"]?.arrayValue?.first?["lastNotificationResult"]
    }

    /// The last notification result once it is the final one (a success, or the last retry), waiting
    /// (suspended) for the ping the write set off in the background; nil after 20 s.
    private func finalResult(_ api: APIHarness, retries: Int) async -> JSONValue? {
        for _ in 0..<1000 {
            if let result = await lastResult(api), result["success"] == true || result["retryNumber"]?.intValue == retries {
                return result
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    @Test func aPingAnsweredWithAnErrorIsSentAgainUntilTheReceiverTakesIt() async throws {
        let receiver = try Receiver(statuses: [500, 503])
        let waits = Waits()
        let notifier = WebhookNotifier(transport: URLSessionTransport.shared,
                                       retryDelays: [.seconds(1), .seconds(5), .seconds(25)], sleep: waits.sleep)
        let api = try await APIHarness(notifier: notifier, webhookReceivers: try receiver.allowance())
        let hookID = try await hook(api, url: receiver.url)
        // The write sets the ping off in its own task.
        _ = await api.send("POST", api.path(), json: ["fields": ["orderName": "Amy"]])
        let result = try #require(await finalResult(api, retries: 3))
        await receiver.server.shutdown()

        #expect(receiver.count == 3)
        #expect(waits.asked.withLock { $0 } == [.seconds(1), .seconds(5)])
        let pings = receiver.pings
        for ping in pings {
            #expect(try JSONParser.parse(ping.body)["webhook"]?["id"]?.stringValue == hookID)
        }
        #expect(result["success"] == true)
        #expect(result["retryNumber"] == 2)
    }

    /// A loopback port held bound but never listening: a connection to it is refused, and no other process (a
    /// server another test or a parallel run starts on port 0) can take it meanwhile, as it could a port just freed.
    private final class RefusingPort: Sendable {
        let descriptor: Int32
        let port: Int

        init() throws {
            let held = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    bind(held, socketAddress, length) == 0 && getsockname(held, socketAddress, &length) == 0
                }
            }
            guard held >= 0, bound else {
                if held >= 0 { close(held) }
                throw POSIXError(.EADDRNOTAVAIL)
            }
            descriptor = held
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }

    @Test func aReceiverThatCannotBeReachedIsTriedAFewTimesThenRecordedAsFailed() async throws {
        // A port bound but not listening: connections are refused.
        let closed = try RefusingPort()
        let url = "http://127.0.0.1:\(closed.port)/ping"
        let waits = Waits()
        let notifier = WebhookNotifier(transport: URLSessionTransport.shared,
                                       retryDelays: [.milliseconds(10), .milliseconds(20)], sleep: waits.sleep)
        let api = try await APIHarness(notifier: notifier,
                                       webhookReceivers: try WebhookReceivers(allowing: ["http://127.0.0.1:\(closed.port)"]))
        _ = try await hook(api, url: url)
        _ = await api.send("POST", api.path(), json: ["fields": ["orderName": "Bo"]])
        let result = try #require(await finalResult(api, retries: 2))

        #expect(waits.asked.withLock { $0 } == [.milliseconds(10), .milliseconds(20)])
        #expect(result["success"] == false)
        #expect(result["retryNumber"] == 2)
        #expect(result["error"]?["message"]?.stringValue?.contains("could not be reached") == true)
    }

    @Test func theServerAnswersWhileAPingWaitsToBeRetriedAndADisabledWebhookIsNotRetried() async throws {
        let receiver = try Receiver(statuses: [500, 500, 500])
        let gate = AsyncGate()
        let waits = Waits(gate: gate)
        let notifier = WebhookNotifier(transport: URLSessionTransport.shared,
                                       retryDelays: [.seconds(1), .seconds(5)], sleep: waits.sleep)
        let api = try await APIHarness(notifier: notifier, webhookReceivers: try receiver.allowance())
        let hookID = try await hook(api, url: receiver.url)
        _ = await api.send("POST", api.path(), json: ["fields": ["orderName": "Cy"]])
        // The first ping failed and waits for its retry; requests are answered meanwhile.
        while waits.asked.withLock({ $0.isEmpty }) { await Task.yield() }
        #expect(await api.get(api.path()).status == 200)
        let disabled = await api.send("POST", "/v0/bases/\(api.base.baseID)/webhooks/\(hookID)/enableNotifications",
                                      json: ["enable": false])
        #expect(disabled.status == 200)
        gate.open()
        // The retry looks at the webhook first and gives up; the wait ends when it has (a second
        // ping would show as a second request at the receiver).
        for _ in 0..<50 { try? await Task.sleep(for: .milliseconds(10)) }
        await receiver.server.shutdown()
        #expect(receiver.count == 1)
        #expect(waits.asked.withLock { $0 } == [.seconds(1)])
        #expect(try #require(await lastResult(api))["success"] == false)
    }
}
