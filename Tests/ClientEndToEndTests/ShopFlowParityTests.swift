import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import Synchronization
import Testing

/// The whole shop flow gives the same results on a LocalBase used directly and on the same kind of base
/// behind the server, reached with the client over HTTP.
@Suite struct ShopFlowParityTests {
    /// Order refs from a counter, so both runs write the same `ref`s.
    private static func counterRefs() -> @Sendable () -> String {
        let counter = Mutex(0)
        return { counter.withLock { $0 += 1; return "ord\($0)" } }
    }

    /// Runs seed, order, edit, advance, cancel, delete and orders, and writes down what each step gave.
    private static func transcript(of shop: Shop) async -> [String] {
        var lines: [String] = []
        func note(_ step: String, _ work: () async throws -> String) async {
            do { lines.append("\(step): " + (try await work())) } catch { lines.append("\(step) failed: \(error)") }
        }
        // The embedded store's own tables (OnlineGroup: the groups `serve` keeps) are not a base's over the API.
        let embeddedOnly = Set(ShopSchema.embeddedTables.map(\.name)).subtracting(ShopSchema.tables.map(\.name))
        await note("schema") {
            try await shop.createMissingSchema().filter { !embeddedOnly.contains($0.replacingOccurrences(of: "table ", with: "")) }
                .joined(separator: ", ")
        }
        await note("missing") { try await shop.missingSchema().joined(separator: ", ") }
        await note("seed menu") { "\(try await shop.seeder.seed(contentsOf: Repository.menu))" }
        await note("seed promotions") { "\(try await shop.seeder.seed(contentsOf: Repository.promotions))" }
        await note("seed again") { "\(try await shop.seeder.seed(contentsOf: Repository.menu))" }
        await note("menu") { try await shop.catalog.menu(refresh: true).names.sorted().joined(separator: " ") }
        await note("promotions") { try await shop.catalog.promotions().map(\.name).sorted().joined(separator: " ") }

        let orders: [(OrderDraft, String)] = [
            (OrderDraft(orderName: "Amy", lines: [
                LineDraft(drink: "白玉歐蕾", options: [.size(.large), .sugar(.half), .ice(.less)], quantity: 2),
                LineDraft(drink: "熟成紅茶", options: [.size(.medium), .ice(.hot), .sugar(.full), .addOn(.whiteTapioca)],
                          note: "少一點珍珠 🧋"),
            ]), "Ben"),
            (OrderDraft(lines: [LineDraft(drink: "金蘋春芽", options: [.size(.medium), .ice(.regular), .sugar(.less),
                                                                   .addOn(.agarPearl), .addOn(.fruitJelly)])]), "Chen"),
            (OrderDraft(orderName: "O'Brien \"x\" \\ {y}",
                        lines: [LineDraft(drink: "雪藏紅茶", options: [.size(.medium), .ice(.noIce), .sugar(.half)])]), "Ben"),
            (OrderDraft(orderName: "Dora", lines: [LineDraft(drink: "胭脂多多", options: [.size(.large), .ice(.less), .sugar(.ten)],
                                                         quantity: 3)]), "Chen"),
            (OrderDraft(lines: [LineDraft(drink: "草莓檸果", options: [.size(.medium), .ice(.less), .sugar(.half)])]), "Ben"),
            (OrderDraft(lines: [LineDraft(drink: "金蘋春芽", options: [.size(.medium), .ice(.hot), .sugar(.half)])]), "Ben"),
            (OrderDraft(lines: [LineDraft(drink: "bubble milk")]), "Ben"),
            (OrderDraft(lines: [LineDraft(drink: "雪藏紅茶", options: [.size(.large), .ice(.iceFree), .sugar(.half)])]), "Ben"),
        ]
        for (index, (draft, staff)) in orders.enumerated() {
            await note("order \(index + 1)") { describe(try await shop.orders.place(draft, placedBy: staff)) }
        }
        await note("edit #1 line 2") {
            describe(try await shop.orders.edit(.pickup(1), line: 2, change: LineChangeDraft(options: [.size(.large), .sugar(.light)],
                                                                                        clearAddOns: true, quantity: 2)))
        }
        await note("edit #2") { describe(try await shop.orders.edit(.pickup(2), line: nil, change: LineChangeDraft(quantity: 4))) }
        await note("edit #1 without a line") { describe(try await shop.orders.edit(.pickup(1), line: nil, change: LineChangeDraft(quantity: 1))) }
        await note("advance #2") { describe(try await shop.orders.advance(.pickup(2))) }
        await note("advance #2 again") { describe(try await shop.orders.advance(.pickup(2))) }
        await note("edit #2 after preparing") { describe(try await shop.orders.edit(.pickup(2), line: nil, change: LineChangeDraft(quantity: 1))) }
        await note("cancel #3") { describe(try await shop.orders.cancel(.pickup(3), reason: "客人改變心意")) }
        await note("cancel #3 again") { describe(try await shop.orders.cancel(.pickup(3), reason: nil)) }
        await note("delete #4") { describe(try await shop.orders.delete(.pickup(4))) }
        await note("delete #4 again") { describe(try await shop.orders.delete(.pickup(4))) }
        await note("order #5") { describe(try await shop.orders.find(.pickup(5))) }
        await note("orders") {
            let (orders, problems) = try await shop.orders.today()
            return orders.map(describe).joined(separator: " | ") + " problems: \(problems)"
        }
        await note("records") {
            // What `orders --json` prints: every line record of today's orders.
            let records = try JSONParser.parse(try await shop.orders.todaysJSON(selecting: { $0 })).arrayValue ?? []
            let cells = records.map { record in
                // The day, the moments steps were reached and the audit entries' moments differ between the
                // runs; that they were recorded does not (the entries are compared below).
                (record["fields"]?.objectValue ?? [:]).filter { $0.key != "businessDay" && $0.key != "audit" }.sorted { $0.key < $1.key }
                    .map { $0.key.hasSuffix("At") ? "\($0.key)=set" : "\($0.key)=\($0.value)" }.joined(separator: ",")
            }
            return cells.sorted().joined(separator: "\n")
        }
        await note("audit") {
            // Kept on the orders (edit, cancel) and in AuditLog (delete), merged.
            try await shop.audit.entries(fromDay: shop.clock.today, throughDay: shop.clock.today)
                .map { "\($0.action.rawValue) \($0.subject) by \($0.by): \($0.detail)" }.sorted().joined(separator: "\n")
        }
        return lines
    }

