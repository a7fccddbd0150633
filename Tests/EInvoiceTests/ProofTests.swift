import DrinkShopCore
import Printing
import Testing
@testable import EInvoice

@Suite struct ProofTests {
    @Test func theProofsLinesAreInTheReferencesOrder() throws {
        let invoice = try Fixtures.invoiceA()
        let proof = try #require(InvoiceProof(invoice: invoice, codes: Fixtures.codes(invoice)))
        #expect(proof.rows == [
            .text("範例熟成紅茶股份有限公司", .normal),
            .text("電子發票證明聯", .large),
            .text("115年11-12月", .large),
            .text("AB-12345678", .large),
            .text("2026-11-15 14:30:05", .normal),
            .text("隨機碼 1234   總計 150", .normal),
            .text("賣方 12345675", .normal),
            .barcode("11512AB123456781234"),
            .qrPair(left: "AB12345678115111512340000008f0000009600000000123456754d8eYao+OOg6n+opgLjW+Q==:**********:2:2:1:熟成紅茶(大):2:40",
                    right: "**雪花冷露(大):1:70"),
        ])
    }

    @Test func theProofsBytesDecodeBackToItsLinesBarcodeAndBothQRCodes() throws {
        let invoice = try Fixtures.invoiceA()
        let codes = try #require(InvoiceCodes(of: invoice))
        let job = try #require(InvoiceProof(invoice: invoice, codes: codes)).escPOS
        #expect(job.replacedCharacters.isEmpty)
        let printed = try ESCPOSReading(job.bytes)
        #expect(printed.lines == [
            .init(text: "範例熟成紅茶股份有限公司", size: 0x00), .init(text: "電子發票證明聯", size: 0x11),
            .init(text: "115年11-12月", size: 0x11), .init(text: "AB-12345678", size: 0x11),
            .init(text: "2026-11-15 14:30:05", size: 0x00), .init(text: "隨機碼 1234   總計 150", size: 0x00),
            .init(text: "賣方 12345675", size: 0x00), .init(text: "", size: 0x00),  // the feed after the barcode
        ])
        #expect(printed.code39 == ["11512AB123456781234"])
        #expect(printed.barcodeModuleWidth == 1)
        #expect(printed.qrCodes.map(\.content) == [codes.leftQR, codes.rightQR])
        // Side by side in one page, each placed by its lower left corner: the left code's 117 bytes make a
        // version 6 symbol (41 modules, 123 dots), the right code's 24 bytes a version 2 (25 modules, 75 dots), so
        // both tops are at 4 dots.
        #expect(printed.qrCodes.map(\.y) == [4 + 123, 4 + 75])
        #expect(printed.qrCodes.map(\.x) == [20, 212])
        #expect(printed.qrCodes.allSatisfy { $0.inPageMode && $0.moduleDots == 3 })
        #expect(printed.pagesPrinted == 1)
        // The largest code either side holds is a version 8 symbol, 147 dots: both fit the 384-dot head and the
        // 160-dot page.
        #expect(InvoiceProof.qrDots(byteCount: InvoiceCodes.qrByteLimit) == 147)
        #expect(InvoiceProof.qrRightX + 147 <= InvoiceProof.headDots && InvoiceProof.qrLeftX + 147 < InvoiceProof.qrRightX)
        #expect(InvoiceProof.qrTop + 147 <= InvoiceProof.qrPageHeight)
        #expect(printed.cut)
        #expect(job.bytes.prefix(2) == [0x1B, 0x40])
    }

    @Test func aCompanysProofSaysFormat25AndTheBuyer() throws {
        let invoice = try Fixtures.invoiceD()
        let proof = try #require(InvoiceProof(invoice: invoice, codes: Fixtures.codes(invoice)))
        #expect(proof.rows.contains(.text("2026-11-15 14:30:05 格式 25", .normal)))
        #expect(proof.rows.contains(.text("賣方 12345675  買方 04595257", .normal)))
        #expect(proof.rows.contains(.text("隨機碼 1234   總計 420", .normal)))
    }

    @Test func aReprintSays補印AndCarrierOrDonatedInvoicesPrintNoProof() throws {
        let invoice = try Fixtures.invoiceA()
        let codes = try #require(InvoiceCodes(of: invoice))
        let reprint = try #require(InvoiceProof(invoice: invoice, codes: codes, reprint: true))
        #expect(reprint.rows[1] == .text("電子發票證明聯補印", .tall))  // 18 columns: too wide to double both ways
        let decoded = try ESCPOSReading(reprint.escPOS.bytes)
        #expect(decoded.lines[1] == .init(text: "電子發票證明聯補印", size: 0x01))
        let carried = try Fixtures.invoiceA(recipient: .carrier(.mobileBarcode("/ABC+123")))
        #expect(InvoiceProof(invoice: carried, codes: try Fixtures.codes(carried)) == nil)
        let donated = try Fixtures.invoiceA(recipient: .donation("25885"))
        #expect(InvoiceProof(invoice: donated, codes: try Fixtures.codes(donated)) == nil)
    }

    @Test func thePreviewWritesTheBarcodeAndQRContentsOut() throws {
        let invoice = try Fixtures.invoiceA()
        let codes = try #require(InvoiceCodes(of: invoice))
        let preview = try #require(InvoiceProof(invoice: invoice, codes: codes, reprint: true)).preview
        let lines = preview.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("電子發票證明聯補印") })
        #expect(lines.contains { $0.hasSuffix("A B - 1 2 3 4 5 6 7 8") })
        #expect(lines.contains("[Code 39] 11512AB123456781234"))
        #expect(lines.contains("[QR left] " + codes.leftQR))
        #expect(lines.contains("[QR right] **雪花冷露(大):1:70"))
        #expect(lines.allSatisfy { !$0.hasPrefix("[") ? Big5.columns($0) <= InvoiceProof.columns : true })
    }

    @Test func aShopNameWithEscapesCannotCommandThePrinter() throws {
        let seller = try InvoiceSeller(businessNumber: "12345675", name: "茶\u{1D}V\u{1}店", address: "台北",
                                       qrKey: QRKey(hex: Fixtures.keyHex))
        let invoice = try EInvoice(number: InvoiceNumber(parsing: "AB12345678"), from: Fixtures.book(), issued: Fixtures.issued,
                                   seller: seller, recipient: .printed, lines: Fixtures.twoDrinks, paid: 150,
                                   randomCode: RandomCode(parsing: "1234"))
        let job = try #require(InvoiceProof(invoice: invoice, codes: Fixtures.codes(invoice))).escPOS
        let decoded = try ESCPOSReading(job.bytes)
        #expect(decoded.lines.first?.text == "茶?V?店")
        #expect(decoded.cut)
    }
}

