import Airtable
@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LocalBase
import TestSupport
import Testing

/// A period's invoices leave the base for the archive once its blank numbers are reported (a Team base holds 50,000
/// records; a 300-order shop issues about 18,000 invoices a period), with their proofs' print claims; reads, the
/// books and a 補印 work as before; the blank numbers are never reported again.
@Suite struct InvoiceArchiveTests {
    static let ken = InvoiceDeskTests.ken

    @Test("a reported period's invoices and print claims move to the archive; the report, the books and a reprint read them there",
          arguments: [false, true])
    func reportedPeriodMoves(overTheAPI: Bool) async throws {
        let folder = try TemporaryDirectory()
        let fixture = try await ShopFixture()
        let archive = DayArchive(store: try LocalBase.inMemory(clock: fixture.clock.date), location: "archive")
        let shop: Shop
        if overTheAPI {
            let outbox = Outbox(store: try LocalBase.inMemory(clock: fixture.clock.date), location: "a")
            try await outbox.prepare()
            shop = Shop(store: OrderQueriesTests.OverTheAPI(underlying: fixture.base), clock: fixture.clock.shopClock, outbox: outbox,
                        archive: archive)
        } else {
            shop = Shop(store: fixture.base, clock: fixture.clock.shopClock, archive: archive)
        }
        try await InvoiceDeskTests.setUp(shop.counter, turnkey: folder.path)  // 11512 AB 12345000-12345099
        var receipts: [Till.PaymentReceipt] = []
        for _ in 0..<4 { receipts.append(try await InvoiceDeskTests.paidOrder(shop, fixture)) }
        let day = receipts[0].order.businessDay
        // Three are handed over; the fourth stays ready on the shelf, so its order and its invoice stay in the base.
        for receipt in receipts.prefix(3) {
            for _ in 0..<3 { _ = try await shop.counter.advance(.pickup(receipt.order.order.pickupNumber), by: Self.ken) }
        }
        let printed = try #require(receipts[0].invoice)
        #expect(try await shop.invoices.claimProofPrint(printed) == 0, "the original")
        #expect(try await fixture.records(ShopSchema.proofPrintTable).count == 1)

        fixture.clock.set(Date(timeIntervalSince1970: 1_799_899_200))  // 2027-01-14: the period is over
        let period = try #require(printed.book.period as InvoicePeriod?)
        #expect(try await shop.counter.archiveReportedInvoices(by: Self.ken).isEmpty, "blank numbers not reported yet: nothing moves")
        _ = try await shop.counter.archiveClosedDays(by: Self.ken)
        _ = try await shop.counter.reportBlankNumbers(period: period, by: Self.ken)
        let moved = try await shop.counter.archiveReportedInvoices(by: Self.ken)
        #expect(moved == [DayArchiver.InvoiceReport(period: period.code, invoices: 3, proofPrints: 1, kept: 1)])
        let left = try await fixture.records(ShopSchema.einvoiceTable)
        #expect(left.map { $0.fields[EInvoiceField.orderRef]?.stringValue } == [receipts[3].order.orderRef])
        #expect(try await fixture.records(ShopSchema.proofPrintTable).isEmpty)
        #expect(try await archive.store().allRecords(in: ShopSchema.einvoiceTable).count == 3)
        #expect(try await archive.store().allRecords(in: ShopSchema.proofPrintTable).count == 1)
        // Nothing moves twice; the invoice whose order is still open waits for it.
        #expect(try await shop.counter.archiveReportedInvoices(by: Self.ken).isEmpty)

        // Read as before, from the archive on this machine.
        let report = try #require(try await shop.counter.invoiceReport(days: [day]))
        #expect(report.days.issued.count == 4)
        let books = try await shop.books.check(try shop.till.period(from: day.description, to: day.description))
        #expect(books.differences.isEmpty, "\(books.differences)")
        #expect(books.invoices == 4)
        // A reprint of an archived invoice's proof is a 補印 and writes nothing.
        #expect(try await shop.invoices.claimProofPrint(printed) >= 1)
        #expect(try await fixture.records(ShopSchema.proofPrintTable).isEmpty)
        // An archived order is read, never changed: a void is refused in words before anything is written.
        let archivedNumber = OrderNumber.onDay(receipts[0].order.order.pickupNumber, day: day.description)
        await #expect {
            _ = try await shop.counter.void(archivedNumber, reason: "退貨", by: Self.ken)
        } throws: { error in
            guard case TillError.shop(.archivedOrder) = error else { return false }
            return "\(error)".contains("moved to the archive with its day")
        }
        #expect(try await archive.store().allRecords(in: ShopSchema.paymentTable).filter { $0.fields["kind"]?.stringValue == "refund" }.isEmpty)
        #expect(try await fixture.records(ShopSchema.paymentTable).filter { $0.fields["kind"]?.stringValue == "refund" }.isEmpty)
        // The blank numbers are not reported again (the archived numbers would be called blank where it is not read).
        await #expect(throws: TillError.self) { _ = try await shop.counter.reportBlankNumbers(period: period, by: Self.ken) }
    }
}
