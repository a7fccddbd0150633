@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import LineEditor
@testable import ShopREPL
import Testing

/// `report`'s invoices (統一發票) at the counter, as text within 60 columns and as JSON; nothing of them for a shop
/// without a seller; and the warning every counter shows when fewer numbers are left than a day's sales.
@Suite(.timeLimit(.minutes(3))) struct InvoiceReportAtTheCounterTests {
    private static let manager = Acting("Mia", role: .manager)

    private func invoicing(_ counter: Counter, range: String) async throws {
        let shop = counter.interpreter.shop
        let seller = try InvoiceSeller(businessNumber: "12345675", name: "可不可熟成紅茶台北店", address: "台北市信義區松仁路 1 號",
                                       qrKey: QRKey(hex: "0123456789ABCDEF0123456789ABCDEF"))
        try await shop.counter.setInvoiceSeller(InvoiceSetup(seller: seller, turnkey: nil), by: Self.manager)
        try await shop.counter.importInvoiceRange(try TrackRange(parsing: range), by: Self.manager)
    }

    @Test func theReportShowsTheDaysAndThePeriodsInvoicesThatAddUp() async throws {
        let counter = try await Counter()
        try await invoicing(counter, range: "11512 AB 12345000-12345099")
        // #1 $35 and #2 $40 paid; #1 voided the same day.
        #expect(await counter.run("order 熟成紅茶 M 無糖 去冰", "pay #1 card", "order 熟成紅茶 L 無糖 去冰", "pay #2 card",
                                  "cancel #1 spilled") == [.succeeded, .succeeded, .succeeded, .succeeded, .succeeded])
        #expect(counter.output.errors.isEmpty, "\(counter.output.errors)")
        #expect(await counter.run("report") == [.succeeded])
        let text = counter.output.text
        let section = try #require(text.range(of: "Invoices (統一發票)").map { String(text[$0.lowerBound...]) })
        let rows = section.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.contains(["Issued", "2", "75", "2", "75"]))
        #expect(rows.contains(["-", "voided", "(作廢)", "1", "35", "1", "35"]))
        #expect(rows.contains(["-", "allowances", "(折讓)", "0", "0", "0", "0"]))
        #expect(rows.contains(["=", "net", "1", "40", "1", "40"]))
        #expect(section.contains("issued - voided - allowances"))
        #expect(section.contains("(11512): 98 numbers left"))

        #expect(await counter.run("report --json") == [.succeeded])
        let json = try #require(counter.output.text.split(separator: "\n").last.map(String.init))
        #expect(json.contains(#""invoices":{"days":{"issued":{"count":2,"amount":75},"voided":{"count":1,"amount":35},"#
            + #""allowances":{"count":0,"amount":0},"net":{"count":1,"amount":40}},"period":{"code":"11512","#))
        #expect(json.contains(#""numbersLeft":98,"blanksReported":0,"blanksToReport":0,"over":false}}"#))

        let door = counter.interpreter.shop.counter
        let shown = InvoiceReportView.render(try #require(try await door.invoiceReport(days: [counter.interpreter.shop.clock.today])),
                                             oneDay: true, style: .plain, width: 60)
        for line in shown.split(separator: "\n") { #expect(DisplayWidth.of(line) <= 60, "\(line)") }
    }

    @Test func einvoiceStatusListsTheFilesWaitingAndTheInvoicesKeptAtThisCounter() async throws {
        let counter = try await Counter()
        let turnkey = FileManager.default.temporaryDirectory.appendingPathComponent("status-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: turnkey) }
        #expect(await counter.run("einvoice seller 12345675 可不可熟成紅茶台北店 --address 台北市 --qr-key 0123456789abcdef0123456789abcdef "
                                  + "--turnkey \(turnkey)", "einvoice track 11512 AB 12345000-12345099",
                                  "order 熟成紅茶 M 無糖 去冰", "pay #1 card", "einvoice status") == Array(repeating: .succeeded, count: 5))
        #expect(counter.output.text.contains("1 file waiting for Turnkey (待上傳):\n  F0401_AB12345000.xml"), "\(counter.output.text)")

        // A counter over the API lists what it issued while the store was away and still keeps: over a day, a warning.
        let now = Date()
        var status = InvoiceDesk.FilesStatus(repaired: [], unwritten: [], waiting: [], refused: [], nearLimit: [], hasFolder: true)
        status.keptHere = [InvoiceDesk.KeptInvoice(number: "AB-12345001", order: "#A-P1", issuedAt: now.addingTimeInterval(-3600)),
                           InvoiceDesk.KeptInvoice(number: "AB-12345002", order: "#A-P2", issuedAt: now.addingTimeInterval(-30 * 3600))]
        let lines = ShopInterpreter.filesView(status, style: .plain, now: now).split(separator: "\n").map(String.init)
        #expect(lines[0].contains("#A-P1") && lines[0].contains("AB-12345001") && !lines[0].contains("上傳期限"))
        #expect(lines[1].contains("#A-P2") && lines[1].contains("AB-12345002") && lines[1].contains("上傳期限 2 日"))
    }

    @Test func aShopWithoutASellerSeesTheReportUnchanged() async throws {
        let counter = try await Counter()
        #expect(await counter.run("order 熟成紅茶 M 無糖 去冰", "pay #1 card", "report", "report --json")
            == [.succeeded, .succeeded, .succeeded, .succeeded])
        #expect(!counter.output.text.contains("統一發票"))
        #expect(!counter.output.text.contains("\"invoices\""))
        #expect(!counter.output.text.contains("invoice numbers left"))
    }

    @Test func theLowNumbersWarningShowsOnceWhenAPaymentCrossesADaysSalesAndAtStart() async throws {
        let counter = try await Counter()
        try await invoicing(counter, range: "11512 AB 12345000-12345049")
        await counter.interpreter.warnIfInvoiceNumbersLow(atStart: true)
        #expect(!counter.output.text.contains("invoice numbers left"))  // 50 left, none issued today
        for number in 1...25 { await counter.run("order 熟成紅茶 M 無糖 去冰", "pay #\(number) card") }
        // 25 left, 25 issued today: not fewer than a day's sales.
        #expect(!counter.output.text.contains("invoice numbers left"))
        // The look at start, and one when the first payment opened the book: the rest counted on from it.
        #expect(counter.interpreter.invoiceNumbersLooks == 2)
        await counter.run("order 熟成紅茶 M 無糖 去冰", "pay #26 card")
        #expect(counter.output.text.contains("Only 24 invoice numbers left for 11512"))
        #expect(counter.output.text.contains("einvoice track 11512 <track> <from>-<to>"))
        #expect(counter.interpreter.invoiceNumbersLooks == 3)  // the count crossed the line: the store asked
        await counter.run("order 熟成紅茶 M 無糖 去冰", "pay #27 card")
        #expect(counter.output.text.components(separatedBy: "invoice numbers left").count == 2)  // once, not after each sale
        #expect(counter.interpreter.invoiceNumbersLooks == 3)  // already warned: not asked again
        await counter.interpreter.warnIfInvoiceNumbersLow(atStart: true)
        #expect(counter.output.text.contains("Only 23 invoice numbers left for 11512"))
        #expect(await counter.run("einvoice tracks") == [.succeeded])
        #expect(counter.output.text.components(separatedBy: "invoice numbers left").count == 4)
    }
}
