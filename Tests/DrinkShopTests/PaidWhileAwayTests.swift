import Airtable
@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LocalBase
import Testing
import TestSupport

/// A counter over the API keeps taking money while the store is away: a kept order is paid in full, its printed
/// invoice numbered from the counter's own book; the payment, the invoice and its file reach the store when the order
/// is sent, once each, and the books balance.
@Suite struct PaidWhileAwayTests {
    let ken = Acting("Ken", role: nil)
    static let drink: [DrinkOption] = [.size(.medium), .sugar(.free), .ice(.iceFree)]

    /// A counter over a flaky store with a seller and a range set up, that has paid one order by cash online (so it has
    /// its book, and has seen the shift open), then lost the store and kept two orders: `#A-P1` and `#A-P2`.
    private func awayWithTwoKept(turnkey: String? = nil) async throws -> (OutboxTests.Counter, [StoredOrder]) {
        let counter = try await OutboxTests.Counter()
        try await InvoiceDeskTests.setUp(counter.shop.counter, turnkey: turnkey)
        _ = try await counter.shop.counter.openShift(float: 500, by: ken)
        let first = try await counter.shop.counter.place(OrderDraft(lines: [counter.fixture.line("熟成紅茶", Self.drink)]), by: ken).order
        let paid = try await counter.shop.counter.pay(.pickup(first.order.pickupNumber), method: .cash, tendered: nil, by: ken)
        #expect(paid.invoice?.number.printed == "AB-12345000")
        counter.flaky.unplug()
        var kept: [StoredOrder] = []
        for cups in [1, 2] {
            kept.append(try await counter.shop.counter.place(OrderDraft(lines: [
                counter.fixture.line("熟成紅茶", Self.drink, quantity: cups),
            ]), by: ken).order)
        }
        #expect(kept.allSatisfy { $0.isUnsent })
        return (counter, kept)
    }

    @Test("paid while away: the invoice is numbered at once, the ledger and EInvoice get them when the order is sent")
    func paidWhileAwayThenSent() async throws {
        let turnkey = try TemporaryDirectory()
        let (counter, kept) = try await awayWithTwoKept(turnkey: turnkey.path)
        let shop = counter.shop
        let p1 = try #require(kept[0].number), p2 = try #require(kept[1].number)
        let cash = try await shop.counter.pay(p1, method: .cash, tendered: 200, by: ken)
        #expect(cash.money.due == 0 && cash.payment.change == 200 - kept[0].order.total)
        #expect(cash.invoice?.number.printed == "AB-12345001" && cash.invoice?.amounts.totalAmount == kept[0].order.total)
        let card = try await shop.counter.pay(p2, method: .card, tendered: nil, by: ken)
        #expect(card.invoice?.number.printed == "AB-12345002")
        // Nothing reached the store, and the kept order cannot be paid twice, changed, cancelled or voided.
        #expect(try await counter.fixture.records("TillPayment").count == 1)
        #expect(try await counter.fixture.records("EInvoice").count == 1)
        await #expect(throws: TillError.self) { try await shop.counter.pay(p1, method: .card, tendered: nil, by: ken) }
        do {
            _ = try await shop.counter.cancel(p1, reason: nil, by: ken)
            Issue.record("a kept order paid while away was cancelled")
        } catch {
            #expect("\(error)".contains("paid while the store could not be reached"))
        }
        await #expect(throws: TillError.self) { try await shop.counter.void(p2, reason: "spilled", by: Acting("Amy", role: .manager)) }
        await #expect(throws: TillError.self) {
            try await shop.counter.edit(p1, line: 1, change: LineChangeDraft(quantity: 3), by: ken)
        }
        // The proof prints from the outbox: the original, then a 補印.
        let onReceipt = try #require(try await shop.counter.invoiceOnReceipt(of: try await shop.orders.find(p1)))
        #expect(try await shop.counter.proofToPrint(onReceipt)?.isReprint == false)
        #expect(try await shop.counter.proofToPrint(onReceipt)?.isReprint == true)

