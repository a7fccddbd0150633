import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Synchronization
import TestSupport
import Testing

/// A store over the API (no transactions) that runs `hook` once, just before the first payment reaches the base or
/// just after (before its answer): another counter's cancel lands while this counter's payment is on its way. Every
/// request is logged (`GET one` for a read of one record).
final class PaymentInFlightStore: RecordStore {
    let base: any RecordStore
    private let hook: Mutex<(@Sendable () async -> Void)?>
    private let log = Mutex<[String]>([])

    /// Whether `hook` runs just after the payment reached the base (before its answer), rather than just before.
    private let after: Bool

    init(_ base: any RecordStore, after: Bool = false, hook: @escaping @Sendable () async -> Void) {
        self.base = base
        self.after = after
        self.hook = Mutex(hook)
    }

    var requestLog: [String] { log.withLock { $0 } }
    private func note(_ request: String) { log.withLock { $0.append(request) } }

    func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        note("GET \(table)"); return try await base.listRecords(in: table, query: query)
    }
    func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        note("GET one \(table)"); return try await base.getRecord(in: table, id: id, options: options)
    }
    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        note("POST \(table)"); return try await base.createRecords(in: table, records, options: options)
    }
    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record] {
        note("PATCH \(table)"); return try await base.updateRecords(in: table, updates, replace: replace, options: options)
    }
    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        note("PATCH \(table)")
        let hook = table == ShopSchema.paymentTable && records.contains { $0.fields[PaymentField.kind]?.stringValue == "payment" }
            ? self.hook.withLock { hook in defer { hook = nil }; return hook } : nil
        if let hook, !after { await hook() }
        let result = try await base.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
        if let hook, after { await hook() }
        return result
    }
    func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        note("DELETE \(table)"); return try await base.deleteRecords(in: table, ids: ids)
    }
    func schema() async throws(AirtableError) -> BaseSchema { try await base.schema() }
}

/// Over Airtable a payer reads its payment back in the order's ledger, and no status after it: a cancel marks the
/// ledger before it reads the ledger (`PaymentRecords.markCancelled`), so a payment and a cancel at one instant never
/// leave money taken for a cancelled order.
@Suite struct CancelMarkTests {
    let ken = Acting("Ken", role: nil)

    /// A base whose creation times move on with the real clock from the test clock's instant (milliseconds apart),
    /// or one whose records all share that instant.
    static func base(_ fixture: ShopFixture, tied: Bool) async throws -> LocalBase {
        let testNow = fixture.clock.date, start = Date()
        let base = try LocalBase.inMemory(clock: { tied ? testNow() : testNow().addingTimeInterval(Date().timeIntervalSince(start)) })
        let setup = Shop(store: base, clock: fixture.clock.shopClock)
        try await setup.createMissingSchema()
        _ = try await setup.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        return base
    }

    /// A void at a second counter, run just before the payer's payment reaches the base (the copy already says paid,
    /// the ledger holds nothing yet: the void gives nothing back itself and marks the ledger; the payer finds the mark)
    /// or just after it (the void's settling finds the payment and gives it back; the payer finds the mark and the
    /// refund). Either way, with creation times apart or all the same instant (as whole seconds make them on
    /// Airtable): the payment stands and is given back once, never taken back, and no status is read after it.
    @Test("a void at the instant of a payment over Airtable: the payment stands and is given back once",
          arguments: [(false, false), (false, true), (true, false), (true, true)])
    func aVoidAtTheInstantOfAPayment(voidAfterThePayment: Bool, tied: Bool) async throws {
        let fixture = try await ShopFixture()
        let base = try await Self.base(fixture, tied: tied)
        let voiderStore = CountingStore(base)
        let voider = Shop(store: voiderStore, clock: fixture.clock.shopClock)
        let placed = try await voider.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                    by: ken).order
        let number = OrderNumber.pickup(placed.order.pickupNumber)
        _ = try await voider.counter.advance(number, by: ken)
        let voided = Mutex<String?>(nil)
        let ken = ken
        let payerStore = PaymentInFlightStore(base, after: voidAfterThePayment) {
            do {
                let cancellation = try await voider.counter.void(number, reason: "spilled", by: ken)
                voided.withLock { $0 = "voided, refunded \(cancellation.refunds.map(\.amount))" }
            } catch {
                voided.withLock { $0 = "\(error)" }
            }
        }
        let payer = Shop(store: payerStore, clock: fixture.clock.shopClock)
        #expect(payerStore.atomicStore == nil && voiderStore.atomicStore == nil)
        #expect(payer.till.commits.marksCancelsInLedger)

