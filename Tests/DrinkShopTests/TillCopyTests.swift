import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import Synchronization
import TestSupport
import Testing

/// The till's copy on an order's records against failures between its two writes: a refused payment leaves
/// nothing behind, and a void retried after a failure refunds once.
@Suite struct TillCopyTests {
    static let refused = AirtableError.api(APIError(status: 422, type: "INVALID_VALUE_FOR_COLUMN", message: "refused for the test"))

    private func shop(_ fixture: ShopFixture) async throws -> (Shop, CountingStore) {
        let store = CountingStore(fixture.base)
        let shop = Shop(store: store, clock: fixture.clock.shopClock)
        _ = try await shop.orders.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                        placedBy: "Ken")
        return (shop, store)
    }

    /// Over the API the copy is written ahead of the ledger: a payment the ledger refuses (or a crash
    /// between the two writes) leaves the copy saying paid, which only refuses more; paying again goes by
    /// the ledger and is taken once.
    @Test func aPaymentTheLedgerRefusesLeavesTheCopyAheadAndPayingAgainGoesByTheLedger() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.drawer.open(float: 0, by: "Ken")  // cash goes into an open shift
        let (shop, store) = try await shop(fixture)
        store.refuse("PATCH TillPayment", with: Self.refused)
        await #expect(throws: TillError.self) { try await shop.till.pay(.pickup(1), method: .cash, tendered: 100, by: "Ken") }
        #expect(try await fixture.records(ShopSchema.paymentTable).isEmpty)
        let order = try await shop.orders.find(.pickup(1))
        #expect(order.till == TillCopy(paidBy: [.cash: order.order.total]))
        #expect(try await shop.till.moneyForChange(of: order).due == order.order.total)
        // Taken again, it is taken once.
        let receipt = try await shop.till.pay(.pickup(1), method: .cash, tendered: 100, by: "Ken")
        #expect(receipt.payment.change == 100 - order.order.total)
        #expect(try await shop.orders.find(.pickup(1)).till == TillCopy(paidBy: [.cash: order.order.total]))
        // The report is the ledger's (the change handed back, who and when), not the copy's sums.
        let report = try await shop.till.report(try shop.till.period(from: "today", to: "today"))
        #expect(report.byMethod[.cash]?.change == 100 - order.order.total)
        // So is the receipt: what was handed over, and the change.
        let found = try await shop.orders.find(.pickup(1))
        var facts = ReceiptFacts()
        let reads = try await store.requests { facts = try await shop.till.receiptFacts(for: found) }
        #expect(facts.payments.map(\.amount) == [100] && facts.change == 100 - order.order.total)
        // One read of the order's till record (its bill, invoice details and member) and one of the ledger.
        #expect(reads.sorted() == ["GET OrderTill", "GET TillPayment"], "\(reads)")
        // The receipt of an order just read is printed without reading it again.
        let printing = try await store.requests { _ = try await shop.printing.receiptPreview(.pickup(1), facts: facts, order: found) }
        #expect(printing.isEmpty, "\(printing)")
    }

    @Test func aVoidRetriedAfterTheOrdersWriteFailedRefundsOnce() async throws {
        let fixture = try await ShopFixture()
        let (shop, store) = try await shop(fixture)
        _ = try await shop.till.pay(.pickup(1), method: .card, tendered: 35, by: "Ken")
        _ = try await shop.orders.advance(.pickup(1))
        store.refuse("PATCH OrderDrink", with: Self.refused)
        await #expect(throws: TillError.self) {
            try await shop.till.cancel(try await shop.orders.find(.pickup(1)), reason: "spilled", voiding: true, by: "Mei")
        }
        // The order stands as it was; the refund is in the ledger.
        let standing = try await shop.orders.find(.pickup(1))
        #expect(standing.order.status == .preparing && standing.till?.refunded == 0)
        let (voided, refunds) = try await shop.till.cancel(standing, reason: "spilled", voiding: true, by: "Mei")
        #expect(refunds.map(\.amount) == [35] && voided.order.isVoided)
        let ledger = try await fixture.records(ShopSchema.paymentTable)
        #expect(ledger.filter { $0.fields["kind"]?.stringValue == "refund" && !PaymentRecords.isCancelMark($0) }.count == 1)
        #expect(try await shop.orders.find(.pickup(1)).till == TillCopy(paidBy: [.card: 35], refundedBy: [.card: 35]))
        let report = try await shop.till.report(try shop.till.period(from: "today", to: "today"))
        #expect(report.byMethod[.card]?.net == 0)
        let log = try await shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29")
        #expect(log.map(\.action) == [.void] && log.last?.detail == "preparing, $35: spilled (refunded 35 card)")
    }

    /// Two counters pay one order over the API at once, cash at one and card at the other: the one that read the
    /// order first (its copy: nothing paid, so no ledger read) but wrote last gives way, and the copy on the order says what the ledger holds (card), not
    /// what the counter that gave way wrote (cash). A copy still left stale is put right by the next pay.
    @Test func twoCountersPayingAtOnceLeaveTheCopyAsTheLedgerSays() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.drawer.open(float: 0, by: "Ken")
        let (shop, _) = try await shop(fixture)
        let total = try await shop.orders.find(.pickup(1)).order.total
        let paused = FirstReadPause(fixture.base, table: ShopSchema.orderTable)
        let cashCounter = Shop(store: paused, clock: fixture.clock.shopClock)
        let cash = Task { try await cashCounter.till.pay(.pickup(1), method: .cash, tendered: 500, by: "Amy") }
        await paused.reached.wait()  // the cash counter has read the order: nothing paid
        fixture.clock.advance(by: 1)
        _ = try await shop.till.pay(.pickup(1), method: .card, tendered: total, by: "Ken")
        fixture.clock.advance(by: 1)
        paused.release.open()
        await #expect(throws: TillError.self) { try await cash.value }
        let ledger = try await fixture.records(ShopSchema.paymentTable)
        #expect(ledger.map { $0.fields["method"]?.stringValue } == ["card"])
        #expect(try await shop.orders.find(.pickup(1)).till == TillCopy(paidBy: [.card: total]))
        #expect(try await shop.books.check(try shop.till.period(from: "today", to: "today")).balances)

        // A copy left stale (a counter that stopped between its writes): `pay #1 card` at a counter puts it right.
        let order = try await shop.orders.find(.pickup(1))
        _ = try await shop.orders.records.writeCells(of: order, [:], extra: OrderRecord.cells(of: TillCopy(paidBy: [.cash: total])))
        #expect(try await shop.orders.find(.pickup(1)).till == TillCopy(paidBy: [.cash: total]))
        await #expect(throws: TillError.self) { try await shop.till.pay(.pickup(1), method: .card, tendered: total, by: "Ken") }
        #expect(try await shop.orders.find(.pickup(1)).till == TillCopy(paidBy: [.card: total]))
    }
}

/// A counter over the API whose first listing of `table` is answered, then held until released: it works its
/// payment out from what the order (or the ledger) held before another counter's.
private final class FirstReadPause: ForwardingRecordStore {
    let underlying: any RecordStore
    let table: String
    let reached = AsyncGate()
    let release = AsyncGate()
    private let first = Mutex(true)

    init(_ underlying: any RecordStore, table: String) {
        self.underlying = underlying
        self.table = table
    }

    func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        let page = try await underlying.listRecords(in: table, query: query)
        let pausing = table == self.table && first.withLock { (isFirst: inout Bool) -> Bool in
            defer { isFirst = false }
            return isFirst
        }
        if pausing {
            reached.open()
            await release.wait()
        }
        return page
    }
}
