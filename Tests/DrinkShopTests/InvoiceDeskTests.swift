import Airtable
@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LocalBase
import TestSupport
import Synchronization
import Testing

/// The till issues 統一發票: numbers from books of 50 claimed once, an invoice for every order paid in full, voids and
/// allowances by the period's cut-off, and Turnkey's files written once.
@Suite struct InvoiceDeskTests {
    static let ken = Acting("Ken", role: nil)
    static let drink: [DrinkOption] = [.size(.medium), .sugar(.free), .ice(.iceFree)]

    static func setUp(_ counter: Counter, turnkey: String? = nil, range: String = "11512 AB 12345000-12345099") async throws {
        let seller = try InvoiceSeller(businessNumber: "12345675", name: "可不可熟成紅茶台北店", address: "台北市中正區忠孝西路一段1號",
                                       qrKey: try QRKey(hex: "0123456789abcdef0123456789abcdef"))
        try await counter.setInvoiceSeller(InvoiceSetup(seller: seller, turnkey: turnkey.map { TurnkeyFolder(root: $0) }), by: ken)
        try await counter.importInvoiceRange(try TrackRange(parsing: range), by: ken)
    }

    static func paidOrder(_ shop: Shop, _ fixture: ShopFixture, details: InvoiceDetails? = nil, cups: Int = 1) async throws
        -> Till.PaymentReceipt
    {
        let placed = try await shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", drink, quantity: cups)]), by: ken).order
        let number = OrderNumber.pickup(placed.order.pickupNumber)
        if let details { try await shop.counter.invoice(number, details, by: ken) }
        return try await shop.counter.pay(number, method: .card, tendered: nil, by: ken)
    }

