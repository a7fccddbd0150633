import Airtable
import AirtableHTTP
import Foundation

/// The gateway's side of `GatewayWebhooks`: starting and stopping them, and taking the upstream's pings.
extension AirtableGateway {
    /// Registers webhooks for the cached tables on the upstream when the gateway has a public URL, and
    /// slows the freshness checks once every cached table has one. Returns what could not be done.
    public func startWebhooks() async -> [String] {
        guard let webhooks else { return [] }
        let problems = await webhooks.register(through: self)
        let covered = Set(webhooks.active.map(\.table))
        if !covered.isEmpty && covered == configuration.cachedTables {
            await cache.pace(checkInterval: max(configuration.checkInterval, configuration.webhookCheckInterval),
                             maximumAge: max(configuration.maximumAge, configuration.webhookMaximumAge))
        }
        webhooks.keepFresh(through: self, every: configuration.webhookRefreshInterval)
        return problems
    }

    /// The tables whose changes arrive by webhook.
    public var tablesWithWebhooks: [String] { webhooks?.active.map(\.table).sorted() ?? [] }

    /// Deletes the webhooks from the upstream (the gateway stops).
    public func stopWebhooks() async {
        await webhooks?.unregister(through: self)
        await cache.pace(checkInterval: configuration.checkInterval, maximumAge: configuration.maximumAge)
    }

    /// A ping: a signed one drops its table's cached answers; anything else is refused.
    func receivePing(_ request: APIRequest) async -> APIResponse {
        guard request.method.uppercased() == "POST" else {
            return .error(APIError(status: 405, type: "METHOD_NOT_ALLOWED", message: "webhook pings are POSTed"))
        }
        guard let hook = webhooks?.subscription(for: request) else {
            return .error(APIError(status: 403, type: "INVALID_PERMISSIONS",
                                   message: "the ping is not signed by a webhook this gateway registered"))
        }
        await cache.forget(table: hook.table)
        if hook.tableID != hook.table { await cache.forget(table: hook.tableID) }
        statistics.withLock { $0.webhookPings += 1 }
        return APIResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: Array("{}".utf8))
    }

    /// One upstream call of the gateway's own (through the throttle), its status and JSON, or what went wrong.
    func upstreamJSON(_ method: String, _ path: String, body: JSONValue? = nil) async
        -> (status: Int, json: JSONValue?, problem: String?)
    {
        var headers = upstreamHeaders(nil)
        if body != nil { headers["Content-Type"] = "application/json" }
        let answer = await forward(TransportRequest(method: method, url: configuration.upstream + path, headers: headers,
                                                    body: body.map(JSONWriter.bytes)))
        let json = try? JSONParser.parse(answer.body)
        guard (200..<300).contains(answer.status) else {
            let message = json?["error"]?["message"]?.stringValue ?? json?["error"]?.stringValue ?? "no message"
            return (answer.status, json, "the base answered \(answer.status): \(message)")
        }
        return (answer.status, json, nil)
    }
}
