@testable import DrinkShop
import DrinkShopCore
import EInvoice
import Foundation
import Printing
@testable import ShopREPL
import TestSupport
import Testing

/// The 電子發票證明聯 after the receipt: `receipt #N --preview` shows it, `receipt #N` prints it (the first print the
/// original, every later one 補印); a carrier's invoice prints none and the receipt says where it went.
@Suite(.timeLimit(.minutes(3))) struct InvoiceProofAtTheCounterTests {
    private static let manager = Acting("Mia", role: .manager)

    /// A counter whose shop issues invoices: a seller and this period's range AB 12345000-12345099.
    private func invoicingCounter(printers: ShopPrinters = ShopPrinters()) async throws -> (Counter, period: InvoicePeriod) {
        let counter = try await Counter(printers: printers)
        let shop = counter.interpreter.shop
        let seller = try InvoiceSeller(businessNumber: "12345675", name: "可不可熟成紅茶台北店", address: "台北市信義區松仁路 1 號",
                                       qrKey: QRKey(hex: "0123456789ABCDEF0123456789ABCDEF"))
        try await shop.counter.setInvoiceSeller(InvoiceSetup(seller: seller, turnkey: nil), by: Self.manager)
        let period = try shop.counter.invoices.currentPeriod()
        try await shop.counter.importInvoiceRange(try TrackRange(parsing: "\(period.code) AB 12345000-12345099"), by: Self.manager)
        return (counter, period)
    }

    /// The proof's text lines, read from its ESC/POS bytes up to the barcode (`GS k`): the Big5 text, commands left out.
    private func proofText(_ bytes: [UInt8]) throws -> String {
        let barcode = bytes.indices.first { bytes[$0] == 0x1D && $0 + 1 < bytes.count && bytes[$0 + 1] == 0x6B } ?? bytes.endIndex
        var text: [UInt8] = []
        var index = bytes.startIndex
        while index < barcode {
            let byte = bytes[index]
            if byte == 0x1B || byte == 0x1D {  // ESC/GS and their one-byte function and argument (ESC !, GS !, ESC a …)
                index += 3
                continue
            }
            if byte >= 0x20 || byte == 0x0A { text.append(byte) }
            index += 1
        }
        return try #require(Big5.decode(text))
    }

    @Test func thePreviewShowsTheProofAndEachPrintAfterTheFirstSaysReprint() async throws {
        let printer = try FakePrinter()
        defer { printer.stop() }
        let (counter, period) = try await invoicingCounter(
            printers: ShopPrinters(receipt: try PrinterSink(setting: "tcp://127.0.0.1:\(printer.port)")))
        #expect(await counter.run("order 熟成紅茶 M 無糖 去冰", "pay #1 card") == [.succeeded, .succeeded])
        let invoices = try await counter.interpreter.shop.counter.invoicesOf(try await counter.interpreter.shop.orders.find(.pickup(1)))
        let invoice = try #require(invoices.first)
        let number = invoice.number.printed
        #expect(invoice.number.text.hasPrefix("AB12345"))
        let barcode = period.code + invoice.number.text + invoice.randomCode.description
        #expect(barcode.count == 19)

        #expect(await counter.run("receipt #1 --preview", "receipt #1 --preview") == [.succeeded, .succeeded])
        let preview = counter.output.text
        #expect(preview.contains("發票 \(number)"))
        #expect(preview.contains("電 子 發 票 證 明 聯"))  // large: spaced out to its printed width
        #expect(!preview.contains("補印"))  // a preview is never counted
        #expect(preview.contains("[Code 39] \(barcode)"))
        #expect(preview.contains("[QR left] \(invoice.number.text)"))
        #expect(preview.contains(number.map(String.init).joined(separator: " ")))

        #expect(await counter.run("receipt #1") == [.succeeded])
        let receipt = try #require(Big5.decode(await printer.nextJob().filter { $0 >= 0x20 || $0 == 0x0A }))
        #expect(receipt.contains("發票 \(number)"))
        let first = await printer.nextJob()
        let firstText = try proofText(first)
        #expect(firstText.contains("電子發票證明聯"))
        #expect(!firstText.contains("補印"))
        #expect(firstText.contains(number))
        #expect(first.contains(subsequence: Array(barcode.utf8)))
        #expect(counter.output.text.contains("Printed the proof of invoice \(number) on tcp://127.0.0.1:\(printer.port)"))

        #expect(await counter.run("receipt #1") == [.succeeded])
        _ = await printer.nextJob()
        let second = try proofText(await printer.nextJob())
        #expect(second.contains("電子發票證明聯補印"))
        #expect(second.contains(number))
        #expect(counter.output.text.contains("Printed the proof of invoice \(number) again (補印)"))
        let counted = try await counter.interpreter.shop.counter.invoicesOf(try await counter.interpreter.shop.orders.find(.pickup(1)))
        #expect(counted.first?.proofPrints == 2)

        await counter.run("receipt #1 --preview")
        #expect(counter.output.text.contains("電子發票證明聯補印"))
        #expect(counter.output.errors.isEmpty)
    }

    @Test func aCarrierInvoiceShowsWhereItWentAndNoProof() async throws {
        let (counter, _) = try await invoicingCounter()
        #expect(await counter.run("order 熟成紅茶 M 無糖 去冰", "invoice #1 /ABC1234", "pay #1 card")
            == [.succeeded, .succeeded, .succeeded])
        let invoice = try #require(try await counter.interpreter.shop.counter.invoicesOf(
            try await counter.interpreter.shop.orders.find(.pickup(1))).first)
        #expect(await counter.run("receipt #1 --preview") == [.succeeded])
        let text = counter.output.text
        #expect(text.contains("發票 \(invoice.number.printed) 存入載具 /ABC1234"))
        #expect(!text.contains("電子發票證明聯"))
        #expect(!text.contains("[Code 39]"))
        // No proof is sent either: with no receipt printer, the receipt alone is refused as before.
        #expect(await counter.run("receipt #1") == [.failed])
        #expect(counter.output.errors.contains("no receipt printer is set up"))
    }
}

private extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, count >= subsequence.count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