    @Test("an order's invoice details no longer change once its invoice is issued: refused in words, nothing written")
    func detailsAfterTheInvoiceAreRefused() async throws {
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter)
        let receipt = try await Self.paidOrder(fixture.shop, fixture)
        let number = OrderNumber.pickup(receipt.order.order.pickupNumber)
        do {
            try await fixture.shop.counter.invoice(number, try InvoiceDetails(parsing: "8585"), by: Self.ken)
            Issue.record("the details of an invoiced order changed")
        } catch {
            #expect("\(error)".contains("order #\(receipt.order.order.pickupNumber) has invoice AB-12345000 issued (已開立發票)"), "\(error)")
        }
        #expect(try await fixture.shop.extras.extra(of: receipt.order.orderRef).invoice == nil)
    }

    @Test("on the embedded store invoices are numbered from the store's book in order, and their totals are the bills")
    func embeddedNumbers() async throws {
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter)
        var numbers: [String] = []
        for _ in 0..<3 {
            let receipt = try await Self.paidOrder(fixture.shop, fixture)
            let invoice = try #require(receipt.invoice, "\(receipt.invoiceProblem ?? "")")
            #expect(invoice.amounts.totalAmount == receipt.money.total)
            #expect(invoice.holder == InvoiceNumbering.sharedHolder)
            numbers.append(invoice.number.printed)
        }
        #expect(numbers == ["AB-12345000", "AB-12345001", "AB-12345002"])
        // A second counter on the same file goes on in the same book.
        let second = fixture.secondCounter()
        let next = try #require(try await Self.paidOrder(second, fixture).invoice)
        #expect(next.number.printed == "AB-12345003")
    }

    @Test("a B2B invoice shows the tax: sales and tax add up to what was paid")
    func businessInvoice() async throws {
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter)
        let receipt = try await Self.paidOrder(fixture.shop, fixture, details: .businessNumber("04595257"), cups: 3)
        let invoice = try #require(receipt.invoice)
        #expect(invoice.amounts.taxAmount > 0)
        #expect(invoice.amounts.salesAmount + invoice.amounts.taxAmount == receipt.money.total)
    }

    @Test("with no number left the payment is refused before any money is taken")
    func noNumbersNoMoney() async throws {
        let fixture = try await ShopFixture()
        let seller = try InvoiceSeller(businessNumber: "12345675", name: "店", address: "台北市",
                                       qrKey: try QRKey(hex: "0123456789abcdef0123456789abcdef"))
        try await fixture.shop.counter.setInvoiceSeller(InvoiceSetup(seller: seller, turnkey: nil), by: Self.ken)
        let placed = try await fixture.shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", Self.drink)]), by: Self.ken).order
        await #expect {
            _ = try await fixture.shop.counter.pay(.pickup(placed.order.pickupNumber), method: .card, tendered: nil, by: Self.ken)
        } throws: { error in
            guard case TillError.einvoice(.noNumbers(let period, _)) = error else { return false }
            return period == "11512" && "\(error)".contains("einvoice track 11512")
        }
        #expect(try await fixture.records(ShopSchema.paymentTable).isEmpty)
        #expect(try await fixture.records(ShopSchema.einvoiceTable).isEmpty)
    }

    @Test("over the API each counter claims a book of its own, kept in its outbox: numbers never meet, a restart goes on")
    func countersOverTheAPI() async throws {
        let fixture = try await ShopFixture()
        let api = OrderQueriesTests.OverTheAPI(underlying: fixture.base)
        let outboxA = Outbox(store: try LocalBase.inMemory(clock: fixture.clock.date), location: "a")
        let outboxB = Outbox(store: try LocalBase.inMemory(clock: fixture.clock.date), location: "b")
        try await outboxA.prepare()
        try await outboxB.prepare()
        let a = Shop(store: api, clock: fixture.clock.shopClock, outbox: outboxA)
        let b = Shop(store: api, clock: fixture.clock.shopClock, outbox: outboxB)
        try await Self.setUp(a.counter)
        var numbers: [InvoiceNumber] = []
        for _ in 0..<3 {
            async let one = Self.paidOrder(a, fixture)
            async let two = Self.paidOrder(b, fixture)
            let (first, second) = try await (one, two)
            numbers += [try #require(first.invoice).number, try #require(second.invoice).number]
        }
        #expect(Set(numbers).count == 6)
        let serials = Set(numbers.map { $0.serial / 50 })
        #expect(serials.count == 2, "each counter issues from its own book")
        // A restarted counter (a new process, the same outbox) takes the next number of its book.
        let again = Shop(store: api, clock: fixture.clock.shopClock, outbox: outboxA)
        let next = try #require(try await Self.paidOrder(again, fixture).invoice)
        let aNumbers = numbers.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        #expect(next.number.serial == (aNumbers.map(\.serial).max() ?? 0) + 1)
        let books = try await fixture.records(ShopSchema.invoiceBookTable)
        #expect(books.count == 2)
    }

    @Test("counters claiming books at the same instant (creation times that tie) use up no book between them: four counters, four books, each gets one")
    func tiedClaimsBurnNoBook() async throws {
        for _ in 0..<3 {
            let fixture = try await ShopFixture()
            let api = OrderQueriesTests.OverTheAPI(underlying: fixture.base)
            var shops: [Shop] = []
            for index in 0..<4 {
                shops.append(try await fixture.counter(over: api, location: "c\(index)"))
            }
            try await Self.setUp(shops[0].counter, range: "11512 AB 12345000-12345199")
            let invoices = try await withThrowingTaskGroup(of: IssuedInvoice?.self) { group in
                for shop in shops { group.addTask { try await Self.paidOrder(shop, fixture).invoice } }
                return try await group.reduce(into: [IssuedInvoice?]()) { $0.append($1) }
            }
            #expect(invoices.compactMap { $0 }.count == 4, "every counter issued: \(invoices.map { $0?.number.printed ?? "none" })")
            #expect(Set(invoices.compactMap { $0?.number.serial }.map { $0 / 50 }).count == 4)
            #expect(try await fixture.records(ShopSchema.invoiceBookTable).count == 4)
        }
    }

    @Test("six counters on one store printing one proof at the same instant: one original, five 補印, six counted")
    func oneOriginalProof() async throws {
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter)
        let receipt = try await Self.paidOrder(fixture.shop, fixture)
        let onReceipt = try #require(try await fixture.shop.counter.invoiceOnReceipt(of: receipt.order))
        #expect(onReceipt.proof?.isReprint == false)
        let counters = (0..<6).map { _ in fixture.secondCounter().counter }
        let proofs = try await withThrowingTaskGroup(of: InvoiceProof?.self) { group in
            for counter in counters { group.addTask { try await counter.proofToPrint(onReceipt) } }
            return try await group.reduce(into: [InvoiceProof?]()) { $0.append($1) }
        }
        #expect(proofs.compactMap { $0 }.count == 6)
        #expect(proofs.filter { $0?.isReprint == false }.count == 1)
        let counted = try await fixture.shop.counter.invoicesOf(receipt.order)
        #expect(counted.first?.proofPrints == 6)
        // A carrier's invoice prints no proof and counts nothing.
        let carried = try await Self.paidOrder(fixture.shop, fixture, details: .mobileBarcode("/ABC1234"))
        let carriedOnReceipt = try #require(try await fixture.shop.counter.invoiceOnReceipt(of: carried.order))
        #expect(try await fixture.shop.counter.proofToPrint(carriedOnReceipt) == nil)
        #expect(try await fixture.shop.counter.invoicesOf(carried.order).first?.proofPrints == 0)
    }

    @Test("six counters over the API printing one proof at the same instant, their claims' creation times all tied: one original, five 補印")
    func oneOriginalProofOverTheAPI() async throws {
        for _ in 0..<3 {
            let fixture = try await ShopFixture()
            let api = OrderQueriesTests.OverTheAPI(underlying: fixture.base)
            var shops: [Shop] = []
            for index in 0..<6 { shops.append(try await fixture.counter(over: api, location: "c\(index)")) }
            try await Self.setUp(shops[0].counter)
            let receipt = try await Self.paidOrder(shops[0], fixture)
            let onReceipt = try #require(try await shops[0].counter.invoiceOnReceipt(of: receipt.order))
            let proofs = try await withThrowingTaskGroup(of: InvoiceProof?.self) { group in
                for shop in shops { group.addTask { try await shop.counter.proofToPrint(onReceipt) } }
                return try await group.reduce(into: [InvoiceProof?]()) { $0.append($1) }
            }
            #expect(proofs.compactMap { $0 }.count == 6)
            #expect(proofs.filter { $0?.isReprint == false }.count == 1, "\(proofs.map { $0?.isReprint })")
            #expect(try await fixture.records(ShopSchema.proofPrintTable).count == 1)
            #expect(try await shops[2].counter.proofToPrint(onReceipt)?.isReprint == true)
        }
    }

    @Test("an invoice the store could not take after the payment is issued by the counter at its next payment, once; an order voided meanwhile gets none")
    func owedInvoiceIssuedAtTheNextPayment() async throws {
        let fixture = try await ShopFixture()
        let store = CountingStore(fixture.base)
        let shop = try await fixture.counter(over: store, location: "a")
        try await Self.setUp(shop.counter)
        let away = AirtableError.transport("the server went away for the test")
        store.refuse("GET EInvoice", with: away)
        let first = try await Self.paidOrder(shop, fixture)
        #expect(first.invoice == nil && first.invoiceProblem != nil && first.money.due == 0)
        let second = try await Self.paidOrder(shop, fixture)
        #expect(second.lateInvoices.map(\.orderRef) == [first.order.orderRef])
        #expect(second.invoice != nil)
        let third = try await Self.paidOrder(shop, fixture)
        #expect(third.lateInvoices.isEmpty)
        let records = try await fixture.records(ShopSchema.einvoiceTable)
        #expect(records.count == 3)
        #expect(Set(records.compactMap { $0.fields[EInvoiceField.orderRef]?.stringValue })
            == [first.order.orderRef, second.order.orderRef, third.order.orderRef])
        // Owed, then voided before the next payment: no invoice for it.
        store.refuse("GET EInvoice", with: away)
        let fourth = try await Self.paidOrder(shop, fixture)
        #expect(fourth.invoice == nil)
        _ = try await shop.counter.cancel(.pickup(fourth.order.order.pickupNumber), reason: "客人退貨", by: Self.ken)
        let fifth = try await Self.paidOrder(shop, fixture)
        #expect(fifth.lateInvoices.isEmpty && fifth.invoice != nil)
        #expect(try await shop.counter.invoicesOf(fourth.order).isEmpty)
    }

    @Test("over the API a payment that issues the invoice reads the order's till record once (its bill and invoice details both)")
    func invoicedPaymentReadsTheTillRecordOnce() async throws {
        let folder = try TemporaryDirectory()
        let fixture = try await ShopFixture()
        let store = CountingStore(fixture.base)
        let shop = try await fixture.counter(over: store, location: "a")
        try await Self.setUp(shop.counter, turnkey: folder.path)
        _ = try #require(try await Self.paidOrder(shop, fixture).invoice)  // the counter's book is claimed
        let placed = try await shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", Self.drink)]), by: Self.ken).order
        var receipt: Till.PaymentReceipt?
        let requests = try await store.requests {
            receipt = try await shop.counter.pay(.pickup(placed.order.pickupNumber), method: .card, tendered: nil, by: Self.ken)
        }
        #expect(receipt?.invoice != nil)
        // The payment's 4 (the order, its copy, the payment, the ledger read back), then the invoice's 4: the till
        // record, the order's live invoice, the record, and the note that its Turnkey file is written.
        #expect(requests.filter { $0 == "GET OrderTill" }.count == 1, "\(requests)")
        #expect(requests == ["GET OrderDrink", "PATCH OrderDrink", "PATCH TillPayment", "GET TillPayment",
                             "GET OrderTill", "GET EInvoice", "PATCH EInvoice", "PATCH EInvoice"], "\(requests)")
    }

    @Test("an invoice recorded by a write whose answer was lost gets its Turnkey file when it is next asked for")
    func recordWithoutItsFileGetsItLater() async throws {
        let folder = try TemporaryDirectory()
        let fixture = try await ShopFixture()
        let store = LosesOneAnswer(underlying: fixture.base, table: ShopSchema.einvoiceTable)
        let shop = try await fixture.counter(over: store, location: "a")
        try await Self.setUp(shop.counter, turnkey: folder.path)
        let first = try await Self.paidOrder(shop, fixture)
        #expect(first.invoice == nil && first.invoiceProblem != nil)
        let recorded = try #require(try await fixture.records(ShopSchema.einvoiceTable).first)
        let number = try #require(recorded.fields[EInvoiceField.number]?.stringValue)
        let file = folder.path + "/UpCast/B2SSTORAGE/F0401/SRC/F0401_\(number).xml"
        #expect(!FileManager.default.fileExists(atPath: file))
        _ = try await Self.paidOrder(shop, fixture)  // the owed invoice is asked for again: found recorded
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(try await fixture.records(ShopSchema.einvoiceTable).count == 2)
    }

    @Test("a void inside the period voids the invoice (F0501); after the cut-off it is an allowance (G0401); each written once")
    func voidsAndAllowances() async throws {
        let folder = try TemporaryDirectory()
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter, turnkey: folder.path)
        let first = try await Self.paidOrder(fixture.shop, fixture)
        let second = try await Self.paidOrder(fixture.shop, fixture)
        let voided = try await fixture.shop.counter.cancel(.pickup(first.order.order.pickupNumber), reason: "客人退貨", by: Self.ken)
        #expect(voided.invoices.map(\.settlement) == [.void])
        let f0501 = folder.path + "/UpCast/B2SSTORAGE/F0501/SRC/F0501_\(try #require(first.invoice).number.text).xml"
        #expect(FileManager.default.fileExists(atPath: f0501))
        _ = try await fixture.shop.counter.advance(.pickup(second.order.order.pickupNumber), by: Self.ken)
        // 2027-01-14, past the 13th: the Nov-Dec invoice can no longer be voided.
        fixture.clock.set(Date(timeIntervalSince1970: 1_799_899_200))
        let late = try await fixture.shop.counter.void(.onDay(second.order.order.pickupNumber, day: second.order.businessDay.description),
                                                       reason: "退貨", by: Self.ken)
        #expect(late.invoices.map(\.settlement) == [.allowance])
        let number = try #require(second.invoice).number.text
        #expect(FileManager.default.fileExists(atPath: folder.path + "/UpCast/B2SSTORAGE/G0401/SRC/G0401_AL\(number).xml"))
        let audit = try await fixture.records(ShopSchema.auditTable).compactMap { $0.fields[AuditField.detail]?.stringValue }
        #expect(audit.contains { $0.contains("voided (作廢, F0501)") })
        #expect(audit.contains { $0.contains("allowance AL\(number)") })
    }

    @Test("a record left without its file is repaired once; a file Turnkey already moved to BAK is never written again")
    func filesRepairedOnce() async throws {
        let folder = try TemporaryDirectory()
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter, turnkey: folder.path)
        let one = try #require(try await Self.paidOrder(fixture.shop, fixture).invoice)
        let two = try #require(try await Self.paidOrder(fixture.shop, fixture).invoice)
        let source = folder.path + "/UpCast/B2SSTORAGE/F0401/SRC/"
        // As if the process died after the record, before the file: both files gone, the records say none was written.
        for invoice in [one, two] {
            try FileManager.default.removeItem(atPath: source + "F0401_\(invoice.number.text).xml")
            _ = try await fixture.base.updateRecords(in: ShopSchema.einvoiceTable, [RecordUpdate(id: invoice.id, fields: Fields([EInvoiceField.issueFile: .null]))],
                                                     replace: false, options: WriteOptions())
        }
        // Turnkey had already sent the second one (its file is in BAK/yyyyMMdd/HH/).
        let sent = folder.path + "/UpCast/B2SSTORAGE/F0401/BAK/20261129/12"
        try FileManager.default.createDirectory(atPath: sent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: sent + "/F0401_\(two.number.text).xml", contents: Data("sent".utf8))
        let status = try await fixture.shop.counter.invoiceFiles(by: Self.ken)
        #expect(Set(status.repaired) == ["F0401_\(one.number.text).xml", "F0401_\(two.number.text).xml"])
        #expect(FileManager.default.fileExists(atPath: source + "F0401_\(one.number.text).xml"))
        #expect(!FileManager.default.fileExists(atPath: source + "F0401_\(two.number.text).xml"))
        #expect(try await fixture.shop.counter.invoiceFiles(by: Self.ken).repaired.isEmpty)
    }

    @Test("the QR key never reaches the audit trail")
    func keyHidden() async throws {
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter)
        let audit = try await fixture.records(ShopSchema.auditTable).map { "\($0.fields)" }.joined()
        #expect(!audit.lowercased().contains("0123456789abcdef"))
        #expect(audit.contains("set (hidden)"))
    }

    @Test("an overlapping range is refused and changes nothing")
    func overlapRefused() async throws {
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter)
        await #expect(throws: TillError.self) {
            try await fixture.shop.counter.importInvoiceRange(try TrackRange(parsing: "11512 AB 12345050-12345149"), by: Self.ken)
        }
        #expect(try await fixture.records(ShopSchema.invoiceTrackTable).count == 1)
    }

    @Test("a payment retried after its answer was lost is refused as already paid, and issues the invoice the first one never did")
    func retriedPaymentIssuesTheMissedInvoice() async throws {
        let fixture = try await ShopFixture()
        try await Self.setUp(fixture.shop.counter)
        let receipt = try await Self.paidOrder(fixture.shop, fixture)
        let invoice = try #require(receipt.invoice)
        // As if the server died after the payment, before the invoice was recorded.
        _ = try await fixture.base.deleteRecords(in: ShopSchema.einvoiceTable, ids: [invoice.id])
        let number = OrderNumber.pickup(receipt.order.order.pickupNumber)
        await #expect(throws: TillError.self) {
            _ = try await fixture.shop.counter.pay(number, method: .card, tendered: nil, by: Self.ken)
        }
        let live = try await fixture.shop.invoices.invoices(ofOrder: receipt.order.orderRef).filter(\.isLive)
        #expect(live.count == 1)
        #expect(live.first?.amounts.totalAmount == receipt.money.total)
    }
}

/// Writes the first create or upsert of `table` and then answers it with a lost connection, as a server killed mid-answer.
private final class LosesOneAnswer: ForwardingRecordStore, @unchecked Sendable {
    let underlying: any RecordStore
    let table: String
    private let lost = Mutex(false)

    init(underlying: any RecordStore, table: String) {
        self.underlying = underlying
        self.table = table
    }

    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        let written = try await underlying.createRecords(in: table, records, options: options)
        if table == self.table, !lost.withLock({ was in defer { was = true }; return was }) {
            throw .transport("the server went away before its answer, for the test")
        }
        return written
    }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> UpsertResult
    {
        let written = try await underlying.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
        if table == self.table, !lost.withLock({ was in defer { was = true }; return was }) {
            throw .transport("the server went away before its answer, for the test")
        }
        return written
    }
}
