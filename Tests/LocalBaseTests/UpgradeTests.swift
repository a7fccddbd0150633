import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing

/// A file made before comments, users, links, views and webhooks existed (tables and records only, which
/// is all an earlier version wrote) opens as it is, is left byte-identical by reads, and gains the new
/// tables and metadata on first use with every record kept.
@Suite struct UpgradeTests {
    @Test func anOlderFileIsUpgradedByUseAndLosesNothing() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        var ids: [String] = []
        do {
            let base = try LocalBase(path: path)
            _ = try await base.createTable(TableSpec(name: "Orders", fields: [FieldSpec(name: "name", type: .singleLineText)]))
            ids = try await base.createRecords(in: "Orders", [["name": "Amy"], ["name": "Bo"]], options: WriteOptions()).map(\.id)
        }
        let base = try LocalBase(path: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        _ = try await base.listRecords(in: "Orders", query: ListQuery(includeCommentCount: true))
        _ = try await base.webhooks()
        _ = try await base.comments(in: "Orders", record: ids[0], pageSize: 10, offset: nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

        let owner = try #require(try await base.collaborators().first)
        _ = try await base.addComment(in: "Orders", record: ids[0], text: "no ice", author: owner)
        _ = try await base.createWebhook(notificationURL: nil, specification: ["options": ["filters": ["dataTypes": ["tableData"]]]],
                                         by: owner)
        _ = try await base.createTable(TableSpec(name: "Address", fields: [
            FieldSpec(name: "street", type: .singleLineText),
            FieldSpec(name: "orders", type: .multipleRecordLinks, options: ["linkedTableId": "Orders"]),
        ]))
        try await base.defineViews([ViewDefinition(table: "Orders", name: "By name", sort: [SortKey(field: "name")])])
        _ = try await base.updateRecord(in: "Orders", id: ids[1], ["name": "Cy"])

        // Reopened, everything is there: old records, the comment, the webhook's payload, the inverse field.
        let reopened = try LocalBase(path: path)
        let records = try await reopened.allRecords(in: "Orders", query: ListQuery(view: "By name"))
        #expect(records.map(\.id) == [ids[0], ids[1]])
        #expect(records.compactMap { $0.fields["name"]?.stringValue } == ["Amy", "Cy"])
        #expect(try await reopened.commentCounts(in: "Orders", records: ids) == [ids[0]: 1, ids[1]: 0])
        let hook = try #require(try await reopened.webhooks().first)
        #expect(try await reopened.webhookPayloads(hook.id, cursor: 1, limit: 50).payloads.count == 1)
        #expect(try await reopened.schema().table("Orders")?.field("Address")?.type == .multipleRecordLinks)
        #expect(try await reopened.collaborators() == [owner])
    }

    /// The owner a new file is made with is the opening program's; a file that has its owner keeps it,
    /// whoever opens it later, so cells that name the owner (createdBy) never change.
    @Test func theOwnerIsTheOpeningProgramsAndKeptOnceMade() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let shop = OwnerProfile(name: "Tea shop owner", email: "owner@tea.example")
        do {
            let base = try LocalBase(path: path, owner: shop)
            let owner = try #require(try await base.collaborators().first)
            #expect(owner.name == shop.name && owner.email == shop.email)
        }
        let first = try #require(try await LocalBase(path: path).collaborators().first)
        #expect(first.name == shop.name && first.email == shop.email)
        let other = try LocalBase(path: path, owner: OwnerProfile(name: "Someone else", email: "else@example.com"))
        #expect(try await other.collaborators() == [first])
        let unnamed = try #require(try await LocalBase.inMemory().collaborators().first)
        #expect(unnamed.name == OwnerProfile.placeholder.name && !unnamed.email.contains("drinkshop"))
    }
}
