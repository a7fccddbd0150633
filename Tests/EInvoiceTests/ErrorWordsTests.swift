import DrinkShopCore
import Testing
@testable import EInvoice

@Suite struct ErrorWordsTests {
    static let everyCase: [EInvoiceError] = [
        .periodFormat("1"), .periodMonth("11511"), .trackFormat("A"), .invoiceNumberFormat("A"), .rangeOrder("1-0"),
        .rangeNotWholeBooks("1-2"), .trackLine("x"), .qrKeyFormat, .seller(.businessNumberChecksum("12345678")),
        .sellerName(""), .sellerAddress(""), .itemDescription(line: 1), .itemQuantity(line: 1, quantity: 0), .noItems,
        .nothingToInvoice(total: 0), .itemsDoNotAddUp(items: 1, paid: 2), .dateOutsidePeriod(date: "d", period: "p"),
        .numberOutsideBook(number: "n", book: "b"), .randomCodeFormat("1"), .buyerName(""),
        .reasonLength(""), .allowanceNumberFormat(""), .allowanceTooLarge(invoice: "i", allowance: 2, invoiced: 1),
        .fileExists("/p"), .fileWrite(path: "/p", problem: "No space left on device"),
        .allocationFile(place: "range 1 of 1 (line 3)", problem: "InvoiceType is 08"),
    ]

    @Test(arguments: everyCase) func everyRefusalHasAChineseGloss(_ error: EInvoiceError) {
        #expect(error.description.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }, "\(error)")
        #expect(error.description.contains("("))
    }

    @Test func theListAboveHasEveryCase() {
        // A new case not added above fails here: the switch must stay exhaustive.
        for error in Self.everyCase {
            switch error {
            case .periodFormat, .periodMonth, .trackFormat, .invoiceNumberFormat, .rangeOrder, .rangeNotWholeBooks, .trackLine,
                 .qrKeyFormat, .seller, .sellerName, .sellerAddress, .itemDescription, .itemQuantity, .noItems, .nothingToInvoice,
                 .itemsDoNotAddUp, .dateOutsidePeriod, .numberOutsideBook, .randomCodeFormat, .buyerName,
                 .reasonLength, .allowanceNumberFormat, .allowanceTooLarge, .fileExists, .fileWrite, .allocationFile: break
            }
        }
        #expect(Set(Self.everyCase.map { String(describing: $0).prefix(while: { $0 != "(" }) }).count == Self.everyCase.count)
    }
}
