import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
@testable import ShopREPL
import Testing
import TestSupport

/// What each order command costs in requests at the counter, whatever the day's size: the till decides
/// from what the order's own records carry, and an audit entry goes in the write of its change.
@Suite struct RequestCountTests {
    /// A counter over a store that writes down every request, with `orders` orders placed today.
    struct CountedCounter {
        let interpreter: ShopInterpreter
        let output: CapturedOutput
        let store: CountingStore
        let shop: Shop
        let clock: TestClock

        init(orders: Int) async throws {
            clock = TestClock(Counter.noon)
            let base = try LocalBase.inMemory(clock: clock.date)
            store = CountingStore(base)
            shop = Shop(store: store, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date))
            try await Shop(store: base).createMissingSchema()
            let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Seeds").path
            _ = try await shop.seeder.seed(contentsOf: seeds + "/menu.json")
            _ = try await shop.seeder.seed(contentsOf: seeds + "/promotions.json")
            output = CapturedOutput()
            interpreter = ShopInterpreter(shop: shop, output: output, defaultStaff: "Ken")
            for index in 0..<orders {
                #expect(await interpreter.run(line: "order 熟成紅茶 M 半糖 少冰 for guest\(index)") == .succeeded)
            }
        }

        func run(_ line: String) async -> ShopInterpreter.Outcome { await interpreter.run(line: line) }

