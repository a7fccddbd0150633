import Foundation
import Glibc
import Testing
import TestSupport

/// `drinkshop serve --upstream … --public-url …` in front of `drinkshop serve`: a menu change made on the
/// upstream reaches the gateway's cache by webhook (the freshness checks set to an hour, so they cannot
/// explain it), and the webhooks are gone once the gateway stops.
@Suite(.timeLimit(.minutes(3)), .clearOfShopMidnight) struct GatewayWebhookEndToEndTests {
    @Test func aMenuChangeUpstreamReachesTheGatewaysCacheByWebhook() async throws {
        let shop = try Drinkshop()
        let upstreamToken = "pat" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let counterToken = "pat" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let (database, directory) = (shop.database, shop.directory)
        // The gateway's port first: the upstream allows it as a local webhook receiver.
        let gatewayPort = try await offThePool { try FreePort.reserve() }
        let upstream = try await offThePool {
            try ServeProcess(database: database, directory: directory, token: upstreamToken,
                             arguments: ["--webhook-allow", "http://127.0.0.1:\(gatewayPort)"])
        }
        defer { upstream.stop() }
        let gateway = try await offThePool {
            try GatewayProcess(upstreamPort: upstream.port, baseID: upstream.baseID, directory: directory,
                               upstreamToken: upstreamToken, counterToken: counterToken, port: gatewayPort)
        }
        defer { gateway.stop() }
        #expect(gateway.banner.contains("webhooks  Drink, Promotion, Setting, User tell the gateway of changes"), "\(gateway.banner)")
        #expect(!gateway.banner.contains(upstreamToken) && !gateway.banner.contains(counterToken))

        let (port, base) = (gateway.port, upstream.baseID)
        let menuRead = "GET /v0/\(base)/Drink?filterByFormula=%7Bname%7D%3D%27E2E%27 HTTP/1.1\r\nHost: x\r\n"
            + "Authorization: Bearer \(counterToken)\r\nConnection: close\r\n\r\n"
        let before = try await offThePool { try RawHTTP.exchange(port: port, menuRead) }
        #expect(before.hasPrefix("HTTP/1.1 200") && before.contains(#"{"records":[]}"#), "\(before)")

        // Added on the upstream directly: only its webhook ping can tell the gateway.
        let body = #"{"fields":{"name":"E2E","medium":40,"large":50}}"#
        let added = try await offThePool {
            try RawHTTP.exchange(port: upstream.port, "POST /v0/\(base)/Drink HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer \(upstreamToken)\r\nContent-Type: application/json\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        }
        #expect(added.hasPrefix("HTTP/1.1 200"), "\(added)")
        var seen = false
        for _ in 0..<100 where !seen {
            seen = try await offThePool { try RawHTTP.exchange(port: port, menuRead) }.contains(#""name":"E2E""#)
            if !seen { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(seen)

        // Stopped, the gateway deletes its webhooks from the upstream.
        gateway.stop()
        let hooks = "GET /v0/bases/\(base)/webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(upstreamToken)\r\n"
            + "Connection: close\r\n\r\n"
        var left = ""
        for _ in 0..<100 {
            left = try await offThePool { try RawHTTP.exchange(port: upstream.port, hooks) }
            if left.contains(#"{"webhooks":[]}"#) { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(left.contains(#"{"webhooks":[]}"#), "\(left)")
    }
}

/// `drinkshop serve --upstream … --public-url …` on a free loopback port.
final class GatewayProcess: Sendable {
    let port: Int
    let banner: String
    private let process: Process

    init(upstreamPort: Int, baseID: String, directory: String, upstreamToken: String, counterToken: String,
         port: Int) throws {
        let (process, text) = try ServeProcess.launch(
            ["serve", "--upstream", "http://127.0.0.1:\(upstreamPort)", "--base", baseID, "--port", "\(port)",
             "--public-url", "http://127.0.0.1:\(port)", "--cache-check", "3600"],
            environment: ["PATH": "/usr/bin:/bin", "HOME": directory, "AIRTABLE_TOKEN": upstreamToken,
                          "DRINKSHOP_API_TOKEN": counterToken, "TZ": "Asia/Taipei"])
        self.process = process
        self.port = port
        banner = text
    }

    /// Ends the gateway with SIGTERM (it deletes its webhooks on the way out); nothing here waits for it.
    func stop() {
        if process.isRunning { process.terminate() }
    }
}
