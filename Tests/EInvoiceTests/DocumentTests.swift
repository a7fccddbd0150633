import CivilDate
import DrinkShopCore
import Foundation
import Testing
@testable import EInvoice

/// The documents read back by a small test-only reader: FoundationXML is not linked here, so each document is
/// checked for well-formed nesting and for the reference's required elements, in order, by their text.
@Suite struct DocumentTests {
    @Test func aPrintedConsumerInvoiceIsTheReferencesExampleA() throws {
        let document = try Fixtures.invoiceA().f0401
        #expect(document.fileName == "F0401_AB12345678.xml")
        #expect(document.relativePath == "UpCast/B2SSTORAGE/F0401/SRC/F0401_AB12345678.xml")
        let xml = try XMLReading(document.xml)
        #expect(xml.root == "Invoice")
        #expect(xml.namespace == "urn:GEINV:eInvoiceMessage:F0401:4.1")
        #expect(xml.leafPaths == [
            "Main/InvoiceNumber=AB12345678", "Main/InvoiceDate=20261115", "Main/InvoiceTime=14:30:05",
            "Main/Seller/Identifier=12345675", "Main/Seller/Name=範例熟成紅茶股份有限公司", "Main/Seller/Address=臺北市中正區範例路1號",
            "Main/Buyer/Identifier=0000000000", "Main/Buyer/Name=顧客",
            "Main/InvoiceType=07", "Main/DonateMark=0", "Main/PrintMark=Y", "Main/RandomNumber=1234",
            "Details/ProductItem/Description=熟成紅茶(大)", "Details/ProductItem/Quantity=2", "Details/ProductItem/UnitPrice=40",
            "Details/ProductItem/TaxType=1", "Details/ProductItem/Amount=80", "Details/ProductItem/SequenceNumber=1",
            "Details/ProductItem/Description=雪花冷露(大)", "Details/ProductItem/Quantity=1", "Details/ProductItem/UnitPrice=70",
            "Details/ProductItem/TaxType=1", "Details/ProductItem/Amount=70", "Details/ProductItem/SequenceNumber=2",
            "Amount/SalesAmount=150", "Amount/FreeTaxSalesAmount=0", "Amount/ZeroTaxSalesAmount=0", "Amount/TaxType=1",
            "Amount/TaxRate=0.05", "Amount/TaxAmount=0", "Amount/TotalAmount=150",
        ])
    }

    @Test func aCarrierADonationAndACompanyChangeOnlyWhatTheReferenceSays() throws {
        let carried = try XMLReading(Fixtures.invoiceA(recipient: .carrier(.mobileBarcode("/ABC+123")), random: "5678").f0401.xml)
        #expect(carried.leafPaths.filter { $0.hasPrefix("Main/") }.suffix(7) == [
            "Main/InvoiceType=07", "Main/DonateMark=0", "Main/CarrierType=3J0002", "Main/CarrierId1=/ABC+123",
            "Main/CarrierId2=/ABC+123", "Main/PrintMark=N", "Main/RandomNumber=5678",
        ])
        let certificate = try XMLReading(Fixtures.invoiceA(recipient: .carrier(.citizenCertificate("AB12345678901234"))).f0401.xml)
        #expect(certificate.leafPaths.contains("Main/CarrierType=CQ0001"))
        let donated = try XMLReading(Fixtures.invoiceA(recipient: .donation("25885"), random: "9012").f0401.xml)
        #expect(donated.leafPaths.filter { $0.hasPrefix("Main/") }.suffix(4) == [
            "Main/DonateMark=1", "Main/PrintMark=N", "Main/NPOBAN=25885", "Main/RandomNumber=9012",
        ])
        let company = try XMLReading(Fixtures.invoiceD().f0401.xml)
        for expected in ["Main/Buyer/Identifier=04595257", "Main/Buyer/Name=範例買方股份有限公司", "Main/PrintMark=Y",
                         "Details/ProductItem/Quantity=10", "Details/ProductItem/UnitPrice=40", "Details/ProductItem/Amount=400",
                         "Amount/SalesAmount=400", "Amount/TaxAmount=20", "Amount/TotalAmount=420"] {
            #expect(company.leafPaths.contains(expected), "\(expected)")
        }
    }

    @Test func textInADocumentIsEscapedOnScalars() throws {
        let line = SaleLine(description: "<b>&\"茶\"\u{1B}[2J'\u{301}", amount: 150)
        let document = try Fixtures.invoiceA(lines: [line]).f0401
        let xml = try XMLReading(document.xml)
        #expect(xml.leafPaths.contains("Details/ProductItem/Description=<b>&\"茶\"?[2J'\u{301}"))
        #expect(!document.xml.contains("\u{1B}"))
    }

    @Test func aVoidIsFlatAndNamesTheInvoiceItVoids() throws {
        let moment = InvoiceMoment(day: YearMonthDay(year: 2026, month: 11, day: 15), hour: 15, minute: 2, second: 11)
        let document = try Fixtures.invoiceA().f0501(at: moment, reason: "顧客退貨")
        #expect(document.relativePath == "UpCast/B2SSTORAGE/F0501/SRC/F0501_AB12345678.xml")
        let xml = try XMLReading(document.xml)
        #expect(xml.root == "CancelInvoice" && xml.namespace == "urn:GEINV:eInvoiceMessage:F0501:4.1")
        #expect(xml.leafPaths == ["CancelInvoiceNumber=AB12345678", "InvoiceDate=20261115", "BuyerId=0000000000", "SellerId=12345675",
                                  "CancelDate=20261115", "CancelTime=15:02:11", "CancelReason=顧客退貨"])
        #expect(throws: EInvoiceError.reasonLength("")) { try Fixtures.invoiceA().f0501(at: moment, reason: "") }
        #expect(throws: EInvoiceError.self) { try Fixtures.invoiceA().f0501(at: moment, reason: String(repeating: "退", count: 21)) }
    }

    @Test func anAllowanceCarriesUntaxedAmountsAndTaxThatAddUpToTheMoneyGivenBack() throws {
        let moment = InvoiceMoment(day: YearMonthDay(year: 2027, month: 1, day: 5), hour: 10, minute: 0, second: 0)
        let invoice = try Fixtures.invoiceD()
        let allowance = try InvoiceAllowance(number: "AL1150100001", issued: moment, invoice: invoice,
                                             lines: [SaleLine(description: "熟成紅茶(大)", amount: 42)])
        let xml = try XMLReading(allowance.g0401.xml)
        #expect(xml.root == "Allowance" && xml.namespace == "urn:GEINV:eInvoiceMessage:G0401:4.1")
        #expect(xml.leafPaths == [
            "Main/AllowanceNumber=AL1150100001", "Main/AllowanceDate=20270105", "Main/Seller/Identifier=12345675",
            "Main/Seller/Name=範例熟成紅茶股份有限公司", "Main/Buyer/Identifier=04595257", "Main/Buyer/Name=範例買方股份有限公司",
            "Main/AllowanceType=2",
            "Details/ProductItem/OriginalInvoiceDate=20261115", "Details/ProductItem/OriginalInvoiceNumber=AB12345681",
            "Details/ProductItem/OriginalDescription=熟成紅茶(大)", "Details/ProductItem/Quantity=1", "Details/ProductItem/UnitPrice=40",
            "Details/ProductItem/Amount=40", "Details/ProductItem/Tax=2", "Details/ProductItem/AllowanceSequenceNumber=1",
            "Details/ProductItem/TaxType=1", "Amount/TaxAmount=2", "Amount/TotalAmount=40",
        ])
        #expect(allowance.g0401.relativePath == "UpCast/B2SSTORAGE/G0401/SRC/G0401_AL1150100001.xml")
        let several = try InvoiceAllowance(number: "AL2", issued: moment, invoice: try Fixtures.invoiceA(),
                                           lines: [SaleLine(description: "熟成紅茶(大)", quantity: 2, amount: 80),
                                                   SaleLine(description: "雪花冷露(大)", amount: 70)])
        #expect(several.items.reduce(0) { $0 + $1.amount } == several.totalAmount)
        #expect(several.items.reduce(0) { $0 + $1.tax } == several.taxAmount)
        #expect(several.totalAmount + several.taxAmount == 150)
        for item in several.items { #expect(item.quantity * item.unitPrice == item.amount) }
        #expect(throws: EInvoiceError.allowanceTooLarge(invoice: "AB-12345681", allowance: 421, invoiced: 420)) {
            try InvoiceAllowance(number: "AL3", issued: moment, invoice: invoice, lines: [SaleLine(description: "茶", amount: 421)])
        }
        #expect(throws: EInvoiceError.allowanceNumberFormat("AL-1")) {
            try InvoiceAllowance(number: "AL-1", issued: moment, invoice: invoice, lines: [SaleLine(description: "茶", amount: 42)])
        }
    }

    @Test func aReturnIsAVoidUntilThe13thAfterThePeriodThenAnAllowance() throws {
        let period = try InvoicePeriod(parsing: "11512")
        #expect(period.settlesReturn(on: YearMonthDay(year: 2026, month: 12, day: 31)) == .void)
        #expect(period.settlesReturn(on: YearMonthDay(year: 2027, month: 1, day: 13)) == .void)
        #expect(period.settlesReturn(on: YearMonthDay(year: 2027, month: 1, day: 14)) == .allowance)
    }

    @Test func blankNumbersAreReportedPerTrackAndOnlyWhereThereAreAny() throws {
        let period = try InvoicePeriod(parsing: "11512")
        let ab = try Fixtures.book()
        let ab2 = try InvoiceBook(period: period, track: InvoiceTrack("AB"), firstSerial: 12_345_700)
        let ac = try InvoiceBook(period: period, track: InvoiceTrack("AC"), firstSerial: 0)
        var issued = Set(try (12_345_650...12_345_681).map { try InvoiceNumber(track: InvoiceTrack("AB"), serial: $0) })
        issued.formUnion(ac.numbers)
        let reports = BlankNumbers.reports(seller: try Fixtures.seller(), period: period, books: [ab2, ab, ac], issued: issued)
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        #expect(report.e0402.relativePath == "UpCast/B2PMESSAGE/E0402/SRC/E0402_11512_AB.xml")
        let xml = try XMLReading(report.e0402.xml)
        #expect(xml.root == "BranchTrackBlank" && xml.namespace == "urn:GEINV:eInvoiceMessage:E0402:4.1")
        #expect(xml.leafPaths == [
            "Main/HeadBan=12345675", "Main/BranchBan=12345675", "Main/InvoiceType=07", "Main/YearMonth=11512", "Main/InvoiceTrack=AB",
            "Details/BranchTrackBlankItem/InvoiceBeginNo=12345682", "Details/BranchTrackBlankItem/InvoiceEndNo=12345699",
            "Details/BranchTrackBlankItem/InvoiceBeginNo=12345700", "Details/BranchTrackBlankItem/InvoiceEndNo=12345749",
        ])
    }

    @Test func aDocumentIsWrittenWholeIntoItsSourceFolderOnceAndNeverReplaced() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("turnkey-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = TurnkeyFolder(root: root)
        let document = try Fixtures.invoiceA().f0401
        try await folder.write(document)
        let written = try String(contentsOfFile: root + "/UpCast/B2SSTORAGE/F0401/SRC/F0401_AB12345678.xml", encoding: .utf8)
        #expect(written == document.xml)
        await #expect(throws: EInvoiceError.fileExists(root + "/UpCast/B2SSTORAGE/F0401/SRC/F0401_AB12345678.xml")) {
            try await folder.write(try Fixtures.invoiceA(random: "9999").f0401)
        }
        #expect(try String(contentsOfFile: folder.path(of: document), encoding: .utf8) == document.xml)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/UpCast/B2SSTORAGE/F0401/SRC") == ["F0401_AB12345678.xml"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/UpCast/B2SSTORAGE/F0401") == ["SRC"])
        try folder.writeBlocking(try Fixtures.invoiceA().f0501(at: Fixtures.issued, reason: "顧客退貨"))
        #expect(FileManager.default.fileExists(atPath: root + "/UpCast/B2SSTORAGE/F0501/SRC/F0501_AB12345678.xml"))
    }

    @Test func aFolderThatCannotBeWrittenIsNamedInTheError() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("turnkey-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: root))
        do {
            try TurnkeyFolder(root: root).writeBlocking(try Fixtures.invoiceA().f0401)
            Issue.record("written under a file")
        } catch let error as EInvoiceError {
            guard case .fileWrite(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path.hasPrefix(root))
        }
    }
}

