import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import TestSupport
import Testing

/// On the embedded base an order is one durable commit: its pickup number and its lines together.
@Suite struct EmbeddedCommitTests {
    static func order(_ fixture: ShopFixture, lines: Int) -> OrderDraft {
        OrderDraft(lines: (0..<lines).map { _ in fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)]) })
    }

    @Test func placingAnOrderIsOneDurableCommitOfItsNumberAndItsLines() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.catalog.menu()
        let before = fixture.base.commitCount
        let placed = try await fixture.shop.orders.place(Self.order(fixture, lines: 3), placedBy: "Ken")
        #expect(fixture.base.commitCount - before == 1)
        #expect(placed.order.pickupNumber == 1 && placed.recordIDs.count == 3)
        let second = try await fixture.shop.orders.place(Self.order(fixture, lines: 1), placedBy: "Ken")
        #expect(second.order.pickupNumber == 2 && fixture.base.commitCount - before == 2)
        let tickets = try await fixture.records(ShopSchema.ticketTable)
        #expect(tickets.compactMap { $0.fields[TicketField.number.rawValue]?.intValue }.sorted() == [1, 2])
        let lines = try await fixture.records(ShopSchema.orderTable)
        #expect(lines.compactMap { $0.fields[OrderField.pickupNumber.rawValue]?.intValue }.sorted() == [1, 1, 1, 2])
    }

    /// With an archive of closed days (whose reads wrap the store), an order is still one commit and the
    /// list is still read by the indexes, not kept as a remote counter's copy.
    @Test func withAnArchiveAnOrderIsStillOneCommit() async throws {
        let fixture = try await ShopFixture()
        let archiveBase = try LocalBase.inMemory()
        let shop = Shop(store: fixture.base, clock: fixture.clock.shopClock,
                        archive: DayArchive(store: archiveBase, location: "archive.sqlite"))
        _ = try await shop.catalog.menu()
        let before = fixture.base.commitCount
        let placed = try await shop.orders.place(Self.order(fixture, lines: 2), placedBy: "Ken")
        #expect(fixture.base.commitCount - before == 1 && placed.order.pickupNumber == 1)
        #expect(try await shop.orders.lastKnownToday()?.count == 1)
    }

    @Test func aClaimWhoseLinesAreRefusedLeavesNeitherTicketNorLineBehind() async throws {
        let fixture = try await ShopFixture()
        let base = fixture.base
        await #expect(throws: AirtableError.self) {
            _ = try await base.atomically { (transaction) throws(AirtableError) -> Int in
                _ = try transaction.createRecords(in: ShopSchema.ticketTable, [["number": .int(1)]],
                                                  options: WriteOptions())
                // Its own write is seen inside the commit.
                let seen = try transaction.listRecords(in: ShopSchema.ticketTable, query: ListQuery()).records.count
                #expect(seen == 1)
                _ = try transaction.createRecords(in: ShopSchema.orderTable, [["no such field": .int(1)]],
                                                  options: WriteOptions())
                return seen
            }
        }
        #expect(try await fixture.records(ShopSchema.ticketTable).isEmpty)
        #expect(try await fixture.records(ShopSchema.orderTable).isEmpty)
        let next = try await fixture.shop.orders.place(Self.order(fixture, lines: 1), placedBy: "Ken")
        #expect(next.order.pickupNumber == 1)
    }

    /// Counters on the embedded file and counters over the record API (here: a wrapper that is not
    /// atomic, so it claims by create-and-check) share the same base at once: no number twice.
    @Test func embeddedAndAPICountersTogetherNeverShareANumber() async throws {
        let fixture = try await ShopFixture()
        let apiCounter = Shop(store: CountingStore(fixture.base), clock: fixture.clock.shopClock)
        let embedded = fixture.shop
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                let shop = index.isMultiple(of: 2) ? embedded : apiCounter
                group.addTask { try await shop.orders.place(Self.order(fixture, lines: 1), placedBy: "Ken").order.pickupNumber }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(Set(numbers).count == 24)
        let stored = try await fixture.records(ShopSchema.orderTable).compactMap { $0.fields[OrderField.pickupNumber.rawValue]?.intValue }
        #expect(Set(stored).count == 24 && stored.count == 24)
    }
}
