import Airtable
import Foundation

/// Pings webhook URLs after changes: `POST {"base":{"id"},"webhook":{"id"},"timestamp"}` signed with
/// the webhook's secret in `X-Airtable-Content-MAC`, as Airtable does. The receiver then lists the
/// payloads. Runs in its own task with an async transport, so no request waits for it and no thread
/// of the cooperative pool blocks on the network; the outcome is kept as the webhook's
/// `lastNotificationResult`.
public struct WebhookNotifier: Sendable {
    public let transport: any HTTPTransport
    /// Seconds a receiver has to answer.
    public var timeout: Double = 10

    public init(transport: any HTTPTransport) {
        self.transport = transport
    }

    /// The notification body for one webhook.
    static func body(baseID: String, webhookID: String, at time: Date) -> [UInt8] {
        JSONWriter.bytes(["base": ["id": .string(baseID)], "webhook": ["id": .string(webhookID)],
                          "timestamp": .string(AirtableTimestamp.format(time))])
    }

    /// `hmac-sha256=<hex>` of `body` under the base64 secret.
    static func signature(body: [UInt8], secretBase64: String) -> String {
        let key = Data(base64Encoded: secretBase64).map(Array.init) ?? Array(secretBase64.utf8)
        return "hmac-sha256=" + SHA256.hex(SHA256.hmac(key: key, message: body))
    }

    /// Tells every webhook with new payloads; returns when all pings are answered or have failed.
    func notify(store: any WebhookStore, baseID: String) async {
        guard let due = try? await store.webhooksToNotify() else { return }
        for hook in due {
            guard let url = hook.notificationURL else { continue }
            let started = Date()
            let body = Self.body(baseID: baseID, webhookID: hook.id, at: started)
            let request = TransportRequest(method: "POST", url: url, headers: [
                "Content-Type": "application/json; charset=utf-8",
                "X-Airtable-Content-MAC": Self.signature(body: body, secretBase64: hook.macSecretBase64),
            ], body: body)
            var failure: String?
            do {
                let response = try await transport.send(request, timeout: timeout)
                if !(200..<300).contains(response.status) { failure = "the receiver answered \(response.status)" }
            } catch {
                failure = "the receiver could not be reached: \(error.detail)"
            }
            let finished = Date()
            try? await store.recordNotification(hook.id, success: failure == nil, error: failure, at: finished,
                                                durationMs: finished.timeIntervalSince(started) * 1000)
        }
    }
}
