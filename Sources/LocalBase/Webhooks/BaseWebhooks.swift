import Airtable
import Foundation

/// Webhooks in the SQL tables `webhooks` and `webhook_payloads`, made with the first webhook (an older
/// file is upgraded by use; a file without webhooks is left as it was).
extension BaseContext {
    func hasWebhookTables() throws -> Bool {
        try file.connection.memoizedInWrite("webhook tables") {
            try file.connection.integerValue("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'webhooks'") ?? 0
        } == 1
    }

    private func ensureWebhookTables() throws {
        file.connection.setMemo("webhook tables", nil)
        try file.connection.execute("""
            CREATE TABLE IF NOT EXISTS webhooks (
                id TEXT PRIMARY KEY,
                notification_url TEXT,
                specification TEXT NOT NULL,
                secret TEXT NOT NULL,
                created_ms INTEGER NOT NULL,
                expires_ms INTEGER NOT NULL,
                notifications_enabled INTEGER NOT NULL,
                next_cursor INTEGER NOT NULL,
                notified_cursor INTEGER NOT NULL,
                last_success_ms INTEGER,
                last_result TEXT
            );
            CREATE TABLE IF NOT EXISTS webhook_payloads (
                webhook_id TEXT NOT NULL,
                cursor INTEGER NOT NULL,
                payload TEXT NOT NULL,
                PRIMARY KEY (webhook_id, cursor)
            ) WITHOUT ROWID;
            """)
    }

