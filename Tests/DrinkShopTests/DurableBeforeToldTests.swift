@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LocalBase
import Printing
import TestSupport
import Testing

/// On a base whose commits are made durable apart (a piped REPL's), nothing leaves the shop before what it tells of
/// is on the disk: a printout and a Turnkey file each wait for a WAL sync after the commit they come from.
@Suite struct DurableBeforeToldTests {
    static let ken = Acting("Ken", role: nil)

    @Test("a label printed and an invoice's F0401 file each wait for a sync of the commits before them")
    func printoutsAndFilesWaitForTheDisk() async throws {
        let folder = try TemporaryDirectory()
        let fixture = try await ShopFixture(path: folder.path + "/shop.sqlite")
        #expect(try await fixture.base.deferDurability())
        let labels = folder.path + "/labels.tspl"
        let shop = Shop(store: fixture.base, clock: fixture.clock.shopClock, printers: ShopPrinters(label: try PrinterSink(setting: labels)))
        let placed = try await shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", InvoiceDeskTests.drink)]), by: Self.ken).order
        #expect(fixture.base.durableSyncs == 0, "nothing told yet, nothing synced")
        _ = try await shop.printing.printLabels(forNewOrder: placed)
        #expect(fixture.base.durableSyncs == 1)
        #expect(FileManager.default.fileExists(atPath: labels))

        try await InvoiceDeskTests.setUp(shop.counter, turnkey: folder.path + "/turnkey")
        let receipt = try await shop.counter.pay(.pickup(placed.order.pickupNumber), method: .card, tendered: nil, by: Self.ken)
        let invoice = try #require(receipt.invoice)
        #expect(fixture.base.durableSyncs == 2, "the invoice's record synced before its file was written")
        let file = folder.path + "/turnkey/UpCast/B2SSTORAGE/F0401/SRC/F0401_\(invoice.number.text).xml"
        #expect(FileManager.default.fileExists(atPath: file))
    }
}
