import Airtable
import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase

enum BenchCommands {
    static func run(_ arguments: [String]) async -> Int32 {
        guard let command = arguments.first else {
            try? FileHandle.standardError.write(contentsOf: Data("usage: drinkshop-bench populate|insert|year …\n".utf8))
            return 2
        }
        var options: [String: String] = [:]
        var index = 1
        while index + 1 < arguments.count {
            options[arguments[index].trimmingCharacters(in: CharacterSet(charactersIn: "-"))] = arguments[index + 1]
            index += 2
        }
        do {
            switch command {
            case "populate": try await populate(options)
            case "insert": try await insert(options)
            case "year": try await YearStore.build(options)
            case "client-crud": try await ClientBench.run(options)
            default:
                try? FileHandle.standardError.write(contentsOf: Data("unknown bench command \(command)\n".utf8))
                return 2
            }
            return 0
        } catch {
            try? FileHandle.standardError.write(contentsOf: Data("drinkshop-bench: \(error)\n".utf8))
            return 1
        }
    }

    /// A shop store holding `orders` one-line orders spread evenly over `days` days ending today, each
    /// created at its own time (the store's clock is moved), as the shop writes them.
    static func populate(_ options: [String: String]) async throws {
        guard let path = options["db"] else { throw BenchError("populate needs --db PATH") }
        let count = Int(options["orders"] ?? "") ?? 100_000
        let days = Int(options["days"] ?? "") ?? 100
        let seeds = options["seeds"] ?? "Seeds"
        let clock = BenchClock()
        let now = Date()
        let base = try LocalBase(path: path, clock: { clock.now })
        let shop = Shop(store: base)
        try await shop.createMissingSchema()
        _ = try await shop.counter.seed(contentsOf: seeds + "/menu.json", by: Acting("bench", role: nil))
        let menu = try await shop.catalog.menu(refresh: true)
        let drinks = menu.drinks.filter(\.isOnSale)
        let perDay = max(1, count / days)
        let started = Date()
        var written = 0
        var batch: [Fields] = []
        for index in 0..<count {
            let day = days - 1 - index / perDay
            let moment = now.addingTimeInterval(-Double(day) * 86_400 - 3_600 + Double(index % perDay) * (3_000 / Double(perDay)))
            let drink = drinks[index % drinks.count]
            let businessDay = ShopClock().businessDay(of: moment).description
            let ref = "bench\(index)"
            batch.append([
                "drinkName": .string(drink.name), "size": "中杯", "ice": "少冰", "sugar": "半糖",
                "price": .int(drink.mediumPrice), "orderName": .string("guest\(index)"), "numberOfCups": 1,
                "status": "picked up", "pickupNumber": .int(index % perDay + 1), "businessDay": .string(businessDay),
                "orderRef": .string(ref), "ref": .string(ref + "-1"), "line": 1, "unitPrice": .int(drink.mediumPrice),
                "discount": 0, "placedBy": "bench",
            ])
            // The clock stands at the batch's first record; batches never straddle a day.
            if batch.count == 500 || index == count - 1 || (index + 1) % perDay == 0 {
                clock.now = moment
                _ = try await base.createRecords(in: ShopSchema.orderTable, batch, options: WriteOptions())
                written += batch.count
                batch.removeAll(keepingCapacity: true)
            }
        }
        print(JSONWriter.string(["orders": .int(written), "days": .int(days),
                                 "seconds": .number(Date().timeIntervalSince(started))]))
    }

    /// `records` records created in batches of `batch`, each batch one durable transaction, in-process.
    static func insert(_ options: [String: String]) async throws {
        guard let path = options["db"] else { throw BenchError("insert needs --db PATH") }
        let count = Int(options["records"] ?? "") ?? 10_000
        let size = Int(options["batch"] ?? "") ?? 10
        let base = try LocalBase(path: path)
        _ = try await base.createTable(BenchRecords.table)
        let started = ContinuousClock.now
        var index = 0
        while index < count {
            let batch = (index..<min(count, index + size)).map(BenchRecords.fields)
            _ = try await base.createRecords(in: BenchRecords.table.name, batch, options: WriteOptions())
            index += size
        }
        let seconds = (ContinuousClock.now - started).seconds
        print(JSONWriter.string(["records": .int(count), "batch": .int(size), "seconds": .number(seconds),
                                 "recordsPerSecond": .number(Double(count) / seconds)]))
    }
}

/// The records the write benchmarks create, the same in-process and over HTTP.
enum BenchRecords {
    static let table = TableSpec(name: "BenchRecord", fields: [
        FieldSpec(name: "name", type: .singleLineText),
        FieldSpec(name: "qty", type: .number, options: ["precision": 0]),
        FieldSpec(name: "note", type: .multilineText),
    ])

    static func fields(_ index: Int) -> Fields {
        ["name": .string("record \(index)"), "qty": .int(index % 7), "note": .string("熟成紅茶 中杯 半糖 少冰 #\(index)")]
    }
}

final class BenchClock: @unchecked Sendable {
    // Written only between awaited writes, read by the store while it writes: never at the same time.
    var now = Date()
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
