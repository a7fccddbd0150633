import CivilDate
import Testing
import DrinkShopCore
@testable import EInvoice

/// The reference's worked example (einvoice.md §2.4, §4.5): a fictitious, checksum-valid shop, period 115/11-12.
enum Fixtures {
    static let keyHex = "FE05F029154F6AA67A78B338ED2F6601"

    static func seller() throws -> InvoiceSeller {
        try InvoiceSeller(businessNumber: "12345675", name: "範例熟成紅茶股份有限公司", address: "臺北市中正區範例路1號",
                          qrKey: QRKey(hex: keyHex))
    }

    static func book() throws -> InvoiceBook {
        try InvoiceBook(period: InvoicePeriod(parsing: "11512"), track: InvoiceTrack("AB"), firstSerial: 12_345_650)
    }

    static let issued = InvoiceMoment(day: YearMonthDay(year: 2026, month: 11, day: 15), hour: 14, minute: 30, second: 5)

    static let twoDrinks = [SaleLine(description: "熟成紅茶(大)", quantity: 2, amount: 80),
                            SaleLine(description: "雪花冷露(大)", quantity: 1, amount: 70)]

    /// Invoice A of §2.4: B2C printed, AB12345678, random 1234, NT$150.
    static func invoiceA(recipient: InvoiceRecipient = .printed, number: String = "AB12345678", random: String = "1234",
                         lines: [SaleLine] = twoDrinks, paid: Int = 150) throws -> EInvoice {
        try EInvoice(number: InvoiceNumber(parsing: number), from: book(), issued: issued, seller: seller(),
                     recipient: recipient, lines: lines, paid: paid, randomCode: RandomCode(parsing: random))
    }

    /// Invoice D of §2.4: B2B, 10 × 熟成紅茶 at 42 tax included.
    static func invoiceD() throws -> EInvoice {
        try invoiceA(recipient: InvoiceRecipient(details: .checkedBusinessNumber("04595257"), companyName: "範例買方股份有限公司"),
                     number: "AB12345681", lines: [SaleLine(description: "熟成紅茶(大)", quantity: 10, amount: 420)], paid: 420)
    }

    static func codes(_ invoice: EInvoice) throws -> InvoiceCodes {
        try #require(InvoiceCodes(of: invoice))
    }
}
