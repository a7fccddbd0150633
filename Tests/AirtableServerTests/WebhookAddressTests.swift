import Airtable
@testable import AirtableServer
import Foundation
import Synchronization
import Testing

/// A ping goes to the address its host resolves to, checked: never a local, private or this machine's own
/// address unless the operator named that receiver, whatever the URL's text looks like.
@Suite struct WebhookAddressTests {
    private let own: Set<String> = ["127.0.0.1", "::1", "192.0.2.2"]

    @Test func aPublicLookingNameThatResolvesLocallyIsRefused() {
        let receivers = WebhookReceivers()
        for address in ["127.0.0.1", "10.1.2.3", "192.168.0.9", "169.254.169.254", "::1", "fd00::2", "fe80::1",
                        "::127.0.0.1", "64:ff9b::a00:1", "2002:7f00:1::", "192.0.2.2"] {
            let destination = receivers.destination("https://127.0.0.1.nip.io/hook", addresses: [address], own: own)
            #expect(destination == .refused("127.0.0.1.nip.io resolves to \(address), an address of this machine or of a "
                + "private network (the server's operator can allow a local receiver with serve --webhook-allow)"))
        }
        // One local address among public ones is enough to refuse: the transport may pick any.
        if case .send = receivers.destination("https://hooks.example.com/", addresses: ["93.184.216.34", "127.0.0.1"], own: own) {
            Issue.record("a name resolving partly to loopback was sent")
        }
        #expect(receivers.destination("https://hooks.example.com/", addresses: [], own: own)
            == .refused("the host hooks.example.com could not be found"))
    }

    /// A public https receiver keeps its name (TLS checks the certificate against it).
    @Test func aPublicHTTPSReceiverKeepsItsName() {
        #expect(WebhookReceivers().destination("https://hooks.example.com/x?y=1", addresses: ["93.184.216.34", "2606:2800:220:1::"],
                                               own: own) == .send(url: "https://hooks.example.com/x?y=1", host: nil))
    }

    /// An http receiver the operator named is sent to the checked address itself, its name in Host.
    @Test func anAllowedHTTPReceiverIsSentToTheCheckedAddress() throws {
        let receivers = try WebhookReceivers(allowing: ["http://localhost:8090", "http://[::1]:8091"])
        #expect(receivers.destination("http://localhost:8090/ping?a=%20b#frag", addresses: ["127.0.0.1", "::1"], own: own)
            == .send(url: "http://127.0.0.1:8090/ping?a=%20b", host: "localhost:8090"))
        #expect(receivers.destination("http://[::1]:8091", addresses: ["::1"], own: own)
            == .send(url: "http://[::1]:8091/", host: "[::1]:8091"))
        // Another port of the same host is not the receiver named.
        if case .send = receivers.destination("http://localhost:8091/", addresses: ["127.0.0.1"], own: own) {
            Issue.record("a port not allowed was sent to")
        }
    }

    @Test func theSystemLookUpAndInterfacesAreRead() async {
        let (localhost, own) = await ReceiverAddresses.system.resolve("localhost")
        #expect(localhost.contains("127.0.0.1"))
        #expect(own.contains("127.0.0.1"))
        // A zone index hides ::1 from the text check (inet_pton refuses it); the lookup does not.
        #expect(await ReceiverAddresses.system.resolve("::1%1").addresses == ["::1"])
        #expect(await ReceiverAddresses.system.resolve("::ffff:127.0.0.1").addresses == ["127.0.0.1"])
    }

    /// End to end through the notifier: a name that resolves to loopback is not pinged, and the webhook's
    /// result says why; the same name resolving to a public address is pinged at its https URL.
    @Test func theNotifierChecksWhatTheHostResolvesTo() async throws {
        let resolved = Mutex<[String]>(["127.0.0.1"])
        let addresses = ReceiverAddresses(lookUp: { _ in resolved.withLock { $0 } }, ownAddresses: { [] })
        let transport = RecordingTransport()
        let api = try await APIHarness(notifier: WebhookNotifier(transport: transport, addresses: addresses, retryDelays: []))
        let hooks = "/v0/bases/\(api.base.baseID)/webhooks"
        let created = await api.send("POST", hooks, json: [
            "notificationUrl": "https://127.0.0.1.nip.io/ping",
            "specification": ["options": ["filters": ["dataTypes": ["tableData"]]]],
        ])
        #expect(created.status == 200, "\(created)")
        // A write starts the pings itself; the result is recorded once the lookup and the decision are made.
        func result(after write: String, success: Bool) async throws -> JSONValue? {
            _ = await api.send("POST", api.path(), json: ["fields": ["orderName": .string(write)]])
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline {
                let result = await api.get(hooks).json["webhooks"]?.arrayValue?.first?["lastNotificationResult"]
                if result?["success"] == .bool(success) { return result }
                try await Task.sleep(for: .milliseconds(20))
            }
            return nil
        }
        let refused = try await result(after: "Amy", success: false)
        #expect(refused?["error"]?["message"]?.stringValue?.hasPrefix("not sent: 127.0.0.1.nip.io resolves to 127.0.0.1") == true,
                "\(String(describing: refused))")
        #expect(transport.sent.withLock { $0.isEmpty })

        resolved.withLock { $0 = ["93.184.216.34"] }
        #expect(try await result(after: "Bo", success: true) != nil)
        #expect(transport.sent.withLock { $0.map(\.url) } == ["https://127.0.0.1.nip.io/ping"])
    }
}
