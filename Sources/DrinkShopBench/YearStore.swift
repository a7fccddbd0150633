import Airtable
import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase

/// Bench 10's store: `days` closed business days of `perDay` orders each, ending yesterday, written
/// through LocalBase's own bulk path (`createRecords` with a whole day of one table per call: one
/// transaction), in the record shape the shop writes. Today is left empty, so a counter opening the
/// store starts a new day.
///
/// A day here is every order paid in cash and picked up, every other order two drinks, one pickup
/// ticket per order and one shift; a real day also has cancellations, voids, edits, audit entries,
/// member stamps and refunds, and its records are written one order at a time (so a real file's pages
/// are more interleaved than these, which are written a table at a time).
enum YearStore {
    static func build(_ options: [String: String]) async throws {
        guard let path = options["db"] else { throw BenchError("year needs --db PATH") }
        let days = Int(options["days"] ?? "") ?? 1
        let perDay = Int(options["orders-per-day"] ?? "") ?? 300
        let seeds = options["seeds"] ?? "Seeds"
        let clock = BenchClock()
        let shopClock = ShopClock()
        let base = try LocalBase(path: path, clock: { clock.now })
        let shop = Shop(store: base)
        try await shop.createMissingSchema()
        _ = try await shop.counter.seed(contentsOf: seeds + "/menu.json", by: Acting("bench", role: nil))
        let drinks = try await shop.catalog.menu(refresh: true).drinks.filter(\.isOnSale)
        guard !drinks.isEmpty else { throw BenchError("the seed menu has no available drink") }
        let started = ContinuousClock.now
        var counts = (orders: 0, lines: 0, payments: 0, tickets: 0)
        let today = shopClock.dayBounds(of: Date()).start
        for dayIndex in (1...max(days, 1)).reversed() {
            // Noon of the day `dayIndex` days ago; orders are spread over the next eight hours.
            let noon = today.addingTimeInterval(-Double(dayIndex) * 86_400 + 12 * 3_600)
            let day = shopClock.businessDay(of: noon).description
            var lines: [Fields] = [], payments: [Fields] = [], tickets: [Fields] = []
            for number in 1...perDay {
                let at = noon.addingTimeInterval(Double(number) * 28_800 / Double(perDay))
                let ref = "y\(day)-\(number)"
                let cups = number % 2 == 0 ? 2 : 1
                var total = 0
                for line in 1...cups {
                    let drink = drinks[(number * 7 + line) % drinks.count]
                    total += drink.mediumPrice
                    lines.append([
                        "drinkName": .string(drink.name), "size": "中杯", "ice": "少冰", "sugar": "半糖",
                        "price": .int(drink.mediumPrice), "orderName": .string("guest\(number)"), "numberOfCups": 1,
                        "status": "picked up", "pickupNumber": .int(number), "businessDay": .string(day),
                        "orderRef": .string(ref), "ref": .string("\(ref)-\(line)"), "line": .int(line),
                        "unitPrice": .int(drink.mediumPrice), "discount": 0, "placedBy": "bench",
                        "paidBy": .string("cash:\(total)"),
                        "pickedUpAt": .string(AirtableTimestamp.format(at.addingTimeInterval(300))),
                    ])
                }
                payments.append([
                    "ref": .string("pay-\(ref)"), "orderRef": .string(ref), "pickupNumber": .int(number),
                    "businessDay": .string(day), "kind": "payment", "method": "cash", "amount": .int(total),
                    "tendered": .int(total), "by": "bench", "at": .string(AirtableTimestamp.format(at)),
                ])
                tickets.append(["key": .string("\(day)#\(number)"), "businessDay": .string(day), "number": .int(number)])
            }
            // The store's clock stands at the day's noon, so creation times fall on that day.
            clock.now = noon
            for (table, records) in [(ShopSchema.orderTable, lines), (ShopSchema.paymentTable, payments),
                                     (ShopSchema.ticketTable, tickets)] {
                _ = try await base.createRecords(in: table, records, options: WriteOptions(typecast: true))
            }
            _ = try await base.createRecords(in: ShopSchema.shiftTable, [[
                "ref": .string("shift-\(day)"), "businessDay": .string(day), "openedBy": "bench",
                "openedAt": .string(AirtableTimestamp.format(noon)), "float": 2000, "closedBy": "bench",
                "closedAt": .string(AirtableTimestamp.format(noon.addingTimeInterval(30_000))),
            ]], options: WriteOptions(typecast: true))
            counts.orders += perDay
            counts.lines += lines.count
            counts.payments += payments.count
            counts.tickets += tickets.count
        }
        try await base.checkpoint()
        print(JSONWriter.string(["days": .int(days), "orders": .int(counts.orders), "lines": .int(counts.lines),
                                 "payments": .int(counts.payments), "tickets": .int(counts.tickets),
                                 "seconds": .number((ContinuousClock.now - started).seconds)]))
    }
}
