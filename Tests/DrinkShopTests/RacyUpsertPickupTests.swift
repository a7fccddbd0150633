import Airtable
import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Synchronization
import Testing

/// A store whose upsert is not atomic: it looks for a match, pauses, then writes, so two concurrent
/// upserts on one key both "succeed" as creations and the last writer wins. Every other request pauses a
/// random moment too, so concurrent counters interleave.
final class RacyUpsertStore: RecordStore {
    let base: LocalBase
    private let requests = Mutex(0)

    init(_ base: LocalBase) { self.base = base }

    var requestCount: Int { requests.withLock { $0 } }

    private func pause(_ millis: ClosedRange<Int> = 0...3) async {
        requests.withLock { $0 += 1 }
        try? await Task.sleep(for: .milliseconds(Int.random(in: millis)))
    }

    func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        await pause()
        return try await base.listRecords(in: table, query: query)
    }

    func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        await pause()
        return try await base.getRecord(in: table, id: id, options: options)
    }

    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        await pause()
        return try await base.createRecords(in: table, records, options: options)
    }

    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        await pause()
        return try await base.updateRecords(in: table, updates, replace: replace, options: options)
    }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        await pause()
        var result = UpsertResult(records: [], createdRecords: [], updatedRecords: [])
        for record in records {
            let matches = mergeOn.map { (name: String) -> FormulaExpression in
                let value: FormulaExpression = record.fields[name]?.stringValue.map { .text($0) }
                    ?? .number(record.fields[name]?.numberValue ?? 0)
                return FormulaExpression.field(name) == value
            }
            let existing = try await base.listRecords(in: table, query: ListQuery(
                filterByFormula: FormulaExpression.and(matches).description, pageSize: 1)).records.first
            try? await Task.sleep(for: .milliseconds(Int.random(in: 5...15)))  // the race window
            if let existing {
                let updated = try await base.updateRecords(in: table, [RecordUpdate(id: existing.id, fields: record.fields)],
                                                           replace: replace, options: options)
                result.records += updated
                result.updatedRecords += updated.map(\.id)
            } else {
                let created = try await base.createRecords(in: table, [record.fields], options: options)
                result.records += created
                result.createdRecords += created.map(\.id)
            }
        }
        return result
    }

    func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        await pause()
        return try await base.deleteRecords(in: table, ids: ids)
    }

    func schema() async throws(AirtableError) -> BaseSchema { try await base.schema() }
}

@Suite struct RacyUpsertPickupTests {
    @Test("the test store really lets two concurrent upserts on one key both succeed")
    func theStoreIsRacy() async throws {
        let fixture = try await ShopFixture(seeded: false)
        let store = RacyUpsertStore(fixture.base)
        let ticket = UpsertRecord(fields: ["key": .string("2026-12-01#1"), "number": .int(1)])
        async let first = store.upsertRecords(in: ShopSchema.ticketTable, [ticket], mergeOn: ["key"],
                                              replace: false, options: WriteOptions())
        async let second = store.upsertRecords(in: ShopSchema.ticketTable, [ticket], mergeOn: ["key"],
                                               replace: false, options: WriteOptions())
        let results = try await [first, second]
        #expect(results.allSatisfy { $0.createdRecords.count == 1 })
    }

    @Test("three counters on a store with non-atomic upserts never share a pickup number",
          arguments: [false, true])
    func numbersStayUniqueWithoutAtomicUpserts(wholeSeconds: Bool) async throws {
        // A LocalBase on the real clock, its creation times in milliseconds or (as real Airtable records
        // often show) whole seconds, where concurrent tickets tie.
        let fixture = try await ShopFixture()
        let racyBase = try LocalBase.inMemory(clock: {
            wholeSeconds ? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) : Date()
        })
        let store = RacyUpsertStore(racyBase)
        let seeding = Shop(store: racyBase, clock: fixture.clock.shopClock)
        try await seeding.createMissingSchema()
        _ = try await seeding.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        let counters = (0..<3).map { _ in Shop(store: store, clock: fixture.clock.shopClock) }
        let draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        let before = store.requestCount
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<30 {
                let shop = counters[index % counters.count]
                group.addTask { try await shop.orders.place(draft, placedBy: "Ken").order.pickupNumber }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(numbers.count == 30)
        #expect(numbers.allSatisfy { $0 >= 1 })
        #expect(Set(numbers).count == 30, "a number was handed out twice: \(numbers.sorted())")
        let stored = try await racyBase.allRecords(in: ShopSchema.orderTable)
        let storedNumbers = stored.compactMap { $0.fields["pickupNumber"]?.intValue }
        #expect(Set(storedNumbers) == Set(numbers))
        #expect(storedNumbers.count == 30)
        // Recorded for the report: requests per order under contention.
        print("racy store (whole seconds: \(wholeSeconds)): \(store.requestCount - before) requests for 30 contended orders, numbers up to \(numbers.max() ?? 0)")
    }
}
