import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import TestSupport
import Testing

/// One commit strategy per kind of store, chosen once where the store is chosen (`commitStrategy(over:)` in
/// `Shop.init`): no service asks which store it runs on.
@Suite struct CommitStrategyTests {
    static let module = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/DrinkShop")

    /// The files of the shop module that test which kind of store they run on.
    static func filesAsking(under module: URL) throws -> [String] {
        let walker = FileManager.default.enumerator(at: module, includingPropertiesForKeys: nil)
        var found: [String] = []
        for file in (walker?.allObjects as? [URL] ?? []) where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.contains("atomicStore") || text.contains("as? any AtomicRecordStore") || text.contains("is any AtomicRecordStore") {
                found.append(String(file.path.dropFirst(module.path.count + 1)))
            }
        }
        return found.sorted()
    }

    @Test("only commitStrategy(over:) asks whether the store commits several calls as one")
    func oneChoice() throws {
        #expect(try Self.filesAsking(under: Self.module) == ["Commit/CommitStrategy.swift"])
    }

    @Test("the embedded base commits as one transaction; the same base seen over the API by ordered writes")
    func chosenByStore() async throws {
        let base = try LocalBase.inMemory(clock: TestClock(TestClock.noon).date)
        let embedded = commitStrategy(over: base)
        let remote = commitStrategy(over: OrderQueriesTests.OverTheAPI(underlying: base))
        #expect(embedded is OneTransaction && embedded.copyCommittedWithLedger)
        #expect(remote is OrderedWrites && !remote.copyCommittedWithLedger)
    }

    @Test("a read written back is the same rule both ways: the cells change makes of the record, and its outcome")
    func readAndWriteBothWays() async throws {
        let clock = TestClock(TestClock.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        try await Shop(store: base, clock: clock.shopClock).createMissingSchema()
        let table = ShopSchema.userTable
        let created = try await base.createRecords(in: table, [Fields([UserField.name: .string("Amy"), .failedLogins: .int(0)])],
                                                   options: WriteOptions())
        let id = try #require(created.first?.id)
        let count: @Sendable (Record) -> (cells: Fields?, outcome: Int) = { record in
            let tries = (record.fields[UserField.failedLogins]?.intValue ?? 0) + 1
            return (Fields([UserField.failedLogins: .int(tries)]), tries)
        }
        for strategy in [commitStrategy(over: base), commitStrategy(over: OrderQueriesTests.OverTheAPI(underlying: base))] {
            _ = try await strategy.readAndWrite(in: table, id: id, count)
        }
        let stored = try await base.getRecord(in: table, id: id, options: ReadOptions())
        #expect(stored.fields[UserField.failedLogins]?.intValue == 2)
    }
}
