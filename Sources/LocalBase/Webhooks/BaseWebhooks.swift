import Airtable
import AirtableFormula
import Foundation

/// Webhooks in the SQL tables `webhooks` and `webhook_payloads`, made with the first webhook (an older
/// file is upgraded by use; a file without webhooks is left as it was).
extension BaseContext {
    /// At most this many webhooks in a base, as Airtable allows.
    static let maximumWebhooks = 10

    func hasWebhookTables() throws -> Bool {
        try webhookTablesState() >= 1
    }

    /// 0: no webhook tables; 1: made by a version that kept no payload ages; 2: as this version makes them.
    /// Asked by every write: the columns are only read when there are webhook tables (the two tables are
    /// made in one transaction), as `pragma_table_info` prepares a statement of its own each time it runs.
    private func webhookTablesState() throws -> Int64 {
        try file.connection.memoizedInWrite("webhook tables") {
            guard try file.connection.schemaHas("table", named: "webhooks") else { return 0 }
            return try file.connection.integerValue("""
                SELECT 1 + (SELECT count(*) FROM pragma_table_info('webhook_payloads') WHERE name = 'created_ms')
                """) ?? 0
        }
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
                created_ms INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (webhook_id, cursor)
            ) WITHOUT ROWID;
            """)
        try upgradeWebhookPayloads()
        // Each write lists the live webhooks by this index alone: a specification (up to 8 KB, in overflow
        // pages) lies before expires_ms in the row, so reading the row would walk its pages.
        try file.connection.execute("""
            CREATE INDEX IF NOT EXISTS webhook_payloads_by_age ON webhook_payloads(created_ms);
            CREATE INDEX IF NOT EXISTS webhooks_by_expiry ON webhooks(expires_ms, id);
            CREATE INDEX IF NOT EXISTS webhooks_to_notify ON webhooks(notifications_enabled, expires_ms, notified_cursor,
                                                                      next_cursor, id, notification_url, secret);
            """)
    }

    /// Gives payloads written by an earlier version their age (from their own timestamp) and the index
    /// that pruning by age reads; nothing when they have it. Call inside a write transaction.
    func upgradeWebhookPayloads() throws {
        guard try webhookTablesState() == 1 else { return }
        try file.connection.execute("""
            ALTER TABLE webhook_payloads ADD COLUMN created_ms INTEGER NOT NULL DEFAULT 0;
            UPDATE webhook_payloads SET created_ms =
                coalesce(CAST(strftime('%s', json_extract(payload, '$.timestamp')) AS INTEGER) * 1000, 0);
            CREATE INDEX IF NOT EXISTS webhook_payloads_by_age ON webhook_payloads(created_ms);
            CREATE INDEX IF NOT EXISTS webhooks_by_expiry ON webhooks(expires_ms, id);
            CREATE INDEX IF NOT EXISTS webhooks_to_notify ON webhooks(notifications_enabled, expires_ms, notified_cursor,
                                                                      next_cursor, id, notification_url, secret);
            """)
        file.connection.setMemo("webhook tables", 2)
    }

    /// Drops payloads older than Airtable keeps them (``Webhook/payloadLifetime``): one index probe when
    /// there is nothing to drop. Call inside a write transaction.
    func prunePayloads() throws {
        try upgradeWebhookPayloads()
        let cutoff = now() - Int64(Webhook.payloadLifetime * 1000)
        try file.connection.run("DELETE FROM webhook_payloads WHERE created_ms < ?1", [.integer(cutoff)])
    }

    func createWebhook(notificationURL: String?, specification: JSONValue) throws -> Webhook {
        let parsed = try WebhookSpecification(validating: specification)
        if let scope = parsed.recordChangeScope {
            guard scope.hasPrefix("tbl"), try schema().table(scope) != nil else {
                throw APIError.invalidRequest("options.filters.recordChangeScope \"\(scope)\" is not the id of a "
                    + "table of this base (this server watches tables, not views)")
            }
        }
        return try file.connection.writeTransaction {
            try ensureWebhookTables()
            let count = try file.connection.integerValue("SELECT count(*) FROM webhooks") ?? 0
            guard count < Int64(Self.maximumWebhooks) else {
                throw APIError.invalidRequest("this base already has \(count) webhooks, the most Airtable allows "
                    + "(\(Self.maximumWebhooks)); delete one first")
            }
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
            webhookSpecifications[id] = (specification, parsed)
            return Webhook(id: id, notificationURL: notificationURL, specification: specification,
                           macSecretBase64: secret, expirationTime: date(expires))
        }
    }

    /// The specification of webhook `id`, parsed the first time it is asked for; nil when it does not parse
    /// (a webhook stored by an earlier version that checked less), which watches nothing.
    func specification(of id: String) throws -> (json: JSONValue, parsed: WebhookSpecification)? {
        if let known = webhookSpecifications[id] { return known }
        guard let text = try file.connection.textValue("SELECT specification FROM webhooks WHERE id = ?1", [.text(id)]),
              let json = try? JSONParser.parse(text), let parsed = try? WebhookSpecification(validating: json)
        else { return nil }
        webhookSpecifications[id] = (json, parsed)
        return (json, parsed)
    }

    /// Forgets the specifications of webhooks that are gone.
    private func keepSpecifications(of ids: [String]) {
        guard webhookSpecifications.count > ids.count else { return }
        let live = Set(ids)
        webhookSpecifications = webhookSpecifications.filter { live.contains($0.key) }
    }

    /// Every webhook, oldest first; the specification column is read only for a webhook not seen before.
    func webhooks() throws -> [Webhook] {
        guard try hasWebhookTables() else { return [] }
        var rows: [Webhook] = []
        try file.connection.query("""
            SELECT id, notification_url, secret, expires_ms, notifications_enabled, next_cursor,
                   last_success_ms, last_result
            FROM webhooks ORDER BY created_ms, id
            """) { row in
            rows.append(Webhook(
                id: row.text(0) ?? "", notificationURL: row.isNull(1) ? nil : row.text(1),
                specification: [:], macSecretBase64: row.text(2) ?? "",
                expirationTime: date(row.int64(3)), areNotificationsEnabled: row.int64(4) != 0,
                cursorForNextPayload: Int(row.int64(5)),
                lastSuccessfulNotificationTime: row.isNull(6) ? nil : date(row.int64(6)),
                lastNotificationResult: row.isNull(7) ? nil : try? JSONParser.parse(row.text(7) ?? "null")))
        }
        keepSpecifications(of: rows.map(\.id))
        for index in rows.indices {
            if let known = try specification(of: rows[index].id) {
                rows[index].specification = known.json
            } else if let text = try file.connection.textValue("SELECT specification FROM webhooks WHERE id = ?1",
                                                                [.text(rows[index].id)]) {
                rows[index].specification = (try? JSONParser.parse(text)) ?? [:]
            }
        }
        return rows
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
            webhookSpecifications[id] = nil
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
            var last: Int?
            try file.connection.query("""
                SELECT payload, cursor FROM webhook_payloads WHERE webhook_id = ?1 AND cursor >= ?2
                ORDER BY cursor LIMIT ?3
                """, [.text(id), .integer(Int64(cursor)), .integer(Int64(limit))]) { row in
                payloads.append(try JSONParser.parse(row.text(0) ?? "{}"))
                last = Int(row.int64(1))
            }
            // Payloads older than 7 days are gone, so cursors may skip: the next page starts after the last
            // one read, or at the next payload to come when none is left from `cursor` on.
            let next = last.map { $0 + 1 } ?? hook.cursorForNextPayload
            return WebhookPayloadPage(payloads: payloads, cursor: next, mightHaveMore: next < hook.cursorForNextPayload)
        }
    }

    /// Asked after every write through the server: read from `webhooks_to_notify` alone (the rows hold the
    /// specifications), and no write at all when nothing is due.
    func webhooksToNotify() throws -> [Webhook] {
        guard try hasWebhookTables() else { return [] }
        let select = """
            SELECT id, notification_url, secret, next_cursor, expires_ms FROM webhooks
            WHERE notifications_enabled = 1 AND expires_ms > ?1 AND notified_cursor < next_cursor - 1
              AND notification_url IS NOT NULL
            """
        func due() throws -> [Webhook] {
            var found: [Webhook] = []
            try file.connection.query(select, [.integer(now())]) { row in
                let id = row.text(0) ?? ""
                found.append(Webhook(id: id, notificationURL: row.text(1), specification: webhookSpecifications[id]?.json ?? [:],
                                     macSecretBase64: row.text(2) ?? "", expirationTime: date(row.int64(4)),
                                     cursorForNextPayload: Int(row.int64(3))))
            }
            return found
        }
        guard try !file.connection.readTransaction(due).isEmpty else { return [] }
        return try file.connection.writeTransaction {
            let told = try due()
            for hook in told {
                try file.connection.run("UPDATE webhooks SET notified_cursor = ?2 WHERE id = ?1",
                                        [.text(hook.id), .integer(Int64(hook.cursorForNextPayload - 1))])
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
