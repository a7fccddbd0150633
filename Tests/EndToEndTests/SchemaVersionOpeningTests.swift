import Airtable
import AirtableFormula
@testable import DrinkShop
@testable import DrinkShopCLI
import Foundation
import LocalBase
import Testing

/// Opening the embedded store (`EmbeddedStore.open`, what every `drinkshop --db` start runs): a store made
/// before the shop's schema version was recorded is upgraded in place and then recorded; one that records
/// this version is not looked at again.
@Suite(.clearOfShopMidnight) struct SchemaVersionOpeningTests {
    /// OrderDrink as an earlier version made it: without the step fields and the audit cell.
    static let olderFields: Set<String> = ["preparingAt", "readyAt", "pickedUpAt", "audit"]

    /// An earlier version's store at `path`, with a drink and an order in it (a finished set-up), no version.
    static func makeOlderStore(at path: String) async throws -> (drink: Record, line: Record) {
        let base = try LocalBase(path: path)
        for spec in ShopSchema.tables {
            _ = try await base.createTable(TableSpec(name: spec.name, description: spec.description,
                                                     fields: spec.fields.filter { !olderFields.contains($0.name) }))
        }
        let drink = try await base.createRecord(in: ShopSchema.drinkTable, [
            "name": "熟成紅茶", "category": "單品茶", "medium": 35, "large": 40,
        ], options: WriteOptions(typecast: true))
        let line = try await base.createRecord(in: ShopSchema.orderTable, [
            "drinkName": "熟成紅茶", "status": "placed", "pickupNumber": 1, "businessDay": "2026-11-29", "orderRef": "o1",
        ], options: WriteOptions(typecast: true))
        try await base.checkpoint()
        return (drink, line)
    }

    @Test func anOlderStoreIsUpgradedWhenOpenedThenRecordedAndNothingIsLost() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        let (drink, line) = try await Self.makeOlderStore(at: folder.database)

        var notes: [String] = []
        let store = try await EmbeddedStore.open(path: folder.database, mayCreate: false, environment: [:]) { notes.append($0) }
        #expect(notes.count == 1 && notes.first?.hasPrefix("Added to the store: ") == true, "\(notes)")
        #expect(Self.olderFields.allSatisfy { notes.first?.contains("field OrderDrink.\($0)") == true })
        #expect(try await ShopSchemaVersion.recorded(in: store.base) == ShopSchemaVersion.current)
        let order = try #require(try await store.base.schema().table(ShopSchema.orderTable))
        #expect(Self.olderFields.allSatisfy { order.field($0) != nil })
        #expect(try await store.base.allRecords(in: ShopSchema.orderTable).map(\.fields) == [line.fields])
        #expect(try await store.base.allRecords(in: ShopSchema.drinkTable).map(\.fields) == [drink.fields])

        // The next opening finds the version and neither looks nor adds.
        var again: [String] = []
        _ = try await EmbeddedStore.open(path: folder.database, mayCreate: false, environment: [:]) { again.append($0) }
        #expect(again.isEmpty)
    }

    @Test func aStoreRecordingThisVersionIsNotUpgradedAgain() async throws {
        let folder = CounterFolder()
        try folder.make()
        defer { folder.remove() }
        _ = try await Self.makeOlderStore(at: folder.database)
        // Recorded by hand over a store that still lacks the fields: the opening takes the version at its word.
        try await LocalBase(path: folder.database).recordSchemaVersion(ShopSchemaVersion.current, named: "shop")

        var notes: [String] = []
        let store = try await EmbeddedStore.open(path: folder.database, mayCreate: false, environment: [:]) { notes.append($0) }
        #expect(notes.isEmpty)
        let order = try #require(try await store.base.schema().table(ShopSchema.orderTable))
        #expect(Self.olderFields.allSatisfy { order.field($0) == nil })
    }
}