        counter.flaky.plugIn()
        let sent = try await shop.counter.sendKept(force: true).sent
        #expect(sent.count == 2)
        let payments = try await counter.fixture.records("TillPayment")
        let invoices = try await counter.fixture.records("EInvoice")
        #expect(payments.count == 3 && invoices.count == 3)
        for (order, number) in zip(sent, ["AB-12345001", "AB-12345002"]) {
            let found = try await shop.orders.find(.pickup(order.pickupNumber))
            let money = try await shop.till.money(of: found)
            #expect(money.due == 0 && money.paid == found.order.total)
            let invoice = try #require(invoices.first { $0.fields["orderRef"]?.stringValue == found.orderRef })
            #expect(invoice.fields["number"]?.stringValue == number.replacingOccurrences(of: "-", with: ""))
            #expect(invoice.fields["pickupNumber"]?.intValue == order.pickupNumber)
            #expect(invoice.fields["totalAmount"]?.intValue == found.order.total)
            #expect((invoice.fields["issueFile"]?.stringValue ?? "").hasPrefix("F0401_"))
        }
        // The proof printed while away is the original: a print now is a 補印.
        let sentP1 = try await shop.orders.find(.pickup(sent[0].pickupNumber))
        let again = try #require(try await shop.counter.invoiceOnReceipt(of: sentP1))
        #expect(try await shop.counter.proofToPrint(again)?.isReprint == true)
        #expect(try await counter.outbox.ordersWithKeptPayments().isEmpty)
        let entries = try await shop.audit.entries(fromDay: shop.clock.today, throughDay: shop.clock.today)
        #expect(entries.filter { $0.action == .takePayment && $0.detail.contains("while the store was away") }.count == 2)
        let books = try await shop.books.check(try shop.till.period(from: "today", to: "today"))
        #expect(books.differences == [] && books.invoices == 3, "\(books.differences)")
        // One file a document in Turnkey's folder.
        let files = try FileManager.default.subpathsOfDirectory(atPath: turnkey.path).filter { $0.hasSuffix(".xml") }
        #expect(files.count == 3, "\(files)")
    }

    @Test("a send cut short after the payment is recorded is repeated whole: one payment, one invoice")
    func sendCutShortIsRepeated() async throws {
        let (counter, kept) = try await awayWithTwoKept()
        let shop = counter.shop
        let receipt = try await shop.counter.pay(try #require(kept[0].number), method: .card, tendered: nil, by: ken)
        let number = try #require(receipt.invoice?.number.text)
        counter.flaky.plugIn()
        // The store goes away again just as the invoice (the step after the payment) is written.
        counter.flaky.failNextWrite(in: ShopSchema.einvoiceTable)
        _ = try await shop.counter.sendKept(force: true)
        #expect(try await counter.outbox.ordersWithKeptPayments().count == 1)
        let ref = kept[0].orderRef
        #expect(try await counter.fixture.records("TillPayment").filter { $0.fields["orderRef"]?.stringValue == ref }.count == 1)
        #expect(try await counter.fixture.records("EInvoice").filter { $0.fields["orderRef"]?.stringValue == ref }.isEmpty)
        _ = try await shop.counter.sendKept(force: true)
        #expect(try await counter.outbox.ordersWithKeptPayments().isEmpty)
        #expect(try await counter.fixture.records("TillPayment").filter { $0.fields["orderRef"]?.stringValue == ref }.count == 1)
        let invoices = try await counter.fixture.records("EInvoice").filter { $0.fields["orderRef"]?.stringValue == ref }
        #expect(invoices.map { $0.fields["number"]?.stringValue } == [number])
        let books = try await shop.books.check(try shop.till.period(from: "today", to: "today"))
        #expect(books.differences == [], "\(books.differences)")
    }

    @Test("cash taken while away, its shift closed at another counter meanwhile, is still recorded when sent")
    func cashAfterTheShiftClosed() async throws {
        let (counter, kept) = try await awayWithTwoKept()
        let receipt = try await counter.shop.counter.pay(try #require(kept[0].number), method: .cash, tendered: nil, by: ken)
        // Another counter, on the store, counts the drawer: the kept cash is in it, the ledger does not have it yet.
        let other = counter.fixture.shop
        let expected = try await other.drawer.expected().1
        let count = try await other.counter.closeDrawer(counted: expected + receipt.payment.amount, by: Acting("Amy", role: .manager))
        #expect(count.counted - count.expected == receipt.payment.amount)
        counter.flaky.plugIn()
        let sent = try await counter.shop.counter.sendKept(force: true)
        #expect(sent.refused.isEmpty && sent.sent.count == 2)
        let found = try await counter.shop.orders.find(.pickup(try #require(sent.sent.first).pickupNumber))
        #expect(try await counter.shop.till.money(of: found).due == 0)
        #expect(try await counter.outbox.ordersWithKeptPayments().isEmpty)
    }

    @Test("what cannot be taken while away is refused in words, and nothing is kept or numbered")
    func refusalsWhileAway() async throws {
        let (counter, kept) = try await awayWithTwoKept()
        let shop = counter.shop
        let p1 = try #require(kept[0].number)
        func refusal(_ body: () async throws -> Void) async -> String {
            do { try await body(); return "" } catch { return "\(error)" }
        }
        #expect(await refusal { _ = try await shop.counter.pay(p1, method: .card, tendered: 10, by: self.ken) }
            .contains("only the whole bill is taken"))
        // The shift is closed at this counter before the store goes away again: no cash while away.
        counter.flaky.plugIn()
        _ = try await shop.counter.sendKept(force: true)
        _ = try await shop.counter.closeDrawer(counted: 500 + 60, by: Acting("Amy", role: .manager))
        counter.flaky.unplug()
        let later = try await shop.counter.place(OrderDraft(lines: [counter.fixture.line("熟成紅茶", Self.drink)]), by: ken).order
        #expect(later.isUnsent)
        #expect(await refusal { _ = try await shop.counter.pay(try #require(later.number), method: .cash, tendered: nil, by: self.ken) }
            .contains("cash needs an open shift"))
        #expect(try await counter.outbox.ordersWithKeptPayments().isEmpty)
        #expect(await counter.outbox.invoiceBook()?.last == "AB12345000")
    }

    @Test("a kept order paid while away whose store answers again is sent first and paid as any order")
    func storeBackPaysAsAnyOrder() async throws {
        let (counter, kept) = try await awayWithTwoKept()
        counter.flaky.plugIn()
        counter.fixture.clock.advance(by: 3)  // past the probe interval: the store is tried again
        let receipt = try await counter.shop.counter.pay(try #require(kept[0].number), method: .card, tendered: nil, by: ken)
        #expect(!receipt.order.isUnsent && receipt.order.order.pickupNumber > 0)
        #expect(receipt.invoice?.id.isEmpty == false)
        #expect(try await counter.fixture.records("TillPayment").count == 2)
    }

    @Test("invoice details given for a kept order are kept with it: a carrier's and a company's invoice while away, the details on the order when sent")
    func invoiceDetailsWhileAway() async throws {
        let (counter, kept) = try await awayWithTwoKept()
        let shop = counter.shop
        let p1 = try #require(kept[0].number), p2 = try #require(kept[1].number)
        let carrier = try InvoiceDetails(parsing: "/ABC1234"), company = try InvoiceDetails(parsing: "04595257")
        try await shop.counter.invoice(p1, carrier, by: ken)
        try await shop.counter.invoice(p2, company, by: ken)
        // Kept in the outbox (a counter restarted during the outage still has them), none reached the store.
        let unsent = try await counter.outbox.unsentOrders(menu: try await shop.catalog.menu(), clock: shop.clock)
        #expect(unsent.map(\.keptInvoiceDetails) == [carrier, company])
        #expect(try await counter.fixture.records("OrderTill").isEmpty)

        let toCarrier = try #require(try await shop.counter.pay(p1, method: .card, tendered: nil, by: ken).invoice)
        #expect(toCarrier.details == carrier && toCarrier.amounts.taxAmount == 0)
        let toCompany = try #require(try await shop.counter.pay(p2, method: .card, tendered: nil, by: ken).invoice)
        #expect(toCompany.details == company)
        #expect(toCompany.amounts.taxAmount > 0 && toCompany.amounts.salesAmount + toCompany.amounts.taxAmount == kept[1].order.total)
        // A carrier's invoice prints no proof; the company's does. Its details cannot change once it is issued.
        let onCarrier = try #require(try await shop.counter.invoiceOnReceipt(of: try await shop.orders.find(p1)))
        #expect(try await shop.counter.proofToPrint(onCarrier) == nil)
        let onCompany = try #require(try await shop.counter.invoiceOnReceipt(of: try await shop.orders.find(p2)))
        #expect(try await shop.counter.proofToPrint(onCompany) != nil)
        do {
            try await shop.counter.invoice(p1, nil, by: ken)
            Issue.record("the details of an order invoiced while away changed")
        } catch {
            #expect("\(error)".contains("has invoice \(toCarrier.number.printed) issued (已開立發票)"), "\(error)")
        }

        counter.flaky.plugIn()
        let sent = try await shop.counter.sendKept(force: true)
        #expect(sent.sent.count == 2 && sent.refused.isEmpty)
        let invoices = try await counter.fixture.records("EInvoice")
        for (order, details) in zip(sent.sent, [carrier, company]) {
            let found = try await shop.orders.find(.pickup(order.pickupNumber))
            #expect(try await shop.extras.extra(of: found.orderRef).invoice == details)
            let record = try #require(invoices.first { $0.fields["orderRef"]?.stringValue == found.orderRef })
            #expect(record.fields["recipientKind"]?.stringValue == details.kindCode)
            #expect(record.fields["recipientValue"]?.stringValue == details.value)
        }
        let books = try await shop.books.check(try shop.till.period(from: "today", to: "today"))
        #expect(books.differences == [] && books.invoices == 3, "\(books.differences)")
    }

    @Test("invoice details of a kept order left unpaid reach the store with it: paid there, its invoice follows them")
    func detailsOfAnUnpaidKeptOrder() async throws {
        let (counter, kept) = try await awayWithTwoKept()
        let shop = counter.shop
        let donation = try InvoiceDetails(parsing: "8585")
        try await shop.counter.invoice(try #require(kept[0].number), donation, by: ken)
        counter.flaky.plugIn()
        let sent = try #require(try await shop.counter.sendKept(force: true).sent.first)
        let receipt = try await shop.counter.pay(.pickup(sent.pickupNumber), method: .card, tendered: nil, by: ken)
        #expect(receipt.invoice?.details == donation)
    }

    @Test("a counter that issues the last number of its book claims the next at once, so an outage after it still issues")
    func nextBookClaimedWhenOneIsUsedUp() async throws {
        let counter = try await OutboxTests.Counter()
        let shop = counter.shop
        try await InvoiceDeskTests.setUp(shop.counter)
        var last: IssuedInvoice?
        for _ in 0..<50 { last = try #require(try await InvoiceDeskTests.paidOrder(shop, counter.fixture).invoice) }
        #expect(last?.number.printed == "AB-12345049")
        // The book AB12345000 is used up: the next, AB12345050, is already this counter's, nothing taken from it.
        let held = await counter.outbox.invoiceBook()
        #expect(held?.book.hasSuffix("12345050") == true && held?.last == nil, "\(String(describing: held))")
        #expect(try await counter.fixture.records("InvoiceBook").count == 2)
        counter.flaky.unplug()
        let kept = try await shop.counter.place(OrderDraft(lines: [counter.fixture.line("熟成紅茶", Self.drink)]), by: ken).order
        let away = try await shop.counter.pay(try #require(kept.number), method: .card, tendered: nil, by: ken)
        #expect(away.invoice?.number.printed == "AB-12345050")
    }

    @Test("einvoice status names an invoice issued while away whose order the store refused: it waits in the outbox, its file unwritten")
    func statusNamesInvoicesKeptHere() async throws {
        let turnkey = try TemporaryDirectory()
        let (counter, kept) = try await awayWithTwoKept(turnkey: turnkey.path)
        let shop = counter.shop
        let amy = Acting("Amy", role: .manager)
        let refused = try await shop.counter.place(OrderDraft(orderName: "refused", lines: [
            counter.fixture.line("熟成紅茶", Self.drink),
        ]), by: ken).order
        let refusedNumber = try #require(refused.number)
        let invoice = try #require(try await shop.counter.pay(refusedNumber, method: .card, tendered: nil, by: ken).invoice)
        _ = try await shop.counter.pay(try #require(kept[0].number), method: .card, tendered: nil, by: ken)
        // While the store is away the status tells what this counter keeps, and says the rest is not known.
        let away = try await shop.counter.invoiceFiles(by: amy)
        #expect(away.storeAway && away.keptHere.count == 2 && away.waiting.isEmpty)
        counter.flaky.plugIn()
        let report = try await shop.counter.sendKept(force: true)
        #expect(report.refused.map(\.order) == [refusedNumber])
        let status = try await shop.counter.invoiceFiles(by: amy)
        #expect(!status.storeAway && status.keptHere.map(\.number) == [invoice.number.printed])
        #expect(status.keptHere.first?.order == refusedNumber.description)
        #expect(status.keptHere.first?.nearsLimit(now: shop.clock.now()) == false)
        #expect(status.keptHere.first?.nearsLimit(now: shop.clock.now().addingTimeInterval(25 * 3600)) == true)
        // The one sent is recorded with its file, not listed.
        #expect(status.waiting.contains { $0.name.hasPrefix("F0401_") && !$0.name.contains(invoice.number.text) })
        #expect(!status.waiting.contains { $0.name.contains(invoice.number.text) })
    }

    @Test("a member's kept order is paid while away without the pass; sent, it is the member's and the payment earns its stamps once, sends cut short too")
    func membersOrderPaidWhileAway() async throws {
        let counter = try await OutboxTests.Counter()
        let shop = counter.shop
        try await InvoiceDeskTests.setUp(shop.counter)
        let program = try TemporaryDirectory()
        _ = try await counter.fixture.shop.seeder.seed(contentsOf: try program.file("members.json", contents: """
            {"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"},
             "passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10}]}
            """))
        let mobile = try MobileNumber(parsing: "0912345678")
        _ = try await counter.fixture.shop.members.buyPass("月卡", for: mobile)
        _ = try await InvoiceDeskTests.paidOrder(shop, counter.fixture)  // this counter holds a book
        counter.flaky.unplug()
        let kept = try await shop.counter.place(OrderDraft(orderName: "0912345678", lines: [
            counter.fixture.line("熟成紅茶", Self.drink, quantity: 2),
        ]), by: ken).order
        #expect(kept.isUnsent && kept.keptMember == mobile)
        let paid = try await shop.counter.pay(try #require(kept.number), method: .card, tendered: nil, by: ken)
        #expect(paid.payment.amount == kept.order.total && paid.invoice?.amounts.totalAmount == kept.order.total)

        // The store answers again, but the first send stops right at the payment: the member is theirs already.
        counter.flaky.plugIn()
        counter.flaky.failNextWrite(in: "TillPayment")
        _ = try await shop.counter.sendKept(force: true)
        #expect(try await counter.outbox.ordersWithKeptPayments().count == 1)
        // The second stops after the payment (its stamps earned), at the invoice: the third must not undo them.
        counter.flaky.failNextWrite(in: ShopSchema.einvoiceTable)
        _ = try await shop.counter.sendKept(force: true)
        #expect(try await counter.outbox.ordersWithKeptPayments().count == 1)
        #expect(try await counter.fixture.shop.members.member(mobile).card.stamps == 2)
        let sent = try #require(try await shop.counter.sendKept(force: true).sent.first)
        #expect(try await counter.outbox.ordersWithKeptPayments().isEmpty)
        let found = try await shop.orders.find(.pickup(sent.pickupNumber))
        let extra = try await shop.extras.extra(of: found.orderRef)
        #expect(extra.member == mobile && extra.pass == nil && extra.stampsAdded == 2)
        #expect(try await counter.fixture.shop.members.member(mobile).card.stamps == 2)
        let money = try await shop.till.money(of: found)
        #expect(money.due == 0 && money.paid == kept.order.total)
        let books = try await shop.books.check(try shop.till.period(from: "today", to: "today"))
        #expect(books.differences == [], "\(books.differences)")
        _ = try await shop.counter.sendKept(force: true)
        #expect(try await counter.fixture.shop.members.member(mobile).card.stamps == 2)
    }

    /// Two counters of one machine (one outbox file, two shops as two processes would be) that took a payment online
    /// (so they hold a book, AB-12345000 used), then lost the store with `count` orders kept.
    private func twoCountersOfOneMachine(in directory: borrowing TemporaryDirectory, keeping count: Int) async throws
        -> (OutboxTests.Counter, Shop, [StoredOrder])
    {
        let path = directory.path + "/outbox.sqlite"
        let counter = try await OutboxTests.Counter(outboxPath: path)
        let shop = counter.shop
        try await InvoiceDeskTests.setUp(shop.counter)
        _ = try await InvoiceDeskTests.paidOrder(shop, counter.fixture)
        let other = Shop(store: counter.flaky, clock: counter.fixture.clock.shopClock,
                         outbox: Outbox(store: try await LocalBase.open(path: path), location: path))
        _ = try await other.catalog.menu()
        _ = try await other.counter.invoiceSetup()
        counter.flaky.unplug()
        var kept: [StoredOrder] = []
        for cups in 1...count {
            kept.append(try await shop.counter.place(OrderDraft(lines: [counter.fixture.line("熟成紅茶", Self.drink, quantity: cups)]), by: ken).order)
        }
        return (counter, other, kept)
    }

    /// Whether `body` went through (a refusal is an answer these tests count, not a failure).
    private static func succeeds(_ body: () async throws -> Void) async -> Bool {
        do { try await body(); return true } catch { return false }
    }

    /// `order` as the shared outbox holds it now.
    private static func keptNow(_ order: StoredOrder, at counter: OutboxTests.Counter) async throws -> StoredOrder {
        try #require(try await counter.outbox.unsentOrders(menu: try await counter.shop.catalog.menu(), clock: counter.shop.clock)
            .first { $0.orderRef == order.orderRef })
    }

    @Test("two counters of one machine (one outbox file) paying one kept order at the same instant: one payment, one invoice, no number skipped")
    func twoCountersPayOneKeptOrderAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let (counter, other, kept) = try await twoCountersOfOneMachine(in: directory, keeping: 6)
        let shop = counter.shop
        @Sendable func paying(_ shop: Shop, _ number: OrderNumber) async -> String? {
            do { return try await shop.counter.pay(number, method: .card, tendered: nil, by: Acting("Ken", role: nil)).invoice?.number.text } catch {
                #expect("\(error)".contains("was paid already"), "\(error)")
                return nil
            }
        }
        var issued: [String] = []
        for order in kept {
            let number = try #require(order.number)
            async let one = paying(shop, number)
            async let two = paying(other, number)
            let taken = await [one, two].compactMap { $0 }
            #expect(taken.count == 1, "\(number): \(taken)")
            issued += taken
        }
        #expect(issued == (1...6).map { String(format: "AB%08d", 12345000 + $0) })
        #expect(await counter.outbox.invoiceBook()?.last == "AB12345006")
        #expect(try await counter.outbox.ordersWithKeptPayments().count == 6)
        counter.flaky.plugIn()
        #expect(try await shop.counter.sendKept(force: true).sent.count == 6)
        let books = try await shop.books.check(try shop.till.period(from: "today", to: "today"))
        #expect(books.differences == [] && books.payments == 7 && books.invoices == 7, "\(books.differences)")
    }

    @Test("a cancel at one counter of a machine and a payment at another, of one kept order at the same instant: never both")
    func cancelAndPaymentAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let (counter, other, kept) = try await twoCountersOfOneMachine(in: directory, keeping: 8)
        let shop = counter.shop
        var outcomes: [String] = []
        for order in kept {
            let number = try #require(order.number)
            async let cancelled = Self.succeeds { _ = try await shop.counter.cancel(number, reason: "changed mind", by: Acting("Ken", role: nil)) }
            async let paid = Self.succeeds { _ = try await other.counter.pay(number, method: .card, tendered: nil, by: Acting("Ken", role: nil)) }
            let (c, p) = await (cancelled, paid)
            #expect(c != p, "\(number): cancelled \(c), paid \(p)")
            let now = try await Self.keptNow(order, at: counter)
            let payment = try await counter.outbox.keptPayment(of: order.orderRef)
            #expect((now.order.status == .cancelled) == (payment == nil), "\(number): \(now.order.status), payment \(payment != nil)")
            outcomes.append(c ? "cancelled" : "paid")
        }
        counter.flaky.plugIn()
        let report = try await shop.counter.sendKept(force: true)
        #expect(report.refused.isEmpty && report.sent.count == kept.count, "\(report.refused.map { "\($0.reason)" })")
        let books = try await shop.books.check(try shop.till.period(from: "today", to: "today"))
        #expect(books.differences == [], "\(outcomes): \(books.differences)")
    }

    @Test("new invoice details at one counter of a machine and a payment at another, at the same instant: the invoice follows the details the order keeps")
    func detailsAndPaymentAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let (counter, other, kept) = try await twoCountersOfOneMachine(in: directory, keeping: 8)
        let shop = counter.shop
        let carrier = try InvoiceDetails(parsing: "/ABC1234")
        for order in kept {
            let number = try #require(order.number)
            async let given = Self.succeeds { try await shop.counter.invoice(number, carrier, by: Acting("Ken", role: nil)) }
            async let paid = Self.succeeds { _ = try await other.counter.pay(number, method: .card, tendered: nil, by: Acting("Ken", role: nil)) }
            _ = await (given, paid)
            let now = try await Self.keptNow(order, at: counter)
            if let invoice = try await counter.outbox.keptPayment(of: order.orderRef)?.invoice {
                #expect(invoice.details == now.keptInvoiceDetails, "\(number): invoice \(String(describing: invoice.details)), order \(String(describing: now.keptInvoiceDetails))")
            }
        }
    }

    @Test("an edit at one counter of a machine and a payment at another, of one kept order at the same instant: the payment is for the bill the order keeps")
    func editAndPaymentAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let (counter, other, kept) = try await twoCountersOfOneMachine(in: directory, keeping: 8)
        let shop = counter.shop
        var outcomes: [String] = []
        for order in kept {
            let number = try #require(order.number)
            let more = LineChangeDraft(quantity: order.order.lines[0].quantity + 1)
            async let edited = Self.succeeds { _ = try await shop.counter.edit(number, line: 1, change: more, by: Acting("Ken", role: nil)) }
            async let paid = Self.succeeds { _ = try await other.counter.pay(number, method: .card, tendered: nil, by: Acting("Ken", role: nil)) }
            let (e, p) = await (edited, paid)
            outcomes.append("\(e ? "edited" : "-")/\(p ? "paid" : "-")")
            let now = try await Self.keptNow(order, at: counter)
            if let payment = try await counter.outbox.keptPayment(of: order.orderRef)?.payment {
                #expect(payment.amount == now.order.total, "\(number): paid $\(payment.amount), the order is $\(now.order.total)")
            }
        }
        counter.flaky.plugIn()
        let report = try await shop.counter.sendKept(force: true)
        #expect(report.refused.isEmpty, "\(outcomes): \(report.refused.map { "\($0.reason)" })")
        let books = try await shop.books.check(try shop.till.period(from: "today", to: "today"))
        #expect(books.differences == [], "\(outcomes): \(books.differences)")
    }
}