        var refused: TillError?
        do { _ = try await payer.counter.pay(number, method: .card, tendered: nil, by: ken) } catch { refused = error }
        // Before: the void found nothing in the ledger to give back. After: its settling gave the payment back.
        #expect(voided.withLock { $0 } == "voided, refunded \(voidAfterThePayment ? [placed.order.total] : [])")
        guard case .paidWhileCancelled(_, let refunds) = refused else {
            Issue.record("the payer was not told to give the money back: \(String(describing: refused))")
            return
        }
        // The payer gave it back itself, or found it given back already (refunds are keyed: given once).
        #expect(refunds.map(\.amount) == (voidAfterThePayment ? [] : [placed.order.total]))
        // No read of the order's status after the payment: the ledger read back answered it.
        let log = payerStore.requestLog
        let afterPayment = log.drop { $0 != "PATCH \(ShopSchema.paymentTable)" }.dropFirst()
        #expect(afterPayment.first == "GET \(ShopSchema.paymentTable)", "\(log)")
        #expect(!log.contains("GET one \(ShopSchema.orderTable)"), "\(log)")
        #expect(!log.contains("DELETE \(ShopSchema.paymentTable)"), "the payment was taken back: \(log)")

        let ledger = try await base.allRecords(in: ShopSchema.paymentTable)
            .filter { $0.fields["orderRef"]?.stringValue == placed.orderRef }
        let amounts = { (kind: String) in
            ledger.filter { $0.fields["kind"]?.stringValue == kind }.compactMap { $0.fields["amount"]?.intValue }
        }
        #expect(amounts("payment") == [placed.order.total])
        #expect(amounts("refund").sorted() == [0, placed.order.total])  // the mark, and the money back
        // The books: money in, money back, the mark no money; the order cancelled, its copy agreeing with the ledger.
        let now = try await voider.orders.find(number)
        #expect(now.order.status == .cancelled)
        let money = try await voider.till.moneyForChange(of: now)
        #expect(money.paid == placed.order.total && money.refunded == placed.order.total)
        #expect(money.refunds.count == 1)
        let embedded = Shop(store: base, clock: fixture.clock.shopClock)
        let books = try await embedded.books.check(try embedded.till.period(from: "today", to: "today"))
        #expect(books.differences.isEmpty, "\(books.differences)")
    }

    @Test("a payment over Airtable is the copy, the payment and its read-back: no status read after it")
    func plainPaymentCostsThreeCalls() async throws {
        let fixture = try await ShopFixture()
        let store = CountingStore(fixture.base)
        let counter = Shop(store: store, clock: fixture.clock.shopClock)
        let placed = try await counter.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                     by: ken).order
        let stored = try await counter.orders.find(.pickup(placed.order.pickupNumber))
        let requests = try await store.requests {
            _ = try await counter.till.payOverTheAPI(stored, method: .card, tendered: nil, by: "Ken")
        }
        #expect(requests == ["PATCH \(ShopSchema.orderTable)", "PATCH \(ShopSchema.paymentTable)", "GET \(ShopSchema.paymentTable)"])
    }

    @Test("a void of a paid order over Airtable marks the ledger once; reports and the books leave the mark out")
    func theMarkIsNoMoney() async throws {
        let fixture = try await ShopFixture()
        let counter = Shop(store: CountingStore(fixture.base), clock: fixture.clock.shopClock)
        let placed = try await counter.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                     by: ken).order
        let number = OrderNumber.pickup(placed.order.pickupNumber)
        _ = try await counter.counter.pay(number, method: .card, tendered: nil, by: ken)
        _ = try await counter.counter.advance(number, by: ken)
        let cancellation = try await counter.counter.void(number, reason: "spilled", by: ken)
        #expect(cancellation.refunds.map(\.amount) == [placed.order.total])
        let marks = try await fixture.base.allRecords(in: ShopSchema.paymentTable).filter { PaymentRecords.isCancelMark($0) }
        #expect(marks.count == 1)
        #expect(marks.first?.fields["reason"]?.stringValue?.contains("spilled") == true)
        // Every reader of money leaves it out: the order's money, the day's records, the books.
        let records = try await counter.till.payments.forOrder(placed.orderRef)
        #expect(records.count == 2)
        #expect(records.refunds.map(\.amount) == [placed.order.total])
        let books = try await fixture.shop.books.check(try fixture.shop.till.period(from: "today", to: "today"))
        #expect(books.differences.isEmpty, "\(books.differences)")
        // On the embedded store a void decides it inside its transaction: no mark.
        let embedded = try await fixture.shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                            by: ken).order
        let embeddedNumber = OrderNumber.pickup(embedded.order.pickupNumber)
        _ = try await fixture.shop.counter.pay(embeddedNumber, method: .card, tendered: nil, by: ken)
        _ = try await fixture.shop.counter.advance(embeddedNumber, by: ken)
        _ = try await fixture.shop.counter.void(embeddedNumber, reason: "spilled", by: ken)
        #expect(!fixture.shop.till.commits.marksCancelsInLedger)
        let all = try await fixture.base.allRecords(in: ShopSchema.paymentTable).filter { PaymentRecords.isCancelMark($0) }
        #expect(all.count == 1)
    }
}