/// A small reader for the documents this module writes: one element per line or a leaf on one line.
struct XMLReading {
    var root = ""
    var namespace = ""
    /// Each leaf as `Path/Below/Root=text`, text unescaped, in document order.
    var leafPaths: [String] = []

    struct Malformed: Error, CustomStringConvertible { var description: String }

    init(_ xml: String) throws {
        var lines = xml.split(separator: "\n").map(String.init)
        guard lines.first == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" else { throw Malformed(description: "no declaration") }
        lines.removeFirst()
        guard let rootLine = lines.first, let match = rootLine.firstMatch(of: /^<(\w+) xmlns="([^"]+)">$/) else {
            throw Malformed(description: "no root")
        }
        root = String(match.1)
        namespace = String(match.2)
        var stack: [String] = []
        for line in lines.dropFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let leaf = trimmed.firstMatch(of: /^<(\w+)>([^<]*)<\/(\w+)>$/) {
                guard leaf.1 == leaf.3 else { throw Malformed(description: "mismatched \(trimmed)") }
                leafPaths.append((stack + [String(leaf.1)]).joined(separator: "/") + "=" + Self.unescaped(String(leaf.2)))
            } else if let open = trimmed.firstMatch(of: /^<(\w+)>$/) {
                stack.append(String(open.1))
            } else if let close = trimmed.firstMatch(of: /^<\/(\w+)>$/) {
                if stack.isEmpty {
                    guard close.1 == root else { throw Malformed(description: "root closed as \(close.1)") }
                    stack.append("#closed")
                } else {
                    guard stack.popLast() == String(close.1) else { throw Malformed(description: "mismatched \(trimmed)") }
                }
            } else {
                throw Malformed(description: "unexpected \(trimmed)")
            }
        }
        guard stack == ["#closed"] else { throw Malformed(description: "unclosed \(stack)") }
    }

    /// The five entities read back on scalars (a combining mark after `;` must not hide the entity's end).
    static func unescaped(_ text: String) -> String {
        let entities: [String: Unicode.Scalar] = ["lt": "<", "gt": ">", "quot": "\"", "apos": "'", "amp": "&"]
        var result = String.UnicodeScalarView()
        var entity: String.UnicodeScalarView?
        for scalar in text.unicodeScalars {
            if var name = entity {
                if scalar == ";" {
                    result.append(entities[String(name)] ?? "\u{FFFD}")
                    entity = nil
                } else {
                    name.append(scalar)
                    entity = name
                }
            } else if scalar == "&" {
                entity = String.UnicodeScalarView()
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }
}
