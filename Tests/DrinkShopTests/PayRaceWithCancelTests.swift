import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Synchronization
import TestSupport
import Testing

/// A store over the API (no transactions) that runs a hook once, just before the first `TillPayment` record of kind
/// `payment` is written (`beforePayment`) and just before the first `TillPayment` record is deleted (`beforeDelete`),
/// and says when a listing of `TillPayment` ends after a cancel mark was written (`afterMarkedRead`).
final class TillHookStore: RecordStore {
    let base: any RecordStore
    private let beforePayment: Mutex<(@Sendable () async -> Void)?>
    private let beforeDelete: Mutex<(@Sendable () async -> Void)?>
    private let afterMarkedRead: Mutex<(@Sendable () -> Void)?>
    private let marked = Mutex(false)

    init(_ base: any RecordStore, beforePayment: (@Sendable () async -> Void)? = nil,
         beforeDelete: (@Sendable () async -> Void)? = nil, afterMarkedRead: (@Sendable () -> Void)? = nil) {
        self.base = base
        self.beforePayment = Mutex(beforePayment)
        self.beforeDelete = Mutex(beforeDelete)
        self.afterMarkedRead = Mutex(afterMarkedRead)
    }

    func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        let page = try await base.listRecords(in: table, query: query)
        if table == ShopSchema.paymentTable, marked.withLock({ $0 }) {
            afterMarkedRead.withLock { hook in defer { hook = nil }; return hook }?()
        }
        return page
    }
    func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        try await base.getRecord(in: table, id: id, options: options)
    }
    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        try await base.createRecords(in: table, records, options: options)
    }
    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record] {
        try await base.updateRecords(in: table, updates, replace: replace, options: options)
    }
    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        if table == ShopSchema.paymentTable {
            if records.contains(where: { $0.fields[PaymentField.kind]?.stringValue == "payment" }),
               let hook = beforePayment.withLock({ hook in defer { hook = nil }; return hook }) {
                await hook()
            }
            if records.contains(where: { $0.fields[PaymentField.ref]?.stringValue?.hasSuffix(PaymentRecords.cancelMarkSuffix) == true }) {
                defer { marked.withLock { $0 = true } }
                return try await base.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
            }
        }
        return try await base.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }
    func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        if table == ShopSchema.paymentTable, let hook = beforeDelete.withLock({ hook in defer { hook = nil }; return hook }) {
            await hook()
        }
        return try await base.deleteRecords(in: table, ids: ids)
    }
    func schema() async throws(AirtableError) -> BaseSchema { try await base.schema() }
}

/// Over Airtable, two counters paying one order and a third voiding it, all at one instant: the payment that loses its
/// claim is taken back after the void's settling has read the ledger with it. The void waits for the ledger to hold no
/// more than the bill before it gives money back, and a refund never stays above what stands paid: the books balance
/// and the voiding counter is told what it gives back.
@Suite struct PayRaceWithCancelTests {
    let ken = Acting("Ken", role: nil)

    @Test("a void reading the ledger while a losing payment is on its way out gives back only the payment that stands",
          arguments: [false, true])
    func aVoidBetweenALosingPaymentAndItsWithdrawal(tied: Bool) async throws {
        let race = try await Race(tied: tied, by: ken)
        let (fixture, base, first, number, total) = (race.fixture, race.base, race.first, race.number, race.placed.order.total)
        let ken = ken
        // The void's store says when the void has read the ledger after marking it: the losing payment is then
        // taken back.
        let (readAfterMark, readSignal) = AsyncStream<Void>.makeStream()
        let sawMarkedRead = Mutex(false)
        let voidingCounter = Shop(store: TillHookStore(base, afterMarkedRead: {
            sawMarkedRead.withLock { $0 = true }
            readSignal.yield()
            readSignal.finish()
        }),
                                  clock: fixture.clock.shopClock)
        // The void starts when the losing payment is about to be taken back.
        let (go, goSignal) = AsyncStream<Void>.makeStream()
        let voiding = Task { () async throws(TillError) -> Counter.Cancellation in
            for await _ in go { break }
            // However the void ends, the payer waiting for its read goes on.
            defer { readSignal.finish() }
            return try await voidingCounter.counter.void(number, reason: "spilled", by: ken)
        }
        // The second payer: the first counter's payment lands while the second's is on its way (both worked out from
        // the empty ledger); the second reads its own back behind the first's and takes it back, but only once the
        // void has read the ledger with both in it.
        let second = Shop(store: TillHookStore(base, beforePayment: {
            _ = try? await first.counter.pay(number, method: .card, tendered: nil, by: ken)
        }, beforeDelete: {
            goSignal.yield()
            goSignal.finish()
            for await _ in readAfterMark { break }
        }), clock: fixture.clock.shopClock)

        await #expect(throws: TillError.self) {
            _ = try await second.counter.pay(number, method: PaymentMethod.card, tendered: nil, by: ken)
        }
        goSignal.finish()
        let cancellation = try await voiding.value
        #expect(sawMarkedRead.withLock { $0 }, "the void read the ledger after marking it")