/// Reads the ESC/POS this module writes back into what the printer would do, refusing any command it does not
/// know (so a stray byte in a line is caught).
struct ESCPOSReading {
    struct Line: Equatable { var text: String; var size: UInt8 }
    struct QR { var content: String; var x: Int; var y: Int; var moduleDots: UInt8; var inPageMode: Bool }
    struct Unknown: Error, CustomStringConvertible { var description: String }

    var lines: [Line] = []
    var code39: [String] = []
    var barcodeModuleWidth: UInt8 = 0
    var qrCodes: [QR] = []
    var pagesPrinted = 0
    var cut = false

    init(_ bytes: [UInt8]) throws {
        var index = 0
        var size: UInt8 = 0
        var text: [UInt8] = []
        var pageMode = false
        var x = 0, y = 0
        var stored = ""
        var moduleDots: UInt8 = 0
        func take(_ count: Int) throws -> [UInt8] {
            guard index + count <= bytes.count else { throw Unknown(description: "truncated at \(index)") }
            defer { index += count }
            return Array(bytes[index..<index + count])
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case 0x0A:
                lines.append(Line(text: Big5.decode(text) ?? "<not Big5>", size: size))
                text = []
            case 0x0C:
                guard pageMode else { throw Unknown(description: "FF outside page mode") }
                pageMode = false
                pagesPrinted += 1
            case 0x1B:
                let command = try take(1)[0]
                switch command {
                case 0x40, 0x4C:
                    if command == 0x4C { pageMode = true }
                case 0x61, 0x54, 0x64: _ = try take(1)
                case 0x57: _ = try take(8)
                case 0x24:
                    let position = try take(2)
                    x = Int(position[0]) + Int(position[1]) << 8
                default: throw Unknown(description: "ESC \(command)")
                }
            case 0x1C:
                guard try take(1) == [0x26] else { throw Unknown(description: "FS") }
            case 0x1D:
                let command = try take(1)[0]
                switch command {
                case 0x21: size = try take(1)[0]
                case 0x68, 0x48: _ = try take(1)
                case 0x77: barcodeModuleWidth = try take(1)[0]
                case 0x56: _ = try take(1); cut = true
                case 0x24:
                    let position = try take(2)
                    y = Int(position[0]) + Int(position[1]) << 8
                case 0x6B:
                    let header = try take(2)
                    guard header[0] == 69 else { throw Unknown(description: "barcode system \(header[0])") }
                    code39.append(String(decoding: try take(Int(header[1])), as: UTF8.self))
                case 0x28:
                    let header = try take(3)
                    guard header[0] == 0x6B else { throw Unknown(description: "GS ( \(header[0])") }
                    let body = try take(Int(header[1]) + Int(header[2]) << 8)
                    switch (body[0], body[1]) {
                    case (0x31, 0x41), (0x31, 0x45): break
                    case (0x31, 0x43): moduleDots = body[2]
                    case (0x31, 0x50): stored = String(decoding: body[3...], as: UTF8.self)
                    case (0x31, 0x51):
                        qrCodes.append(QR(content: stored, x: x, y: y, moduleDots: moduleDots, inPageMode: pageMode))
                    default: throw Unknown(description: "GS ( k \(body[0]) \(body[1])")
                    }
                default: throw Unknown(description: "GS \(command)")
                }
            default:
                guard byte >= 0x20 else { throw Unknown(description: "control \(byte) in text") }
                text.append(byte)
            }
        }
        guard text.isEmpty else { throw Unknown(description: "unfinished line") }
    }
}
