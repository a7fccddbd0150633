import Airtable
@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LocalBase
import TestSupport
import Testing

/// `report`'s invoices (issued, voided, allowances, numbers left, blank numbers) and the numbers a counter has left
/// against a day's sales.
@Suite struct InvoiceReportTests {
    static let ken = InvoiceDeskTests.ken
    static let medium: [DrinkOption] = [.size(.medium), .sugar(.free), .ice(.iceFree)]
    static let large: [DrinkOption] = [.size(.large), .sugar(.free), .ice(.iceFree)]

    static func paid(_ fixture: ShopFixture, _ options: [DrinkOption]) async throws -> Till.PaymentReceipt {
        let placed = try await fixture.shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", options)]), by: ken).order
        return try await fixture.shop.counter.pay(.pickup(placed.order.pickupNumber), method: .card, tendered: nil, by: ken)
    }

    @Test("the day's and the period's invoices: issued, voided, allowances and net add up; numbers left; blank numbers")
    func figuresAddUp() async throws {
        let folder = try TemporaryDirectory()
        let fixture = try await ShopFixture()
        try await InvoiceDeskTests.setUp(fixture.shop.counter, turnkey: folder.path)  // 11512 AB 12345000-12345099
        let voided = try await Self.paid(fixture, Self.medium)  // $35, voided the same day
        let allowed = try await Self.paid(fixture, Self.large)  // $40, returned after the cut-off: an allowance
        let live = try await Self.paid(fixture, Self.medium)  // $35, stays
        #expect([voided, allowed, live].map(\.money.total) == [35, 40, 35])
        _ = try await fixture.shop.counter.cancel(.pickup(voided.order.order.pickupNumber), reason: "客人退貨", by: Self.ken)
        let day = voided.order.businessDay
        let before = try #require(try await fixture.shop.counter.invoiceReport(days: [day]))
        #expect(before.days.issued == .init(count: 3, amount: 110))
        #expect(before.days.voided == .init(count: 1, amount: 35))
        #expect(before.days.allowances == .init(count: 0, amount: 0))
        #expect(before.days.net == .init(count: 2, amount: 75))
        #expect(before.left == 97)  // 100 imported, 3 issued (the voided number is used too)
        #expect(!before.periodOver && before.blanksToReport == 0)

        _ = try await fixture.shop.counter.advance(.pickup(allowed.order.order.pickupNumber), by: Self.ken)
        fixture.clock.set(Date(timeIntervalSince1970: 1_799_899_200))  // 2027-01-14: past the Nov-Dec cut-off
        _ = try await fixture.shop.counter.void(.onDay(allowed.order.order.pickupNumber, day: day.description), reason: "退貨",
                                                by: Self.ken)
        let after = try #require(try await fixture.shop.counter.invoiceReport(days: [day]))
        for tally in [after.days, after.inPeriod] {
            #expect(tally.issued == .init(count: 3, amount: 110))
            #expect(tally.voided == .init(count: 1, amount: 35))
            #expect(tally.allowances == .init(count: 1, amount: 40))
            #expect(tally.net == .init(count: 1, amount: 35))
        }
        #expect(after.period.code == "11512")
        #expect(after.periodOver)
        #expect(after.blanksReported == 0 && after.blanksToReport == 97)  // 47 of the first book, the second's 50

        _ = try await fixture.shop.counter.reportBlankNumbers(period: after.period, by: Self.ken)
        let reported = try #require(try await fixture.shop.counter.invoiceReport(days: [day]))
        #expect(reported.blanksReported == 97 && reported.blanksToReport == 0)
    }

    @Test("a shop without a seller has no invoice section and reads nothing for it")
    func noSellerNoSection() async throws {
        let fixture = try await ShopFixture()
        let store = CountingStore(fixture.base)
        let shop = Shop(store: store, clock: fixture.clock.shopClock)
        _ = try await shop.counter.invoiceSetup()  // the settings, read once as a counter reads them at its start
        let before = store.requests
        #expect(try await shop.counter.invoiceReport(days: [shop.clock.today]) == nil)
        #expect(try await shop.counter.invoiceNumbersLeft() == nil)
        let requests = Array(store.requestLog.dropFirst(before))
        // At most the settings again (kept for a while by the counter), never an invoice table.
        #expect(requests.allSatisfy { $0.hasSuffix(" " + ShopSchema.settingTable) }, "\(requests)")
        #expect(requests.count <= 2, "\(requests)")
    }

    @Test("over the API a counter counts the free books and its own book's rest (the others' books are used), in three listings")
    func overTheAPIOwnBookAndFreeBooks() async throws {
        let fixture = try await ShopFixture()
        let api = OrderQueriesTests.OverTheAPI(underlying: fixture.base)
        let counting = CountingStore(api)
        let a = try await fixture.counter(over: counting, location: "a")
        let b = try await fixture.counter(over: api, location: "b")
        try await InvoiceDeskTests.setUp(a.counter, range: "11512 AB 12345000-12345149")  // three books
        for _ in 0..<3 { _ = try #require(try await InvoiceDeskTests.paidOrder(a, fixture).invoice) }
        for _ in 0..<2 { _ = try #require(try await InvoiceDeskTests.paidOrder(b, fixture).invoice) }
        let before = counting.requests
        let leftA = try #require(try await a.counter.invoiceNumbersLeft())
        let requests = Array(counting.requestLog.dropFirst(before))
        #expect(leftA.left == 50 + 47 && leftA.issuedToday == 5)  // the free third book and the rest of its own
        #expect(try await b.counter.invoiceNumbersLeft()?.left == 50 + 48)
        #expect(requests.sorted() == ["GET \(ShopSchema.einvoiceTable)", "GET \(ShopSchema.invoiceBookTable)",
                                      "GET \(ShopSchema.invoiceTrackTable)"].sorted(), "\(requests)")
    }

    @Test("the numbers left are low below a day's sales, not above; on the embedded store the shared books' rest counts")
    func lowBelowADaysSales() async throws {
        let fixture = try await ShopFixture()
        try await InvoiceDeskTests.setUp(fixture.shop.counter, range: "11512 AB 12345000-12345049")
        var left = try #require(try await fixture.shop.counter.invoiceNumbersLeft())
        #expect(left.left == 50 && left.issuedToday == 0 && !left.isLow)
        for _ in 0..<25 { _ = try await Self.paid(fixture, Self.medium) }
        left = try #require(try await fixture.shop.counter.invoiceNumbersLeft())
        #expect(left.left == 25 && left.issuedToday == 25 && !left.isLow)
        _ = try await Self.paid(fixture, Self.medium)
        left = try #require(try await fixture.shop.counter.invoiceNumbersLeft())
        #expect(left.left == 24 && left.issuedToday == 26 && left.isLow)
        // The next range imported: no longer low.
        try await fixture.shop.counter.importInvoiceRange(try TrackRange(parsing: "11512 AB 12345050-12345099"), by: Self.ken)
        left = try #require(try await fixture.shop.counter.invoiceNumbersLeft())
        #expect(left.left == 74 && !left.isLow)
        #expect(InvoiceDesk.blankCount("none") == 0)
        #expect(InvoiceDesk.blankCount("00000012-00000049,00000051-00000051") == 39)
    }
}
