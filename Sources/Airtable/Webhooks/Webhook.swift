import Foundation

/// A webhook of a base, as Airtable's webhook routes describe it.
public struct Webhook: Sendable, Hashable {
    public var id: String
    /// Where notifications go; nil for a webhook that is only polled.
    public var notificationURL: String?
    /// The specification as given (`{"options": {"filters": …, "includes": …}}`).
    public var specification: JSONValue
    /// The secret that signs notifications, base64; shown once, when the webhook is made.
    public var macSecretBase64: String
    public var expirationTime: Date
    public var areNotificationsEnabled: Bool
    /// The cursor the next payload will have (payloads count from 1).
    public var cursorForNextPayload: Int
    public var lastSuccessfulNotificationTime: Date?
    /// `{success, error?, completionTimestamp, durationMs, retryNumber}` of the last ping.
    public var lastNotificationResult: JSONValue?

    public init(id: String, notificationURL: String?, specification: JSONValue, macSecretBase64: String,
                expirationTime: Date, areNotificationsEnabled: Bool = true, cursorForNextPayload: Int = 1,
                lastSuccessfulNotificationTime: Date? = nil, lastNotificationResult: JSONValue? = nil) {
        self.id = id
        self.notificationURL = notificationURL
        self.specification = specification
        self.macSecretBase64 = macSecretBase64
        self.expirationTime = expirationTime
        self.areNotificationsEnabled = areNotificationsEnabled
        self.cursorForNextPayload = cursorForNextPayload
        self.lastSuccessfulNotificationTime = lastSuccessfulNotificationTime
        self.lastNotificationResult = lastNotificationResult
    }

    /// As "list webhooks" shows it (never the secret).
    public var json: JSONValue {
        [
            "id": .string(id), "type": "client", "isHookEnabled": true,
            "notificationUrl": notificationURL.map(JSONValue.string) ?? .null,
            "cursorForNextPayload": .number(Double(cursorForNextPayload)),
            "areNotificationsEnabled": .bool(areNotificationsEnabled),
            "lastSuccessfulNotificationTime": lastSuccessfulNotificationTime.map { .string(AirtableTimestamp.format($0)) } ?? .null,
            "lastNotificationResult": lastNotificationResult ?? .null,
            "expirationTime": .string(AirtableTimestamp.format(expirationTime)),
            "specification": specification,
        ]
    }

    /// How long a webhook lives after it is made or refreshed (Airtable: 7 days).
    public static let lifetime: TimeInterval = 7 * 24 * 3600
    /// How long a payload is kept after the change it reports (Airtable: 7 days), whether or not it was read.
    public static let payloadLifetime: TimeInterval = 7 * 24 * 3600
    /// At most this many payloads come in one page.
    public static let maximumPayloadPage = 50
}

/// One page of a webhook's payloads: `cursor` is where the next page starts.
public struct WebhookPayloadPage: Sendable {
    public var payloads: [JSONValue]
    public var cursor: Int
    public var mightHaveMore: Bool

    public init(payloads: [JSONValue], cursor: Int, mightHaveMore: Bool) {
        self.payloads = payloads
        self.cursor = cursor
        self.mightHaveMore = mightHaveMore
    }

    public var json: JSONValue {
        ["payloads": .array(payloads), "cursor": .number(Double(cursor)), "mightHaveMore": .bool(mightHaveMore)]
    }
}

/// A store that keeps webhooks and writes a payload for each change of its records to every webhook
/// that watches it (Airtable's webhook routes).
public protocol WebhookStore: RecordStore {
    /// Makes a webhook; `specification` and `notificationURL` are checked first.
    func createWebhook(notificationURL: String?, specification: JSONValue, by user: Collaborator)
        async throws(AirtableError) -> Webhook
    func webhooks() async throws(AirtableError) -> [Webhook]
    func deleteWebhook(_ id: String) async throws(AirtableError)
    /// Pushes the expiration a lifetime from now; returns the new expiration.
    func refreshWebhook(_ id: String) async throws(AirtableError) -> Date
    func enableWebhookNotifications(_ id: String, _ enable: Bool) async throws(AirtableError)
    /// Payloads from `cursor` on, at most `limit`.
    func webhookPayloads(_ id: String, cursor: Int, limit: Int) async throws(AirtableError) -> WebhookPayloadPage
    /// Webhooks with notifications on, a URL, and payloads nobody was told of; marks them told.
    func webhooksToNotify() async throws(AirtableError) -> [Webhook]
    /// Records how a notification went; `retryNumber` is 0 for the first attempt, 1 for the first retry...
    func recordNotification(_ id: String, success: Bool, error: String?, at time: Date, durationMs: Double,
                            retryNumber: Int) async throws(AirtableError)
}
