import Airtable
import Foundation
@testable import LocalBase
import Testing
import TestSupport

/// Payloads are kept 7 days (dropped by the next write, also in a file whose payloads an earlier version
/// wrote without their age), and a write reads each webhook's specification only the first time.
@Suite struct WebhookPayloadAgeTests {
    private let spec: JSONValue = ["options": ["filters": ["dataTypes": ["tableData"]]]]
    private let orders = TableSpec(name: "Orders", fields: [FieldSpec(name: "name", type: .singleLineText)])

    @Test func payloadsWrittenByAnEarlierVersionAgeOutToo() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let clock = TestClock()
        let hookID: String
        do {
            let base = try LocalBase(path: path, clock: { clock.now })
            _ = try await base.createTable(orders)
            let owner = try #require(try await base.collaborators().first)
            hookID = try await base.createWebhook(notificationURL: nil, specification: spec, by: owner).id
            _ = try await base.createRecords(in: "Orders", [["name": "Amy"]], options: WriteOptions())
        }
        // As an earlier version left it: payloads without their age, and no index on it.
        let older = try SQLiteConnection(path: path)
        try older.execute("""
            DROP INDEX webhook_payloads_by_age;
            CREATE TABLE old_payloads (webhook_id TEXT NOT NULL, cursor INTEGER NOT NULL, payload TEXT NOT NULL,
                                       PRIMARY KEY (webhook_id, cursor)) WITHOUT ROWID;
            INSERT INTO old_payloads SELECT webhook_id, cursor, payload FROM webhook_payloads;
            DROP TABLE webhook_payloads;
            ALTER TABLE old_payloads RENAME TO webhook_payloads;
            """)

        clock.advance(by: 3 * 86_400)
        let base = try LocalBase(path: path, clock: { clock.now })
        _ = try await base.createRecords(in: "Orders", [["name": "Bo"]], options: WriteOptions())
        #expect(try await base.webhookPayloads(hookID, cursor: 1, limit: 50).payloads.count == 2)

        clock.advance(by: 5 * 86_400)
        _ = try await base.refreshWebhook(hookID)
        _ = try await base.createRecords(in: "Orders", [["name": "Cy"]], options: WriteOptions())
        let page = try await base.webhookPayloads(hookID, cursor: 1, limit: 50)
        // Amy's payload (8 days old) is gone; Bo's (5 days) and Cy's stay, and the cursor goes on after Cy's.
        #expect(page.payloads.count == 2)
        #expect(page.cursor == 4 && !page.mightHaveMore)
    }

    @Test func aWriteDoesNotReadTheSpecificationsAgain() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let base = try LocalBase(path: path)
        _ = try await base.createTable(orders)
        let owner = try #require(try await base.collaborators().first)
        let hookID = try await base.createWebhook(notificationURL: nil, specification: spec, by: owner).id
        // Another connection spoils the stored text; this process parsed it when the webhook was made, and
        // specifications never change, so its writes go on making payloads from what it parsed.
        try SQLiteConnection(path: path).execute("UPDATE webhooks SET specification = 'not json'")
        _ = try await base.createRecords(in: "Orders", [["name": "Amy"]], options: WriteOptions())
        _ = try await base.createRecords(in: "Orders", [["name": "Bo"]], options: WriteOptions())
        #expect(try await base.webhookPayloads(hookID, cursor: 1, limit: 50).payloads.count == 2)
        // A process that never saw it reads the spoilt text once, and the webhook then watches nothing.
        let other = try LocalBase(path: path)
        _ = try await other.createRecords(in: "Orders", [["name": "Cy"]], options: WriteOptions())
        #expect(try await other.webhookPayloads(hookID, cursor: 1, limit: 50).payloads.count == 2)
    }
}
