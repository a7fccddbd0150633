import Airtable
import Foundation

/// Airtable's webhook routes: `POST/GET /v0/bases/{base}/webhooks`, `DELETE …/webhooks/{id}`,
/// `POST …/{id}/refresh`, `POST …/{id}/enableNotifications`, `GET …/{id}/payloads`. Payloads are
/// written by the store with each change; after each write the server pings the webhooks that have
/// new payloads (`WebhookNotifier`), without making the request wait.
extension AirtableAPI {
    private var hooks: any WebhookStore {
        get throws(APIError) {
            guard let store = store as? any WebhookStore else { throw .notFound }
            return store
        }
    }

    func createWebhook(body: [UInt8], reach: TokenReach?) async throws -> APIResponse {
        let json = try parseBody(body, emptyAs: [:])
        guard let object = json.objectValue else { throw APIError.invalidRequest("the body must be a JSON object") }
        if let key = object.keys.sorted().first(where: { $0 != "notificationUrl" && $0 != "specification" }) {
            throw APIError.invalidRequest("a webhook takes \"notificationUrl\" and \"specification\", not \"\(key)\"")
        }
        var url: String?
        if let given = object["notificationUrl"], !given.isNull {
            guard let text = given.stringValue else {
                throw APIError.invalidRequest("notificationUrl must be a string (an https URL) or null")
            }
            if let refusal = webhookReceivers.refusal(text) { throw APIError.invalidRequest(refusal) }
            url = text
        }
        guard let specification = object["specification"] else {
            throw APIError.invalidRequest("a webhook needs a \"specification\"")
        }
        // A webhook watching one table is a way to read it: it needs that table's read scope.
        if let reach, let scope = specification["options"]?["filters"]?["recordChangeScope"]?.stringValue,
           let refusal = reach.refusal(table: scope, writes: false) {
            throw refusal
        }
        let hook = try await hooks.createWebhook(notificationURL: url, specification: specification, by: user)
        return .json(["id": .string(hook.id), "macSecretBase64": .string(hook.macSecretBase64),
                      "expirationTime": .string(AirtableTimestamp.format(hook.expirationTime))])
    }

    func listWebhooks() async throws -> APIResponse {
        .json(["webhooks": .array(try await hooks.webhooks().map(\.json))])
    }

    func webhookAction(_ id: String, action: String, method: String, query: QueryString, body: [UInt8],
                       reach: TokenReach?) async throws -> APIResponse
    {
        switch (method, action) {
        case ("POST", "refresh"):
            return .json(["expirationTime": .string(AirtableTimestamp.format(try await hooks.refreshWebhook(id)))])
        case ("POST", "enableNotifications"):
            guard let enable = try parseBody(body, emptyAs: [:])["enable"]?.boolValue else {
                throw APIError.invalidRequest("enableNotifications needs {\"enable\": true or false}")
            }
            try await hooks.enableWebhookNotifications(id, enable)
            return .json([:])
        case ("GET", "payloads"):
            var cursor = 1
            var limit = Webhook.maximumPayloadPage
            for (name, value) in query.items {
                switch name {
                case "cursor":
                    guard let number = Int(value) else { throw APIError.invalidRequest("cursor must be a number, not \(value)") }
                    cursor = number
                case "limit":
                    guard let number = Int(value) else { throw APIError.invalidRequest("limit must be a number, not \(value)") }
                    limit = number
                default:
                    throw APIError.invalidRequest("unknown query parameter \"\(name)\"; payloads take cursor and limit")
                }
            }
            // Payloads name tables and fields by id: those the reader may not see are struck out.
            let payloads = try await hooks.webhookPayloads(id, cursor: cursor, limit: limit).json
            return .json(reach?.redacted(payloads) ?? payloads)
        default:
            return .error(.notFound)
        }
    }

    func deleteWebhook(_ id: String) async throws -> APIResponse {
        try await hooks.deleteWebhook(id)
        return .json([:])
    }
}
