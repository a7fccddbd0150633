import Testing
@testable import DrinkShopCore

@Suite("Till: invoice details (統一發票)")
struct TillInvoiceTests {
    @Test("valid 統一編號: the Ministry of Finance's examples, old numbers and the 7th-digit-7 case",
          arguments: ["04595257", "10458575", "04702088", "00651474", "00238778", "22099131", "53212539"])
    func validBusinessNumbers(number: String) throws {
        #expect(try InvoiceDetails.checkedBusinessNumber(number) == .businessNumber(number))
    }

    @Test("numbers valid only under the 2023 rule (sum divisible by 5, not 10) pass",
          arguments: ["00000005", "10458570", "12345670"])
    func newRuleNumbers(number: String) {
        #expect(BusinessNumberChecksum.isValid(number))
    }

    @Test("mistyped 統一編號 fail the checksum", arguments: ["04595255", "00238770", "12345678", "04595258"])
    func invalidChecksum(number: String) {
        #expect(throws: InvoiceDetailsError.businessNumberChecksum(number)) {
            try InvoiceDetails.checkedBusinessNumber(number)
        }
    }

    @Test("a 統一編號 must be 8 ASCII digits", arguments: ["1234567", "123456789", "0459525A", "０４５９５２５７"])
    func businessNumberFormat(number: String) {
        #expect(throws: InvoiceDetailsError.businessNumberFormat(number)) {
            try InvoiceDetails.checkedBusinessNumber(number)
        }
    }

    @Test("mobile barcodes: / then 7 of 0-9 A-Z . - +, typed in any case")
    func mobileBarcodes() throws {
        #expect(try InvoiceDetails.checkedMobileBarcode("/ABC+123") == .mobileBarcode("/ABC+123"))
        #expect(try InvoiceDetails.checkedMobileBarcode(" /ab.-+9z ") == .mobileBarcode("/AB.-+9Z"))
        #expect(throws: InvoiceDetailsError.mobileBarcodeFormat("ABC+1234", problem: "must start with /")) {
            try InvoiceDetails.checkedMobileBarcode("ABC+1234")
        }
        #expect(throws: InvoiceDetailsError.mobileBarcodeFormat("/ABC123", problem: "has 6 characters after /, not 7")) {
            try InvoiceDetails.checkedMobileBarcode("/ABC123")
        }
        #expect(throws: InvoiceDetailsError.mobileBarcodeFormat("/ABC_123", problem: "\"_\" is not one of 0-9 A-Z . - +")) {
            try InvoiceDetails.checkedMobileBarcode("/ABC_123")
        }
    }

    @Test("citizen certificates: 2 uppercase letters then 14 digits")
    func citizenCertificates() throws {
        #expect(try InvoiceDetails.checkedCitizenCertificate("AB12345678901234") == .citizenCertificate("AB12345678901234"))
        for bad in ["ab12345678901234", "AB1234567890123", "A112345678901234", "AB1234567890123X"] {
            #expect(throws: InvoiceDetailsError.citizenCertificateFormat(bad)) {
                try InvoiceDetails.checkedCitizenCertificate(bad)
            }
        }
    }

    @Test("donation codes: 3 to 7 digits")
    func donationCodes() throws {
        #expect(try InvoiceDetails.checkedDonation("8585") == .donation("8585"))
        #expect(try InvoiceDetails.checkedDonation("123") == .donation("123"))
        #expect(try InvoiceDetails.checkedDonation("1234567") == .donation("1234567"))
        for bad in ["12", "12345678", "12a4"] {
            #expect(throws: InvoiceDetailsError.donationFormat(bad)) { try InvoiceDetails.checkedDonation(bad) }
        }
    }

    @Test("what the customer gives is recognised by its shape, and a bad one says what is wrong")
    func parsingByShape() throws {
        #expect(try InvoiceDetails(parsing: "/ABC+123") == .mobileBarcode("/ABC+123"))
        #expect(try InvoiceDetails(parsing: "AB12345678901234") == .citizenCertificate("AB12345678901234"))
        #expect(try InvoiceDetails(parsing: "04595257") == .businessNumber("04595257"))
        #expect(try InvoiceDetails(parsing: "8585") == .donation("8585"))
        #expect(throws: InvoiceDetailsError.businessNumberChecksum("04595255")) { try InvoiceDetails(parsing: "04595255") }
        #expect(throws: InvoiceDetailsError.unrecognized("12")) { try InvoiceDetails(parsing: "12") }
        let stored = try InvoiceDetails(kindCode: "businessNumber", value: "04595257")
        #expect(stored.kindCode == "businessNumber" && stored.value == "04595257")
        #expect(stored.description == "統編 04595257")
        #expect(throws: InvoiceDetailsError.unknownKind("fax")) { try InvoiceDetails(kindCode: "fax", value: "1") }
        #expect(InvoiceDetailsError.businessNumberChecksum("04595255").description.contains("mistyped"))
    }
}
