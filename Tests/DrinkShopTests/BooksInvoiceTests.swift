import Airtable
@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import Testing

/// The books check of a shop that issues 統一發票: every paid order has one live invoice for its bill, a paid order
/// cancelled or voided none, and a claimed book has no unused number below its last one; each record changed by
/// hand behind the till's back is named, with what to do.
@Suite struct BooksInvoiceTests {
    let amy = Acting("Amy", role: .manager)
    let ken = Acting("Ken", role: .staff)

    /// A shop with a seller and the range AB 12345000-12345099 of the test clock's period (2026-11-29: 11512); a
    /// shift open, orders #1..#3 placed and paid in full (three invoices issued), #4 placed, paid and voided.
    private func aDay() async throws -> ShopFixture {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setInvoiceSeller(InvoiceSetup(seller: try InvoiceSeller(businessNumber: "12345675", name: "可不可熟成紅茶台北店",
                                                                                  address: "台北市中正區忠孝西路一段1號",
                                                                                  qrKey: try QRKey(hex: "0123456789abcdef0123456789abcdef")),
                                                        turnkey: nil), by: amy)
        try await counter.importInvoiceRange(try TrackRange(parsing: "11512 AB 12345000-12345099"), by: amy)
        _ = try await counter.openShift(float: 500, by: amy)
        for number in 1...4 {
            fixture.clock.advance(by: 60)
            _ = try await counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                        by: ken)
            _ = try await counter.pay(.pickup(number), method: .cash, tendered: nil, by: ken)
        }
        fixture.clock.advance(by: 60)
        _ = try await counter.advance(.pickup(4), by: ken)
        _ = try await counter.void(.pickup(4), reason: "spilled", by: amy)
        fixture.clock.advance(by: 60)
        return fixture
    }

    private func check(_ fixture: ShopFixture) async throws -> BooksCheck {
        try await fixture.shop.books.check(try fixture.shop.till.period(from: "today", to: "today"))
    }

    private func invoice(_ fixture: ShopFixture, order number: Int) async throws -> Record {
        let ref = try await fixture.shop.orders.find(.pickup(number)).orderRef
        return try #require(try await fixture.records("EInvoice").first { $0.fields["orderRef"]?.stringValue == ref })
    }

    @Test func paidOrdersEachWithTheirInvoiceBalance() async throws {
        let fixture = try await aDay()
        let books = try await check(fixture)
        #expect(books.differences == [])
        #expect(books.invoices == 4)
        #expect(books.summary == "The books of 2026-11-29 balance: 4 orders, 4 payments, 1 refund, 0 drawer counts, 4 invoices checked.")
        #expect(try await fixture.records("EInvoice").filter { $0.fields["state"]?.stringValue == "voided" }.count == 1)
    }

    @Test func anInvoiceRecordDeletedByHandIsNamedWithItsNumber() async throws {
        let fixture = try await aDay()
        let record = try await invoice(fixture, order: 2)
        _ = try await fixture.base.deleteRecords(in: "EInvoice", ids: [record.id])
        let books = try await check(fixture)
        let total = try await fixture.shop.orders.find(.pickup(2)).order.total
        let number = try InvoiceNumber(parsing: record.fields["number"]?.stringValue ?? "").printed
        #expect(books.differences == [.invoiceMissing(.pickup(2), total: total),
                                      .invoiceNumbersUnused(book: "11512AB12345000", numbers: number)])
        #expect(books.differences.first?.description.contains("einvoice issue #2") == true)
        #expect(books.differences.last?.description.contains("einvoice blanks") == true)
    }

    @Test func aVoidedOrderWhoseInvoiceIsStillLiveIsNamed() async throws {
        let fixture = try await aDay()
        let record = try await invoice(fixture, order: 4)
        _ = try await fixture.base.updateRecords(in: "EInvoice", [RecordUpdate(id: record.id, fields: ["state": "issued"])],
                                                 replace: false, options: WriteOptions())
        let books = try await check(fixture)
        let number = try InvoiceNumber(parsing: record.fields["number"]?.stringValue ?? "").printed
        #expect(books.differences == [.invoiceLiveOnCancelled(.pickup(4), invoice: number, voided: true)])
        #expect(books.differences.first?.description.contains("已取消發票未作廢") == true)
    }

    @Test func anInvoiceForAnotherAmountIsNamed() async throws {
        let fixture = try await aDay()
        let record = try await invoice(fixture, order: 1)
        let total = try await fixture.shop.orders.find(.pickup(1)).order.total
        // The items written by hand for $10 more than the bill (the amounts are read back from the items).
        let lines = JSONWriter.string(.array([.object(["description": "熟成紅茶 M", "quantity": 1, "amount": .int(total + 10)])]))
        _ = try await fixture.base.updateRecords(in: "EInvoice", [RecordUpdate(id: record.id, fields: [
            "lines": .string(lines), "totalAmount": .int(total + 10), "salesAmount": .int(total + 10),
        ])], replace: false, options: WriteOptions())
        let books = try await check(fixture)
        let number = try InvoiceNumber(parsing: record.fields["number"]?.stringValue ?? "").printed
        #expect(books.differences == [.invoiceAmountDiffers(.pickup(1), invoice: number, amount: total + 10, bill: total)])
    }

    @Test func aShopWithoutASellerChecksNoInvoice() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.counter.openShift(float: 500, by: amy)
        _ = try await fixture.shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                 by: ken)
        _ = try await fixture.shop.counter.pay(.pickup(1), method: .cash, tendered: nil, by: ken)
        let books = try await check(fixture)
        #expect(books.balances && books.invoices == 0)
        #expect(try await fixture.records("EInvoice").isEmpty)
    }
}
