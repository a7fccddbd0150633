import Airtable
import AirtableHTTP
import Foundation

/// Pings webhook URLs after changes: `POST {"base":{"id"},"webhook":{"id"},"timestamp"}` signed with
/// the webhook's secret in `X-Airtable-Content-MAC`, as Airtable does. The receiver then lists the
/// payloads. Runs in its own task with an async transport, so no request waits for it and no thread
/// of the cooperative pool blocks on the network; the outcome is kept as the webhook's
/// `lastNotificationResult`.
///
/// A ping that fails (the receiver cannot be reached, or answers other than 2xx) is sent again after
/// each of `retryDelays` (backing off: 1 s, 5 s, 25 s by default), each attempt recorded with its
/// `retryNumber`, until one succeeds, the delays run out, or the webhook is deleted, disabled or pointed
/// elsewhere. The waits suspend the ping's own task (never a thread), and webhooks are pinged side by
/// side, so a slow or failing receiver delays no other.
public struct WebhookNotifier: Sendable {
    public let transport: any HTTPTransport
    /// Where receivers' hosts resolve to, checked before every attempt.
    public let addresses: ReceiverAddresses
    /// Seconds a receiver has to answer.
    public var timeout: Double = 10
    /// The waits before each new attempt of a failed ping; empty: no retries.
    public var retryDelays: [Duration]
    /// Waits between attempts; tests pass their own.
    let sleep: @Sendable (Duration) async -> Void

    public init(transport: any HTTPTransport, addresses: ReceiverAddresses = .system,
                retryDelays: [Duration] = [.seconds(1), .seconds(5), .seconds(25)],
                sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }) {
        self.transport = transport
        self.addresses = addresses
        self.retryDelays = retryDelays
        self.sleep = sleep
    }

    /// The notification body for one webhook.
    static func body(baseID: String, webhookID: String, at time: Date) -> [UInt8] {
        JSONWriter.bytes(["base": ["id": .string(baseID)], "webhook": ["id": .string(webhookID)],
                          "timestamp": .string(AirtableTimestamp.format(time))])
    }

    /// `hmac-sha256=<hex>` of `body` under the base64 secret.
    static func signature(body: [UInt8], secretBase64: String) -> String {
        let key = Data(base64Encoded: secretBase64).map(Array.init) ?? Array(secretBase64.utf8)
        return "hmac-sha256=" + WebhookSignature.hex(WebhookSignature.hmacSHA256(key: key, message: body))
    }

    /// Tells every webhook with new payloads, side by side; returns when every ping has succeeded or
    /// failed for the last time.
    /// A webhook whose URL `receivers` refuses (stored by an earlier version, or allowed by an earlier
    /// run) is not pinged; its result says why.
    func notify(store: any WebhookStore, baseID: String, receivers: WebhookReceivers = WebhookReceivers()) async {
        guard let due = try? await store.webhooksToNotify() else { return }
        await withTaskGroup(of: Void.self) { group in
            for hook in due {
                guard let url = hook.notificationURL else { continue }
                if let refusal = receivers.refusal(url) {
                    try? await store.recordNotification(hook.id, success: false,
                                                        error: "not sent: \(refusal)", at: Date(),
                                                        durationMs: 0, retryNumber: 0)
                    continue
                }
                group.addTask { await ping(hook, url: url, store: store, baseID: baseID, receivers: receivers) }
            }
        }
    }

    /// One webhook's ping, with its retries.
    private func ping(_ hook: Webhook, url: String, store: any WebhookStore, baseID: String,
                      receivers: WebhookReceivers) async {
        for attempt in 0...retryDelays.count {
            if attempt > 0 {
                await sleep(retryDelays[attempt - 1])
                // A webhook deleted, disabled or pointed elsewhere meanwhile is not pinged again.
                guard let current = try? await store.webhooks().first(where: { $0.id == hook.id }),
                      current.areNotificationsEnabled, current.notificationURL == url
                else { return }
            }
            let started = Date()
            let failure = await send(hook, url: url, baseID: baseID, at: started, receivers: receivers)
            let finished = Date()
            try? await store.recordNotification(hook.id, success: failure == nil, error: failure, at: finished,
                                                durationMs: finished.timeIntervalSince(started) * 1000,
                                                retryNumber: attempt)
            if failure == nil { return }
        }
    }

    /// Sends one ping to the address its host resolves to now, if `receivers` allow that address; nil when
    /// the receiver took it (2xx), else why not. A redirect is an answer like any other (not followed).
    private func send(_ hook: Webhook, url: String, baseID: String, at time: Date, receivers: WebhookReceivers) async -> String? {
        guard let host = URLComponents(string: url)?.host else { return "not sent: the URL has no host" }
        let (found, own) = await addresses.resolve(host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host)
        let target: String
        var headers = ["Content-Type": "application/json; charset=utf-8"]
        switch receivers.destination(url, addresses: found, own: own) {
        case .refused(let why):
            return "not sent: \(why)"
        case .send(let checked, let hostHeader):
            target = checked
            if let hostHeader { headers["Host"] = hostHeader }
        }
        let body = Self.body(baseID: baseID, webhookID: hook.id, at: time)
        headers["X-Airtable-Content-MAC"] = Self.signature(body: body, secretBase64: hook.macSecretBase64)
        let request = TransportRequest(method: "POST", url: target, headers: headers, body: body)
        do {
            let response = try await transport.send(request, timeout: timeout)
            return (200..<300).contains(response.status) ? nil : "the receiver answered \(response.status)"
        } catch {
            return "the receiver could not be reached: \(error.detail)"
        }
    }
}