    private static func describe(_ stored: StoredOrder) -> String {
        let order = stored.order
        let lines = order.lines.map { line in
            "\(line.drinkName) \(line.size.rawValue) \(line.ice.rawValue) \(line.sugar.rawValue) "
                + "\(line.addOns.map(\.rawValue)) x\(line.quantity) @\(line.unitPrice) note:\(line.note ?? "-")"
        }
        return "#\(order.pickupNumber) \(order.status.rawValue) for \(order.orderName) by \(order.placedBy) "
            + "ref \(stored.orderRef) total \(order.total) discount \(order.discount) "
            + "promotion \(order.promotion?.name ?? "-") cancel \(order.cancelReason ?? "-") records \(stored.recordIDs.count) "
            + lines.joined(separator: "; ")
    }

    @Test func theShopGivesTheSameResultsDirectlyAndThroughTheServer() async throws {
        let direct = try TemporaryBase()
        defer { direct.remove() }
        let clock = ShopClock(timeZone: TimeZone(identifier: "Asia/Taipei") ?? .current)
        let local = await Self.transcript(of: Shop(store: direct.base, clock: clock, makeOrderRef: Self.counterRefs()))

        let remote = try await ServerHarness.with { server in
            let client = try server.client()
            return await Self.transcript(of: Shop(store: client, clock: clock, makeOrderRef: Self.counterRefs()))
        }
        #expect(local.count == remote.count)
        for (mine, theirs) in zip(local, remote) {
            #expect(mine == theirs)
        }
        // The flow did real work: orders placed, some refused, the day's list read back.
        #expect(local.contains { $0.hasPrefix("order 1: #1 placed for Amy") })
        #expect(local.contains { $0.hasPrefix("order 5 failed") })
        #expect(local.contains { $0.hasPrefix("delete #4 again failed: there is no order #4 today") })
        #expect(local.first { $0.hasPrefix("records: ") }?.contains("ord1-2") == true)
        // Every edit, cancel and delete is in the trail, whichever place it was kept.
        let audit = try #require(local.last)
        #expect(audit.components(separatedBy: "editOrder #").count - 1 == 2)   // two of the four edits are allowed
        #expect(audit.contains("cancelOrder #3 by staff: 客人改變心意") && audit.contains("deleteOrder #4"))
    }
}
