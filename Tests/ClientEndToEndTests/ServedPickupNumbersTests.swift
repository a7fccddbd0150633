import Airtable
import AirtableServer
@testable import DrinkShop
import DrinkShopCore
import Foundation
import Testing
import TestSupport

/// Pickup numbers on `drinkshop serve`: the server keeps the ticket's key unique and says so, so three counters
/// (REPLs, which would otherwise hold ten numbers each) give the evening's numbers in order with no gap.
@Suite struct ServedPickupNumbersTests {
    static let keys = UniqueKeys([ShopSchema.ticketTable: TicketField.key.rawValue])

    @Test func threeCountersAtOnceGiveNumbersWithNoGap() async throws {
        try await ServerHarness.with(uniqueKeys: Self.keys) { server in
            try await Shop(store: server.base).createMissingSchema()
            _ = try await Shop(store: server.base).seeder.seed(contentsOf: Repository.menu)
            let counters = (0..<3).map { _ in Shop(store: try! server.client()) }
            for shop in counters {
                // As a REPL does; on a server that keeps keys unique it no longer takes ten at a time.
                shop.orders.holdPickupNumbers()
                _ = try await shop.catalog.menu()
            }
            let placed = try await withThrowingTaskGroup(of: [Int].self) { group in
                for (index, shop) in counters.enumerated() {
                    group.addTask {
                        var numbers: [Int] = []
                        for guest in 1...8 {
                            let draft = OrderDraft(orderName: "counter \(index + 1) guest \(guest)", lines: [
                                LineDraft(drink: "熟成紅茶", options: [.size(.large), .ice(.less), .sugar(.half)]),
                            ])
                            numbers.append(try await shop.orders.place(draft, placedBy: "counter \(index + 1)").order.pickupNumber)
                        }
                        return numbers
                    }
                }
                var all: [Int] = []
                for try await numbers in group { all += numbers }
                return all
            }
            #expect(placed.sorted() == Array(1...24), "\(placed.sorted())")
            let tickets = try await server.base.allRecords(in: ShopSchema.ticketTable)
            #expect(tickets.count == 24)
        }
    }

    /// A REPL that first reaches the server with a claim (started while `serve` was away: its menu from the outbox)
    /// takes ten numbers before it has seen the header; they are its, given out before it claims one at a time.
    @Test func numbersHeldBeforeTheHeaderWasSeenAreGivenOutFirst() async throws {
        try await ServerHarness.with(uniqueKeys: Self.keys) { server in
            try await Shop(store: server.base).createMissingSchema()
            let client = try server.client()
            #expect(!client.keepsUnique(TicketField.key.rawValue, in: ShopSchema.ticketTable))
            let numbers = PickupNumbers(store: client)
            numbers.hold(10)
            let day = try BusinessDay(year: 2026, month: 12, day: 7)
            var given: [Int] = []
            for _ in 0..<13 { given.append(try await numbers.claim(day: day)) }
            #expect(client.keepsUnique(TicketField.key.rawValue, in: ShopSchema.ticketTable))
            #expect(given == Array(1...13), "\(given)")
            #expect(try await server.base.allRecords(in: ShopSchema.ticketTable).count == 13)
        }
    }

    @Test func theServerRefusesASecondTicketForOneKeyAndAnyChangeOfAKey() async throws {
        try await ServerHarness.with(uniqueKeys: Self.keys) { server in
            try await Shop(store: server.base).createMissingSchema()
            let client = try server.client()
            let ticket: Fields = ["key": "2026-12-06#7", "businessDay": "2026-12-06", "number": 7]
            let first = try await client.createRecords(in: "pickupticket", [ticket], options: WriteOptions())
            #expect(client.uniqueKeys.contains(field: "key", in: ShopSchema.ticketTable))
            await #expect(throws: AirtableError.self) {
                _ = try await client.createRecords(in: ShopSchema.ticketTable, [ticket], options: WriteOptions())
            }
            do {
                _ = try await client.createRecords(in: ShopSchema.ticketTable, [ticket], options: WriteOptions())
                Issue.record("a second ticket for one key was written")
            } catch let error as AirtableError {
                #expect(error.isDuplicateKey)
            }
            // Two of one key in one batch: neither is written.
            let other: Fields = ["key": "2026-12-06#8", "businessDay": "2026-12-06", "number": 8]
            await #expect(throws: AirtableError.self) {
                _ = try await client.createRecords(in: ShopSchema.ticketTable, [other, other], options: WriteOptions())
            }
            await #expect(throws: AirtableError.self) {
                _ = try await client.updateRecords(in: ShopSchema.ticketTable, [RecordUpdate(id: first[0].id, fields: other)],
                                                   replace: false, options: WriteOptions())
            }
            #expect(try await server.base.allRecords(in: ShopSchema.ticketTable).count == 1)
        }
    }
}
