import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Synchronization
import Testing

/// A store in front of a LocalBase that keeps attachments as Airtable does: an attachment sent by `url`
/// is "uploaded" (counted) and kept under a new `att…` id with an expiring airtableusercontent URL and
/// the filename of the original; one sent as `{"id": …}` alone keeps the attachment of that id; a cell
/// is replaced by exactly what is sent.
final class AirtableStyleAttachmentStore: ForwardingRecordStore {
    let base: LocalBase
    private let state = Mutex((uploads: 0, byID: [String: JSONValue]()))

    init(_ base: LocalBase) { self.base = base }
    var underlying: any RecordStore { base }

    var uploads: Int { state.withLock { $0.uploads } }

    private func keep(_ fields: Fields) -> Fields {
        guard let items = fields["image"]?.arrayValue else { return fields }
        var sent = fields
        sent["image"] = .array(items.map { item in
            state.withLock { state in
                if item["url"] == nil, let id = item["id"]?.stringValue, let kept = state.byID[id] { return kept }
                let original = item["url"]?.stringValue ?? ""
                let name = original.split(separator: "/").last.map(String.init) ?? "attachment"
                let id = AirtableID.make("att")
                let copy: JSONValue = .object([
                    "id": .string(id), "filename": .string(name),
                    "url": .string("https://v5.airtableusercontent.com/v3/u/29/29/1764590400000/\(AirtableID.make("x"))/\(id)"),
                ])
                state.uploads += 1
                state.byID[id] = copy
                return copy
            }
        })
        return sent
    }

    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        try await base.createRecords(in: table, records.map(keep), options: options)
    }

    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        try await base.updateRecords(in: table, updates.map { RecordUpdate(id: $0.id, fields: keep($0.fields)) },
                                     replace: replace, options: options)
    }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        try await base.upsertRecords(in: table, records.map { UpsertRecord(id: $0.id, fields: keep($0.fields)) },
                                     mergeOn: mergeOn, replace: replace, options: options)
    }
}

@Suite struct AirtableAttachmentTests {
    @Test("seeding the same file twice against Airtable-style attachments changes and uploads nothing")
    func reseedingLeavesAttachmentsAlone() async throws {
        let fixture = try await ShopFixture(seeded: false)
        let store = AirtableStyleAttachmentStore(fixture.base)
        let shop = Shop(store: store, clock: fixture.clock.shopClock)
        let first = try await shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        #expect(first.drinks.created == 28)
        let uploaded = store.uploads
        #expect(uploaded > 0)
        let images = try await fixture.records("Drink").compactMap { $0.fields["image"] }
        #expect(images.allSatisfy { $0.arrayValue?.first?["url"]?.stringValue?.contains("airtableusercontent") == true })

        let again = try await shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        #expect(again.drinks.updated == 0)
        #expect(again.drinks.unchanged == 28)
        #expect(store.uploads == uploaded, "nothing is sent again")
    }

    @Test("a changed drink keeps its stored image by id, and order lines never store an expiring URL")
    func aChangeKeepsTheImageAndLinesStoreNoExpiringURL() async throws {
        let fixture = try await ShopFixture(seeded: false)
        let store = AirtableStyleAttachmentStore(fixture.base)
        let shop = Shop(store: store, clock: fixture.clock.shopClock)
        _ = try await shop.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        let before = try await fixture.records("Drink").first { $0.fields["name"] == "熟成紅茶" }
        let imageBefore = try #require(before?.fields["image"])
        let uploaded = store.uploads

        // The same file with one price changed.
        let text = try String(contentsOfFile: ShopFixture.seeds + "/menu.json", encoding: .utf8)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var records = try #require(json["records"] as? [[String: Any]])
        let index = try #require(records.firstIndex { ($0["fields"] as? [String: Any])?["name"] as? String == "熟成紅茶" })
        var fields = try #require(records[index]["fields"] as? [String: Any])
        fields["medium"] = 39
        records[index]["fields"] = fields
        json["records"] = records
        let directory = try TemporaryDirectory()
        let path = directory.path + "/menu.json"
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        let changed = try await shop.seeder.seed(contentsOf: path)
        #expect(changed.drinks.updated == 1)
        #expect(store.uploads == uploaded, "the image is kept by its id, not sent again")
        let after = try await fixture.records("Drink").first { $0.fields["name"] == "熟成紅茶" }
        #expect(after?.fields["image"] == imageBefore)
        #expect(after?.fields["medium"]?.intValue == 39)

        let placed = try await shop.orders.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])]),
                                                 placedBy: "Ken")
        #expect(placed.order.pickupNumber == 1)
        let lines = try await fixture.records("OrderDrink")
        #expect(lines.count == 1)
        #expect(lines.allSatisfy { $0.fields["imageUrl"]?.stringValue?.contains("airtableusercontent") != true })
        #expect(lines.first?.fields["drinkName"] == "熟成紅茶")
    }
}