    func createWebhook(notificationURL: String?, specification: JSONValue) throws -> Webhook {
        let filters = try WebhookFilters(specification: specification, schema: schema())
        _ = filters
        return try file.connection.writeTransaction {
            try ensureWebhookTables()
            var generator = SystemRandomNumberGenerator()
            let secret = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }).base64EncodedString()
            let now = now()
            let expires = now + Int64(Webhook.lifetime * 1000)
            let id = AirtableID.make("ach")
            try file.connection.run("""
                INSERT INTO webhooks(id, notification_url, specification, secret, created_ms, expires_ms,
                                     notifications_enabled, next_cursor, notified_cursor)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, 1, 0)
                """, [.text(id), notificationURL.map(SQLiteValue.text) ?? .null, .text(JSONWriter.string(specification)),
                      .text(secret), .integer(now), .integer(expires)])
            return Webhook(id: id, notificationURL: notificationURL, specification: specification,
                           macSecretBase64: secret, expirationTime: date(expires))
        }
    }

    func webhooks() throws -> [Webhook] {
        guard try hasWebhookTables() else { return [] }
        var all: [Webhook] = []
        try file.connection.query("""
            SELECT id, notification_url, specification, secret, expires_ms, notifications_enabled, next_cursor,
                   last_success_ms, last_result
            FROM webhooks ORDER BY created_ms, id
            """) { row in
            all.append(Webhook(
                id: row.text(0) ?? "", notificationURL: row.isNull(1) ? nil : row.text(1),
                specification: (try? JSONParser.parse(row.text(2) ?? "{}")) ?? [:], macSecretBase64: row.text(3) ?? "",
                expirationTime: date(row.int64(4)), areNotificationsEnabled: row.int64(5) != 0,
                cursorForNextPayload: Int(row.int64(6)),
                lastSuccessfulNotificationTime: row.isNull(7) ? nil : date(row.int64(7)),
                lastNotificationResult: row.isNull(8) ? nil : try? JSONParser.parse(row.text(8) ?? "null")))
        }
        return all
    }

    func webhook(_ id: String) throws -> Webhook {
        guard let found = try webhooks().first(where: { $0.id == id }) else { throw APIError.notFound }
        return found
    }

    func deleteWebhook(_ id: String) throws {
        try file.connection.writeTransaction {
            _ = try webhook(id)
            try file.connection.run("DELETE FROM webhooks WHERE id = ?1", [.text(id)])
            try file.connection.run("DELETE FROM webhook_payloads WHERE webhook_id = ?1", [.text(id)])
        }
    }

    func refreshWebhook(_ id: String) throws -> Date {
        try file.connection.writeTransaction {
            _ = try webhook(id)
            let expires = now() + Int64(Webhook.lifetime * 1000)
            try file.connection.run("UPDATE webhooks SET expires_ms = ?2 WHERE id = ?1", [.text(id), .integer(expires)])
            return date(expires)
        }
    }

    func enableWebhookNotifications(_ id: String, _ enable: Bool) throws {
        try file.connection.writeTransaction {
            _ = try webhook(id)
            try file.connection.run("UPDATE webhooks SET notifications_enabled = ?2 WHERE id = ?1",
                                    [.text(id), .integer(enable ? 1 : 0)])
        }
    }

    func webhookPayloads(_ id: String, cursor: Int, limit: Int) throws -> WebhookPayloadPage {
        try file.connection.readTransaction {
            let hook = try webhook(id)
            guard cursor >= 1 else {
                throw APIError.invalidRequest("cursor must be 1 or more, not \(cursor)")
            }
            guard cursor <= hook.cursorForNextPayload else {
                throw APIError.invalidRequest("cursor \(cursor) is beyond this webhook's next payload "
                    + "(\(hook.cursorForNextPayload)); cursors come from earlier pages")
            }
            guard (1...Webhook.maximumPayloadPage).contains(limit) else {
                throw APIError.invalidRequest("limit must be from 1 to \(Webhook.maximumPayloadPage), not \(limit)")
            }
            var payloads: [JSONValue] = []
            try file.connection.query("""
                SELECT payload FROM webhook_payloads WHERE webhook_id = ?1 AND cursor >= ?2 ORDER BY cursor LIMIT ?3
                """, [.text(id), .integer(Int64(cursor)), .integer(Int64(limit))]) { row in
                payloads.append(try JSONParser.parse(row.text(0) ?? "{}"))
            }
            let next = cursor + payloads.count
            return WebhookPayloadPage(payloads: payloads, cursor: next, mightHaveMore: next < hook.cursorForNextPayload)
        }
    }

    func webhooksToNotify() throws -> [Webhook] {
        guard try hasWebhookTables() else { return [] }
        return try file.connection.writeTransaction {
            let due = try webhooks().filter { hook in
                hook.areNotificationsEnabled && hook.notificationURL != nil && hook.expirationTime > clock()
            }
            var told: [Webhook] = []
            for hook in due {
                let notified = try file.connection.integerValue("SELECT notified_cursor FROM webhooks WHERE id = ?1",
                                                                [.text(hook.id)]) ?? 0
                guard notified < Int64(hook.cursorForNextPayload - 1) else { continue }
                try file.connection.run("UPDATE webhooks SET notified_cursor = ?2 WHERE id = ?1",
                                        [.text(hook.id), .integer(Int64(hook.cursorForNextPayload - 1))])
                told.append(hook)
            }
            return told
        }
    }

    func recordNotification(_ id: String, success: Bool, error: String?, at time: Date, durationMs: Double,
                            retryNumber: Int = 0) throws {
        try file.connection.writeTransaction {
            guard try hasWebhookTables() else { return }
            var result: [String: JSONValue] = [
                "success": .bool(success), "completionTimestamp": .string(AirtableTimestamp.format(time)),
                "durationMs": .number(durationMs), "retryNumber": .number(Double(retryNumber)),
            ]
            if let error { result["error"] = ["message": .string(error)] }
            try file.connection.run("UPDATE webhooks SET last_result = ?2 WHERE id = ?1",
                                    [.text(id), .text(JSONWriter.string(.object(result)))])
            if success {
                try file.connection.run("UPDATE webhooks SET last_success_ms = ?2 WHERE id = ?1",
                                        [.text(id), .integer(millis(time))])
            }
        }
    }

    private func date(_ millis: Int64) -> Date { Date(timeIntervalSince1970: Double(millis) / 1000) }
}