        /// The requests one line makes, and that it succeeded (or failed, when `succeeds` is false).
        func requests(_ line: String, succeeds: Bool = true) async -> [String] {
            // A second between commands (the trail is in time order; the menu stays cached for 30 s).
            clock.advance(by: 1)
            let before = store.requests
            let outcome = await interpreter.run(line: line)
            #expect(outcome == (succeeds ? .succeeded : .failed), "\(line): \(output.errors)")
            return Array(store.requestLog.dropFirst(before))
        }
    }

    static let findAndWrite = ["GET OrderDrink", "PATCH OrderDrink"]

    /// A counter follows the settings every counter shares, and whether PINs are on, by reading them again
    /// once its reading is five seconds old: one read of each then, none in between, however busy it is.
    @Test func theSharedSettingsAndPINsAreReadOncePerFiveSecondsAndNeverBetween() async throws {
        let day = try await CountedCounter(orders: 1)
        let shared = { (requests: [String]) in requests.filter { $0 == "GET Setting" || $0 == "GET User" } }
        for _ in 1...4 {
            #expect(shared(await day.requests("orders")).isEmpty)
        }
        #expect(shared(await day.requests("orders")) == ["GET Setting", "GET User"])
        let sameSecond = await day.store.requests { #expect(await day.run("order 熟成紅茶 M 半糖 少冰") == .succeeded) }
        #expect(shared(sameSecond).isEmpty)
    }

    @Test func editCancelAdvanceAndVoidAreOneReadAndOneWriteWhateverTheDaysSize() async throws {
        for size in [3, 40] {
            let day = try await CountedCounter(orders: size)
            #expect(await day.requests("edit #2 少糖") == Self.findAndWrite)
            #expect(await day.requests("advance #2") == Self.findAndWrite)
            // The store's answer to the cancel's write carries the till's copy: nothing paid, so no ledger read.
            #expect(await day.requests("cancel #3 left") == Self.findAndWrite)
            #expect(await day.requests("void #2 spilled") == Self.findAndWrite)
            // Each change and its audit entry were one write; the trail still shows them all, in order.
            let log = try await day.shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29")
            #expect(log.map(\.action) == [.editOrder, .cancelOrder, .void])
            #expect(log.map(\.subject) == ["#2", "#3", "#2"])
            #expect(day.store.requestLog.filter { $0.hasSuffix("AuditLog") && !$0.hasPrefix("GET") }.isEmpty)
        }
    }

    /// Over the API a payment is worked out from the ledger and read back (the claim rule of two counters
    /// paying at once): the order, the shift, the copy, the payment, the ledger again, and the order's status
    /// (cancelled meanwhile at another counter: the money goes straight back). The ledger is not read before
    /// the payment when the order's copy says nothing was paid or refunded (the copy is written ahead of it).
    static let payOverTheAPI = ["GET OrderDrink", "GET Shift", "PATCH OrderDrink", "PATCH TillPayment",
                                "GET TillPayment"]

    @Test func payGoesByTheLedgerAndAPaidOrderIsRefusedAChangeWithoutIt() async throws {
        let day = try await CountedCounter(orders: 5)
        #expect(await day.run("shift open 1000") == .succeeded)
        // No amount: what is due (no second lookup for it); cash asks whether a shift is open.
        #expect(await day.requests("pay #1 cash") == Self.payOverTheAPI)
        #expect(await day.requests("pay #2 cash 20") == Self.payOverTheAPI)
        // A paid order is not edited: decided from the order's own read.
        #expect(await day.requests("edit #1 少糖", succeeds: false) == ["GET OrderDrink"])
        #expect(day.output.errors.contains("has $35 paid"))
        // A paid order cancelled is a void with its refund, worked out from the ledger (the copy said it was
        // paid): the refund, then the order and its trail in one write.
        // The refund's write is read back (two counters settling at once may both have created it), then the
        // cancellation, then the cancel's mark in the ledger (a payer reading its payment back sees it), then the
        // ledger once more for a payment that landed meanwhile.
        #expect(await day.requests("cancel #1 wrong drink") == ["GET OrderDrink", "GET TillPayment", "GET OrderTill", "PATCH TillPayment",
                                                                "GET TillPayment", "PATCH OrderDrink", "PATCH TillPayment",
                                                                "GET TillPayment"])
        #expect(day.output.text.contains("Refund $35 by 現金 Cash"))
        // The Paid column of the list: no ledger reads.
        let listed = await day.requests("orders")
        #expect(!listed.contains { $0.hasSuffix("TillPayment") || $0.hasSuffix("OrderTill") }, "\(listed)")
        #expect(day.output.text.contains("paid 20, 15 due"), "#2 is partly paid")
        // The till's report still reads the ledger: the payments and the refund are all there.
        let report = try await day.shop.till.report(try day.shop.till.period(from: "today", to: "today"))
        #expect(report.byMethod[.cash]?.net == 20)
        let log = try await day.shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29")
        #expect(log.map(\.action) == [.void])
        #expect(log.last?.detail == "wrong drink (refunded 35 cash)")
    }

    /// After `orders`, a payment goes by this counter's copy of the day: no read of the order, nor of the ledger (the
    /// order's copy says nothing was paid). The copy's write answers the order as the store has it, so one changed
    /// since the list (edited or cancelled at another counter) is paid as it is now, or refused.
    @Test func payAfterTheListGoesByTheDaysCopyAndAnOrderChangedSinceIsPaidAsItIsNow() async throws {
        let day = try await CountedCounter(orders: 4)
        let other = ShopInterpreter(shop: Shop(store: day.store.base, clock: ShopClock(timeZone: TestClock.taipei, now: day.clock.date)),
                                    output: CapturedOutput(), defaultStaff: "Amy")
        _ = await day.requests("orders")
        #expect(await day.requests("pay #1 card") == ["PATCH OrderDrink", "PATCH TillPayment", "GET TillPayment"])
        // Edited at another counter since the list: paid for its new total, worked out again from the ledger.
        #expect(await other.run(line: "edit #2 L") == .succeeded)
        let edited = try await day.shop.orders.find(.pickup(2))
        let paying = await day.requests("pay #2 card")
        #expect(paying.first == "PATCH OrderDrink" && paying.contains("GET TillPayment"), "\(paying)")
        let paid = try await day.shop.orders.find(.pickup(2))
        #expect(paid.order.total == edited.order.total && paid.till == TillCopy(paidBy: [.card: edited.order.total]))
        #expect(try await day.shop.till.moneyForChange(of: paid).paid == edited.order.total)
        // Cancelled at another counter since the list: refused, nothing taken, the copy as the ledger says.
        #expect(await other.run(line: "cancel #3 left") == .succeeded)
        _ = await day.requests("pay #3 card", succeeds: false)
        let cancelled = try await day.shop.orders.find(.pickup(3))
        #expect(try await day.shop.till.moneyForChange(of: cancelled).paid == 0)
        #expect(cancelled.till == TillCopy())
        // Adjusted at this counter since the list: the bill's cell is the store's, so the adjusted bill is paid.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("till-\(UUID().uuidString).json").path
        try #"{"records": [], "adjustments": [{"name": "環保杯", "code": "cup", "kind": "perCup", "amount": -5}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try await day.shop.seeder.seed(contentsOf: file)
        _ = await day.requests("orders")
        #expect(await day.run("adjust #4 cup") == .succeeded)
        #expect(await day.run("pay #4 card") == .succeeded)
        let adjusted = try await day.shop.orders.find(.pickup(4))
        #expect(try await day.shop.till.moneyForChange(of: adjusted).paid == adjusted.order.total - 5)
        #expect(adjusted.till?.paid == adjusted.order.total - 5 && adjusted.till?.bill == adjusted.order.total - 5)
    }

    @Test func anOrderFromAnEarlierVersionFallsBackToTheLedgerAndNothingIsLost() async throws {
        let day = try await CountedCounter(orders: 3)
        #expect(await day.run("pay #1 card 35") == .succeeded)
        #expect(await day.run("advance #1") == .succeeded)
        // As an earlier version left them: no copy of the till on the orders' records.
        let records = try await day.store.base.allRecords(in: ShopSchema.orderTable)
        let cleared = ["paid", "refunded", "paidBy", "refundedBy", "bill"].reduce(into: Fields()) { $0[$1] = .null }
        _ = try await day.store.base.updateRecords(in: ShopSchema.orderTable, records.map { RecordUpdate(id: $0.id, fields: cleared) },
                                                   replace: false, options: WriteOptions())
        // The paid order is still refused an edit, read from the ledger.
        let refused = await day.requests("edit #1 少糖", succeeds: false)
        #expect(refused == ["GET OrderDrink", "GET TillPayment", "GET OrderTill"])
        // Voided, it is refunded by the method it came by, and gets the copy again.
        #expect(await day.requests("void #1 spilled").contains("PATCH TillPayment"))
        #expect(day.output.text.contains("Refund $35 by"))
        let voided = try await day.shop.orders.find(.pickup(1))
        #expect(voided.till == TillCopy(paidBy: [.card: 35], refundedBy: [.card: 35]))
        // An unpaid old order: cancelled after the ledger said nothing was paid; it carries the copy after.
        #expect(await day.requests("cancel #2 left") == ["GET OrderDrink", "GET TillPayment", "GET OrderTill", "PATCH OrderDrink",
                                                          "PATCH TillPayment", "GET TillPayment"])
        #expect(try await day.shop.orders.find(.pickup(2)).till == TillCopy())
    }

    @Test func anAdjustedBillIsCarriedAndAnEditPricesItAgainFromTheLedger() async throws {
        let day = try await CountedCounter(orders: 2)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("till-\(UUID().uuidString).json").path
        try #"{"records": [], "adjustments": [{"name": "環保杯", "code": "cup", "kind": "perCup", "amount": -5}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        _ = try await day.shop.seeder.seed(contentsOf: file)
        let code = "cup"
        #expect(await day.run("adjust #1 \(code)") == .succeeded)
        let adjusted = try await day.shop.orders.find(.pickup(1))
        let bill = try await day.shop.extras.charges(of: adjusted).total
        #expect(adjusted.till?.bill == bill && bill != adjusted.order.total)
        // Paying what is due takes the adjusted bill, from the order's own read. An order carrying a bill may be a
        // member's (a member's always carries one): once it holds, OrderTill is read once for its stamps.
        #expect(await day.run("shift open 1000") == .succeeded)
        #expect(await day.requests("pay #1 cash") == Self.payOverTheAPI + ["GET OrderTill"])
        #expect(try await day.shop.till.money(of: try await day.shop.orders.find(.pickup(1))).paid == bill)
        // An edit of an adjusted (unpaid) order drops the copy's bill: it is priced from OrderTill again.
        #expect(await day.run("adjust #2 \(code)") == .succeeded)
        #expect(await day.run("edit #2 L") == .succeeded)
        let edited = try await day.shop.orders.find(.pickup(2))
        #expect(edited.till == nil)
        #expect(try await day.shop.till.money(of: edited).total == (try await day.shop.extras.charges(of: edited).total))
    }
}
