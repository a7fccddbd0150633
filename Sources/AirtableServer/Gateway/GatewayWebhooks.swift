import Airtable
import AirtableHTTP
import Foundation
import Synchronization

/// The gateway's webhooks on the upstream base, so a menu change reaches the cache without polling.
///
/// Started with a URL where the upstream can reach the gateway (`--public-url`), the gateway registers
/// one webhook per cached table (Airtable scopes a webhook's record changes to one table), each pinging
/// `<public URL>/gateway/webhook-ping`. A ping, checked against the webhook's secret
/// (`X-Airtable-Content-MAC`), drops the table's cached answers at once. While every table has its
/// webhook the freshness checks slow down to `webhookCheckInterval` (they stay as the fallback for a
/// lost ping); a table whose webhook could not be made keeps the quick checks. The webhooks are
/// refreshed before they expire (Airtable's last 7 days), replaced if the upstream lost them, and
/// deleted when the gateway stops; webhooks a crashed run left pointing at the same URL are deleted at
/// start. The payloads are not read: a ping is all the cache needs, and reading them would spend the
/// base's rate budget on every change.
final class GatewayWebhooks: Sendable {
    /// Where the upstream pings (after the public URL).
    static let pingPath = "/gateway/webhook-ping"

    struct Subscription: Sendable {
        var id: String
        var table: String
        var tableID: String
        var secret: [UInt8]
    }

    let publicURL: String
    private let subscriptions = Mutex<[Subscription]>([])
    private let refresher = Mutex<Task<Void, Never>?>(nil)

    init(publicURL: String) {
        var trimmed = publicURL
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.publicURL = trimmed
    }

    var pingURL: String { publicURL + Self.pingPath }
    var active: [Subscription] { subscriptions.withLock { $0 } }

    /// Registers the webhooks; returns what could not be done (one line each), empty when all is set.
    func register(through gateway: AirtableGateway) async -> [String] {
        let base = gateway.configuration.baseID
        let tables = gateway.configuration.cachedTables.sorted()
        guard !tables.isEmpty else { return [] }
        let schema = await gateway.upstreamJSON("GET", "/v0/meta/bases/\(PercentEncoding.encode(base))/tables")
        guard let list = schema.json?["tables"]?.arrayValue else {
            return ["the base's tables could not be read (\(schema.problem ?? "no tables")); polling only"]
        }
        await removeLeftovers(through: gateway)
        var problems: [String] = []
        var made: [Subscription] = []
        for name in tables {
            guard let table = list.first(where: { $0["name"]?.stringValue == name }) ?? list.first(where: {
                $0["name"]?.stringValue?.lowercased() == name.lowercased() || $0["id"]?.stringValue == name
            }), let tableID = table["id"]?.stringValue else {
                problems.append("table \(name) is not in the base; it is polled only")
                continue
            }
            let body: JSONValue = [
                "notificationUrl": .string(pingURL),
                "specification": ["options": ["filters": ["dataTypes": ["tableData"], "recordChangeScope": .string(tableID)]]],
            ]
            let reply = await gateway.upstreamJSON("POST", "/v0/bases/\(PercentEncoding.encode(base))/webhooks", body: body)
            guard let id = reply.json?["id"]?.stringValue, let secretText = reply.json?["macSecretBase64"]?.stringValue,
                  let secret = Data(base64Encoded: secretText)
            else {
                problems.append("no webhook for table \(name) (\(reply.problem ?? "no id in the answer")); it is polled only")
                continue
            }
            made.append(Subscription(id: id, table: name, tableID: tableID, secret: Array(secret)))
        }
        subscriptions.withLock { $0 = made }
        return problems
    }

    /// Every `interval` seconds, refreshes each webhook (Airtable lets one lapse after 7 days); one the
    /// upstream no longer knows is registered again.
    func keepFresh(through gateway: AirtableGateway, every interval: Double) {
        let task = Task {
            while !Task.isCancelled {
                do { try await gateway.clock.sleep(until: gateway.clock.now() + interval) } catch { return }
                let base = PercentEncoding.encode(gateway.configuration.baseID)
                var lost = false
                for hook in active {
                    let reply = await gateway.upstreamJSON("POST", "/v0/bases/\(base)/webhooks/\(hook.id)/refresh")
                    if reply.status == 404 { lost = true }
                }
                if lost { _ = await register(through: gateway) }
            }
        }
        refresher.withLock { $0?.cancel(); $0 = task }
    }

    /// Deletes the webhooks (the gateway stops).
    func unregister(through gateway: AirtableGateway) async {
        refresher.withLock { $0?.cancel(); $0 = nil }
        let base = PercentEncoding.encode(gateway.configuration.baseID)
        for hook in subscriptions.withLock({ list in defer { list = [] }; return list }) {
            _ = await gateway.upstreamJSON("DELETE", "/v0/bases/\(base)/webhooks/\(hook.id)")
        }
    }

    /// Webhooks of an earlier run that point at this same URL.
    private func removeLeftovers(through gateway: AirtableGateway) async {
        let base = PercentEncoding.encode(gateway.configuration.baseID)
        let listed = await gateway.upstreamJSON("GET", "/v0/bases/\(base)/webhooks")
        for hook in listed.json?["webhooks"]?.arrayValue ?? [] where hook["notificationUrl"]?.stringValue == pingURL {
            if let id = hook["id"]?.stringValue { _ = await gateway.upstreamJSON("DELETE", "/v0/bases/\(base)/webhooks/\(id)") }
        }
    }

    /// A ping from the upstream: the subscription it is for, when its signature is right.
    func subscription(for request: APIRequest) -> Subscription? {
        guard let json = try? JSONParser.parse(request.body), let id = json["webhook"]?["id"]?.stringValue,
              let hook = active.first(where: { $0.id == id }), let mac = request.header("X-Airtable-Content-MAC")
        else { return nil }
        let expected = "hmac-sha256=" + WebhookSignature.hex(WebhookSignature.hmacSHA256(key: hook.secret, message: request.body))
        return WebhookSignature.constantTimeEqual(Array(mac.utf8), Array(expected.utf8)) ? hook : nil
    }
}

extension WebhookSignature {
    /// Whether two byte strings are equal, taking the same time wherever they differ.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
