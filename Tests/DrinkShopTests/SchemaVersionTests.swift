import Airtable
import AirtableFormula
@testable import DrinkShop
import Foundation
import LocalBase
import Synchronization
import TestSupport
import Testing

/// The embedded store records the shop's schema version (`ShopSchemaVersion`) when its schema step has
/// brought it up to date, and the shop knows from it which fields exist: no write refused to find out.
@Suite struct SchemaVersionTests {
    /// Passes every call on (a wrapper: the embedded store's commits and version stay visible through it) and
    /// notes the schema reads and the order writes, with whether each was refused.
    final class CallLog: WrappingRecordStore, @unchecked Sendable {
        let underlying: any RecordStore
        private let calls = Mutex<[String]>([])
        init(_ underlying: any RecordStore) { self.underlying = underlying }
        var log: [String] { calls.withLock { $0 } }
        func note(_ call: String) { calls.withLock { $0.append(call) } }

        func schema() async throws(AirtableError) -> BaseSchema {
            note("schema")
            return try await underlying.schema()
        }

        func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
            async throws(AirtableError) -> [Record]
        {
            do {
                let updated = try await underlying.updateRecords(in: table, updates, replace: replace, options: options)
                note("update")
                return updated
            } catch {
                note("update refused")
                throw error
            }
        }
    }

    /// The shop's tables as an earlier version made them: OrderDrink without the step fields and the audit cell.
    static let olderFields: Set<String> = [OrderField.preparingAt.rawValue, OrderField.readyAt.rawValue,
                                           OrderField.pickedUpAt.rawValue, OrderField.audit.rawValue]

    static func olderStore() async throws -> LocalBase {
        let base = try LocalBase.inMemory(clock: { TestClock.noon })
        for spec in ShopSchema.tables {
            _ = try await base.createTable(TableSpec(name: spec.name, description: spec.description,
                                                     fields: spec.fields.filter { !olderFields.contains($0.name) }))
        }
        return base
    }

    /// Today's order #1, placed, as the shop writes it.
    static func placedOrder(in base: LocalBase) async throws -> Record {
        try await base.createRecord(in: ShopSchema.orderTable, [
            "drinkName": "熟成紅茶", "size": "中杯", "ice": "少冰", "sugar": "半糖", "price": 35, "numberOfCups": 1,
            "orderName": "Amy", "status": "placed", "pickupNumber": 1, "businessDay": "2026-11-29", "orderRef": "o1",
            "ref": "o1-1", "line": 1, "unitPrice": 35, "placedBy": "Ken",
        ], options: WriteOptions(typecast: true))
    }

    @Test func anOlderStoreIsUpgradedInPlaceThenRecordedAndNothingIsLost() async throws {
        let base = try await Self.olderStore()
        let line = try await Self.placedOrder(in: base)
        #expect(try await ShopSchemaVersion.recorded(in: base) == nil)

        let created = try await Shop(store: base).createMissingSchema()
        // And the ordering page's groups, which an older store did not keep.
        #expect(Set(created) == Set(Self.olderFields.map { "field OrderDrink.\($0)" } + ["table OnlineGroup"]))
        #expect(try await ShopSchemaVersion.recorded(in: base) == ShopSchemaVersion.current)
        let order = try #require(try await base.schema().table(ShopSchema.orderTable))
        #expect(Self.olderFields.allSatisfy { order.field($0) != nil })
        let kept = try await base.allRecords(in: ShopSchema.orderTable)
        #expect(kept.map(\.id) == [line.id] && kept.first?.fields == line.fields)
    }

    @Test func aNewerVersionRecordedByALaterDrinkshopIsNeverLowered() async throws {
        let base = try await Self.olderStore()
        try await base.recordSchemaVersion(ShopSchemaVersion.current + 5, named: ShopSchemaVersion.name)
        #expect(try await ShopSchemaVersion.isCurrent(in: base))
        _ = try await Shop(store: base).createMissingSchema()
        #expect(try await ShopSchemaVersion.recorded(in: base) == ShopSchemaVersion.current + 5)
    }

    @Test func atThisVersionAnOrderIsWrittenWithoutReadingTheSchema() async throws {
        let fixture = try await ShopFixture()
        let calls = CallLog(fixture.base)
        let shop = Shop(store: calls, clock: fixture.clock.shopClock)
        _ = try await shop.orders.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])]),
                                        placedBy: "Ken")
        #expect(try await shop.orders.advance(.pickup(1)).order.status == .preparing)
        #expect(calls.log == ["update"])
        let line = try #require(try await fixture.records(ShopSchema.orderTable).first)
        #expect(line.fields[OrderField.preparingAt.rawValue] != nil)
    }

    @Test func belowThisVersionTheSchemaIsReadBeforeTheFirstWriteNeverAfterARefusal() async throws {
        // An embedded store an earlier version made and nothing upgraded (no version recorded).
        let base = try await Self.olderStore()
        let clock = TestClock(TestClock.noon)
        _ = try await Shop(store: base, clock: clock.shopClock).seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        _ = try await Self.placedOrder(in: base)
        let calls = CallLog(base)
        let shop = Shop(store: calls, clock: clock.shopClock)
        #expect(try await shop.orders.advance(.pickup(1)).order.status == .preparing)
        #expect(calls.log == ["schema", "update"])
        let line = try #require(try await base.allRecords(in: ShopSchema.orderTable).first)
        #expect(line.fields[OrderField.status.rawValue] == "preparing")
    }
}
