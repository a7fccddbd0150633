import Airtable
import AirtableFormula
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Testing

/// A store made before the year's indexes existed gets them in place when it is next opened
/// (`Shop.prepareLookups`, which `drinkshop` runs at every start), and nothing in it changes.
@Suite struct StoreIndexUpgradeTests {
    @Test func anOlderStoreGetsTheDayAndNumberIndexesWhenOpened() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("upgrade-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        // An older store: the shop's tables and a paid order of an earlier day, no lookup ever run.
        let older = try LocalBase(path: path)
        try await Shop(store: older).createMissingSchema()
        let line = try await older.createRecord(in: ShopSchema.orderTable, [
            "drinkName": "熟成紅茶", "pickupNumber": 6, "businessDay": "2026-11-30", "status": "ready", "orderRef": "o1",
        ])
        _ = try await older.createRecord(in: ShopSchema.paymentTable, [
            "orderRef": "o1", "businessDay": "2026-11-30", "kind": "payment", "method": "cash", "amount": 55,
        ])
        #expect(try await older.indexNames(of: ShopSchema.paymentTable).allSatisfy { !$0.hasPrefix("index_") })
        let orderIndexesBefore = try await older.indexNames(of: ShopSchema.orderTable)
        #expect(!orderIndexesBefore.contains { $0.contains("_where") })

        let reopened = try LocalBase(path: path)
        let shop = Shop(store: reopened)
        try await shop.prepareLookups()
        let schema = try await reopened.schema()
        let payment = try #require(schema.table(ShopSchema.paymentTable))
        let order = try #require(schema.table(ShopSchema.orderTable))
        let paymentIndexes = try await reopened.indexNames(of: ShopSchema.paymentTable)
        #expect(paymentIndexes.contains("index_\(payment.id)_\(try #require(payment.field("businessDay")).id)"))
        let orderIndexes = try await reopened.indexNames(of: ShopSchema.orderTable)
        let number = try #require(order.field("pickupNumber")).id
        let day = try #require(order.field("businessDay")).id
        // Today's #N (number and day together) and still-open #N (a partial index of open orders).
        #expect(orderIndexes.contains("index_\(order.id)_\([number, day].sorted().joined(separator: "_"))"))
        #expect(orderIndexes.contains { $0.hasPrefix("index_\(order.id)_\(number)_where") })
        // The still-open #6 of an earlier day is found through them, as before.
        let found = try await shop.orders.queries.withNumber(6, today: "2026-12-01")
        #expect(found.map(\.id) == [line.id])
        // A day's lines with audit entries: a partial index of the lines that have one, by day.
        #expect(orderIndexes.contains { $0.hasPrefix("index_\(order.id)_\(day)_where") })
        #expect(try await shop.orders.queries.auditedRecords(in: DayRange(try BusinessDay("2026-11-30"))).isEmpty)
        _ = try await reopened.updateRecords(in: ShopSchema.orderTable, [RecordUpdate(id: line.id, fields: [
            "audit": .string(#"[{"at":"2026-11-30T05:00:00.000Z","by":"Amy","what":"edit"}]"#),
        ])], replace: false, options: WriteOptions())
        #expect(try await shop.orders.queries.auditedRecords(in: DayRange(try BusinessDay("2026-11-30"))).map(\.id) == [line.id])
    }

    /// Issue 37: a store whose lookups an earlier version prepared holds single-field indexes of the pickup
    /// number and the status, each a page more in every order's commit; opening it drops them, and the
    /// open orders and numbers are still found (through the number's own indexes).
    @Test func theNumberAndStatusIndexesAnEarlierVersionMadeAreDroppedWhenOpened() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("retire-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let older = try LocalBase(path: path)
        try await Shop(store: older).createMissingSchema()
        let line = try await older.createRecord(in: ShopSchema.orderTable, [
            "drinkName": "熟成紅茶", "pickupNumber": 6, "businessDay": "2026-11-30", "status": "ready", "orderRef": "o1",
        ])
        _ = try await older.createRecord(in: ShopSchema.orderTable, [
            "drinkName": "熟成紅茶", "pickupNumber": 7, "businessDay": "2026-11-30", "status": "picked up", "orderRef": "o2",
        ])
        // What the earlier version's prepareLookups listed, among the rest: a number alone and a status alone.
        for formula in ["{pickupNumber}=1", "{status}='placed'", "AND({pickupNumber}=1, OR({businessDay}='0000-00-00', "
            + "AND({status}!='picked up', {status}!='cancelled')))"] {
            _ = try await older.listRecords(in: ShopSchema.orderTable, query: ListQuery(filterByFormula: formula))
        }
        let order = try #require(try await older.schema().table(ShopSchema.orderTable))
        let single = { (name: String) throws -> String in "index_\(order.id)_\(try #require(order.field(name)).id)" }
        let before = try await older.indexNames(of: ShopSchema.orderTable)
        let retired = [try single("pickupNumber"), try single("status")]
        #expect(retired.allSatisfy(before.contains))

        let reopened = try LocalBase(path: path)
        let shop = Shop(store: reopened)
        try await shop.prepareLookups()
        let after = try await reopened.indexNames(of: ShopSchema.orderTable)
        #expect(!retired.contains(where: after.contains))
        let day = try single("businessDay")
        #expect(after.contains(day))
        #expect(try await shop.orders.queries.open().map(\.id) == [line.id])
        #expect(try await shop.orders.queries.withNumber(6, today: "2026-12-01").map(\.id) == [line.id])
        #expect(try await shop.orders.queries.todaysRecords("2026-12-01").map(\.id) == [line.id])
    }

    /// Issue 37: no listing bounds the pickup tickets by creation time, so their creation-time index (made
    /// with every table) only cost every order's commit a page; opening the store drops it. A claim still
    /// finds the day's tickets, and a listing that does bound them by creation time still answers.
    @Test func theTicketsCreationTimeIndexIsDroppedWhenOpened() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tickets-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let older = try LocalBase(path: path)
        try await Shop(store: older).createMissingSchema()
        let day = try BusinessDay("2026-12-01")
        let ticket = try await older.createRecord(in: ShopSchema.ticketTable, PickupNumbers.ticket(day: day, number: 4))
        let tickets = try #require(try await older.schema().table(ShopSchema.ticketTable))
        #expect(try await older.indexNames(of: ShopSchema.ticketTable).contains("created_\(tickets.id)"))

        let reopened = try LocalBase(path: path)
        try await Shop(store: reopened).prepareLookups()
        #expect(!(try await reopened.indexNames(of: ShopSchema.ticketTable).contains("created_\(tickets.id)")))
        // The next claim of that day reads the day's highest ticket and takes the number after it.
        let claimed = try await PickupNumbers(store: reopened).claimAtomically(day: day, in: reopened) { number, _ in number }
        #expect(claimed.number == 5)
        let since = FormulaExpression.and(FormulaExpression.inRange(.createdTime, from: ticket.createdTime,
                                                                    to: ticket.createdTime.addingTimeInterval(86_400 * 400)))
        let listed = try await reopened.allRecords(in: ShopSchema.ticketTable, query: ListQuery(filterByFormula: since.description))
        #expect(listed.contains { $0.id == ticket.id })
    }
}
