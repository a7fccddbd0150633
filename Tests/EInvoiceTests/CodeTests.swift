import DrinkShopCore
import Testing
@testable import EInvoice

@Suite struct CodeTests {
    @Test func theAESCheckValueMatchesTheReferencesKnownAnswers() throws {
        let key = try QRKey(hex: Fixtures.keyHex)
        #expect(QRCheck.value(of: "XF000012349876", key: key) == "CamotDNRUN8bVyY5S1BhFQ==")
        #expect(QRCheck.value(of: "AB123456781234", key: key) == "4d8eYao+OOg6n+opgLjW+Q==")
        #expect(QRCheck.value(of: "AB123456781234", key: try QRKey(hex: "fe05f029154f6aa67a78b338ed2f6601")) == "4d8eYao+OOg6n+opgLjW+Q==")
    }

    @Test func base64MatchesTheStandardAlphabetAndPadding() {
        #expect(QRCheck.base64(Array("f".utf8)) == "Zg==")
        #expect(QRCheck.base64(Array("fo".utf8)) == "Zm8=")
        #expect(QRCheck.base64(Array("foo".utf8)) == "Zm9v")
        #expect(QRCheck.base64(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(QRCheck.base64([0xFF, 0xEF, 0xBE]) == "/+++")
    }

    @Test func theBarcodeAndBothQRCodesAreTheReferencesWorkedExample() throws {
        let codes = try #require(InvoiceCodes(of: Fixtures.invoiceA()))
        #expect(codes.barcode == "11512AB123456781234")
        #expect(codes.barcode.utf8.count == 19)
        #expect(codes.leftQR == "AB12345678115111512340000008f0000009600000000123456754d8eYao+OOg6n+opgLjW+Q==:**********:2:2:1:熟成紅茶(大):2:40")
        #expect(codes.leftQR.count == 107)
        #expect(codes.leftQR.utf8.count == 117)
        #expect(codes.rightQR == "**雪花冷露(大):1:70")
        #expect(codes.leftQR.prefix(77).count == 77)
        #expect(codes.itemsCarried == 2)
    }

    @Test func aCompanysQRCodeCarriesItsNumberAndTheUntaxedSales() throws {
        let codes = try #require(InvoiceCodes(of: Fixtures.invoiceD()))
        // 400 untaxed = 0x190, 420 total = 0x1a4, buyer 04595257.
        #expect(codes.leftQR.hasPrefix("AB1234568111511151234" + "00000190" + "000001a4" + "04595257" + "12345675"))
        #expect(codes.leftQR.hasSuffix(":**********:1:1:1:熟成紅茶(大):10:40"))
        #expect(codes.rightQR == "**")
    }

    @Test func itemsBeyondWhatTwoCodesHoldAreLeftOutAndCounted() throws {
        let lines = (1...40).map { SaleLine(description: "熟成紅茶:大杯半糖少冰 第\($0)杯", amount: 40) }
        let invoice = try Fixtures.invoiceA(lines: lines, paid: 1600)
        let codes = try #require(InvoiceCodes(of: invoice))
        #expect(codes.leftQR.utf8.count <= InvoiceCodes.qrByteLimit)
        #expect(codes.rightQR.utf8.count <= InvoiceCodes.qrByteLimit)
        #expect(codes.itemsCarried > 1 && codes.itemsCarried < 40)
        #expect(codes.leftQR.contains(":**********:\(codes.itemsCarried):40:1:"))
        let groups = codes.leftQR.split(separator: ":").count - 5 + codes.rightQR.split(separator: ":").count
        #expect(groups == codes.itemsCarried * 3)
        #expect(!codes.leftQR.dropFirst(77).contains("熟成紅茶:"))  // a name's ':' is written '：'
    }

    @Test func aBillOfThousandsOfLinesIsCodedQuicklyWithWhatFits() throws {
        let lines = (1...3000).map { SaleLine(description: "茶\($0)", amount: 1) }
        let started = ContinuousClock.now
        let codes = try Fixtures.codes(Fixtures.invoiceA(lines: lines, paid: 3000))
        #expect(ContinuousClock.now - started < .seconds(2))
        #expect(codes.leftQR.contains(":**********:\(codes.itemsCarried):3000:1:茶1:1:1"))
        #expect(codes.itemsCarried > 10 && codes.itemsCarried < 60)
    }

    @Test func theQRKeyIsNeverShownAndMustBe32HexCharacters() throws {
        let key = try QRKey(hex: Fixtures.keyHex)
        #expect(String(describing: key) == "QR key (hidden)")
        #expect(!String(reflecting: key).contains("FE05"))
        var dumped = ""
        dump(try Fixtures.seller(), to: &dumped)
        #expect(!dumped.lowercased().contains("fe05") && !dumped.contains("254"))
        #expect(throws: EInvoiceError.qrKeyFormat) { try QRKey(hex: "FE05F029154F6AA67A78B338ED2F660") }
        #expect(throws: EInvoiceError.qrKeyFormat) { try QRKey(hex: "GE05F029154F6AA67A78B338ED2F6601") }
        #expect(!EInvoiceError.qrKeyFormat.description.contains("FE05"))
    }

    @Test func theSellersBusinessNumberIsCheckedByTheOneChecksumWithThe2023Rule() throws {
        // §5.4's vectors, through DrinkShopCore's one checker.
        for valid in ["04595257", "04595252", "10458575", "10458574", "10458570", "12345675"] {
            #expect(BusinessNumberChecksum.isValid(valid), "\(valid)")
        }
        #expect(!BusinessNumberChecksum.isValid("12345678"))
        #expect(throws: EInvoiceError.seller(.businessNumberChecksum("12345678"))) {
            try InvoiceSeller(businessNumber: "12345678", name: "店", address: "台北", qrKey: QRKey(hex: Fixtures.keyHex))
        }
        #expect(throws: EInvoiceError.sellerName("")) {
            try InvoiceSeller(businessNumber: "12345675", name: " ", address: "台北", qrKey: QRKey(hex: Fixtures.keyHex))
        }
    }

    @Test func carriersAndLoveCodesAreTheReferencesFormats() {
        #expect((try? InvoiceDetails.checkedMobileBarcode("/ABC+123")) != nil)
        #expect((try? InvoiceDetails.checkedMobileBarcode("/AB,+123")) == nil)  // ',' sits inside the +…. range pitfall
        #expect((try? InvoiceDetails.checkedMobileBarcode("/ABC+12")) == nil)
        #expect((try? InvoiceDetails.checkedCitizenCertificate("AB12345678901234")) != nil)
        #expect((try? InvoiceDetails.checkedCitizenCertificate("A123456789012345")) == nil)
        #expect((try? InvoiceDetails.checkedDonation("25885")) != nil)
        #expect((try? InvoiceDetails.checkedDonation("12")) == nil)
        #expect((try? InvoiceDetails.checkedDonation("12345678")) == nil)
    }
}