        try await race.expectOnePaymentGivenBack()
        #expect(cancellation.refunds.map(\.amount).reduce(0, +) == total, "the voiding counter is told what it gives back: \(cancellation.refunds)")
    }

    /// The same race with the losing payer slower than the void's settling waits (about 3 s): the void gives back both
    /// payments it found (it cannot tell the one on its way out); the payer, once it has taken its payment back, finds
    /// the order marked cancelled and lowers the refund to what stands paid. The books balance; the void was told the
    /// larger figure, and `check --books` is clean because the ledger is right.
    @Test func aLosingPayerSlowerThanTheVoidsWaitLowersTheRefundItself() async throws {
        let race = try await Race(tied: false, by: ken)
        let (fixture, base, voider, first, number, total) = (race.fixture, race.base, race.voider, race.first, race.number,
                                                             race.placed.order.total)
        let ken = ken
        let (done, doneSignal) = AsyncStream<Counter.Cancellation?>.makeStream()
        let second = Shop(store: TillHookStore(base, beforePayment: {
            _ = try? await first.counter.pay(number, method: .card, tendered: nil, by: ken)
        }, beforeDelete: {
            // The whole void, settling included, before this payment is taken back.
            let cancellation = try? await voider.counter.void(number, reason: "spilled", by: ken)
            doneSignal.yield(cancellation)
            doneSignal.finish()
        }), clock: fixture.clock.shopClock)
        await #expect(throws: TillError.self) {
            _ = try await second.counter.pay(number, method: PaymentMethod.card, tendered: nil, by: ken)
        }
        var told: Counter.Cancellation?
        for await cancellation in done { told = cancellation }
        #expect(told?.refunds.map(\.amount).reduce(0, +) == 2 * total, "the void gave back both payments it found")

        try await race.expectOnePaymentGivenBack()
    }

    /// An order made (so it is voided, not cancelled) on a base over the API, a counter to void it and one to pay it.
    struct Race {
        let fixture: ShopFixture
        let base: LocalBase
        let voider: Shop
        let first: Shop
        let placed: StoredOrder
        let number: OrderNumber

        init(tied: Bool, by ken: Acting) async throws {
            fixture = try await ShopFixture()
            base = try await CancelMarkTests.base(fixture, tied: tied)
            voider = Shop(store: CountingStore(base), clock: fixture.clock.shopClock)
            first = Shop(store: CountingStore(base), clock: fixture.clock.shopClock)
            placed = try await voider.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                    by: ken).order
            number = OrderNumber.pickup(placed.order.pickupNumber)
            _ = try await voider.counter.advance(number, by: ken)
        }

        /// One payment stands in the ledger and exactly that is given back; the books are clean.
        func expectOnePaymentGivenBack() async throws {
            let ledger = try await base.allRecords(in: ShopSchema.paymentTable)
                .filter { $0.fields["orderRef"]?.stringValue == placed.orderRef && $0.fields["amount"]?.intValue != 0 }
            let sum = { (kind: String) in
                ledger.filter { $0.fields["kind"]?.stringValue == kind }.compactMap { $0.fields["amount"]?.intValue }.reduce(0, +)
            }
            #expect(sum("payment") == placed.order.total, "one payment stands: \(ledger.map(\.fields))")
            #expect(sum("refund") == placed.order.total, "what stands is given back, no more: \(ledger.map(\.fields))")
            let embedded = Shop(store: base, clock: fixture.clock.shopClock)
            let books = try await embedded.books.check(try embedded.till.period(from: "today", to: "today"))
            #expect(books.differences.isEmpty, "\(books.differences)")
        }
    }
}
