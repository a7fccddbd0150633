import DrinkShopCore
import Testing
@testable import EInvoice

@Suite struct AmountTests {
    @Test func aConsumersInvoiceShowsTaxIncludedItemsAndNoTax() throws {
        let content = try InvoiceContent(lines: Fixtures.twoDrinks, paid: 150, showsTax: false)
        #expect(content.items.map { [$0.quantity, $0.unitPrice, $0.amount, $0.sequence] } == [[2, 40, 80, 1], [1, 70, 70, 2]])
        #expect(content.amounts == InvoiceAmounts(salesAmount: 150, taxAmount: 0, totalAmount: 150, untaxedAmount: 143))
    }

    @Test func aCompanysInvoiceSplitsTheTotalByTheReferencesRounding() throws {
        #expect(InvoiceAmounts.split(taxIncluded: 105) == (100, 5))
        #expect(InvoiceAmounts.split(taxIncluded: 5500) == (5238, 262))
        #expect(InvoiceAmounts.split(taxIncluded: 420) == (400, 20))
        #expect(InvoiceAmounts.split(taxIncluded: 150) == (143, 7))
        // 21 / 1.05 = 20 exactly; 1 / 1.05 = 0.952 -> 1, tax 0; 10 / 1.05 = 9.52 -> 10.
        #expect(InvoiceAmounts.split(taxIncluded: 1) == (1, 0))
        #expect(InvoiceAmounts.split(taxIncluded: 10) == (10, 0))
        let content = try InvoiceContent(lines: [SaleLine(description: "熟成紅茶(大)", quantity: 10, amount: 420)], paid: 420, showsTax: true)
        #expect(content.items.map { [$0.quantity, $0.unitPrice, $0.amount] } == [[10, 40, 400]])
        #expect(content.amounts == InvoiceAmounts(salesAmount: 400, taxAmount: 20, totalAmount: 420, untaxedAmount: 400))
    }

    @Test func everyItemMultipliesOutAndTheItemsAddUpToTheSales() throws {
        let lines = [SaleLine(description: "熟成紅茶(大)", quantity: 3, amount: 115),
                     SaleLine(description: "白玉歐蕾(中)", quantity: 7, amount: 455),
                     SaleLine(description: "第二杯半價", amount: -35),
                     SaleLine(description: "集點兌換", amount: -55),
                     SaleLine(description: "塑膠袋 ×1", amount: 2)]
        let paid = 115 + 455 - 35 - 55 + 2
        for showsTax in [false, true] {
            let content = try InvoiceContent(lines: lines, paid: paid, showsTax: showsTax)
            for item in content.items { #expect(item.quantity * item.unitPrice == item.amount) }
            #expect(content.items.map(\.sequence) == Array(1...content.items.count))
            #expect(content.items.reduce(0) { $0 + $1.amount } == content.amounts.salesAmount)
            #expect(content.amounts.salesAmount + content.amounts.taxAmount == paid)
            #expect(content.items.contains { $0.description == "第二杯半價" && $0.amount < 0 })
        }
        let b2c = try InvoiceContent(lines: lines, paid: paid, showsTax: false)
        #expect(b2c.items.prefix(2).map { [$0.quantity, $0.unitPrice] } == [[2, 38], [1, 39]])
    }

    @Test func anInvoiceThatDoesNotAddUpToWhatWasPaidIsRefused() {
        #expect(throws: EInvoiceError.itemsDoNotAddUp(items: 150, paid: 140)) {
            try InvoiceContent(lines: Fixtures.twoDrinks, paid: 140, showsTax: false)
        }
        #expect(throws: EInvoiceError.nothingToInvoice(total: 0)) {
            try InvoiceContent(lines: [SaleLine(description: "熟成紅茶", amount: 40), SaleLine(description: "集點兌換", amount: -40)],
                               paid: 0, showsTax: false)
        }
        #expect(throws: EInvoiceError.noItems) { try InvoiceContent(lines: [], paid: 0, showsTax: false) }
        #expect(throws: EInvoiceError.itemQuantity(line: 1, quantity: 0)) {
            try InvoiceContent(lines: [SaleLine(description: "熟成紅茶", quantity: 0, amount: 40)], paid: 40, showsTax: false)
        }
        #expect(throws: EInvoiceError.itemDescription(line: 2)) {
            try InvoiceContent(lines: [SaleLine(description: "熟成紅茶", amount: 40), SaleLine(description: " \t ", amount: 1)],
                               paid: 41, showsTax: false)
        }
    }

    @Test func anInvoiceTakesANumberOnlyFromItsBookAndPeriod() throws {
        #expect(throws: EInvoiceError.numberOutsideBook(number: "AB-12345700", book: "11512 AB 12345650-12345699")) {
            try Fixtures.invoiceA(number: "AB12345700")
        }
        let book = try Fixtures.book()
        let december31 = InvoiceMoment(day: .init(year: 2027, month: 1, day: 1), hour: 0, minute: 0, second: 1)
        #expect(throws: EInvoiceError.dateOutsidePeriod(date: "2027-01-01 00:00:01", period: "11512")) {
            try EInvoice(number: InvoiceNumber(parsing: "AB12345678"), from: book, issued: december31, seller: Fixtures.seller(),
                         recipient: .printed, lines: Fixtures.twoDrinks, paid: 150, randomCode: RandomCode(parsing: "1234"))
        }
    }

    @Test func theRecipientFollowsTheInvoiceDetailsTheCounterTook() throws {
        #expect(try InvoiceRecipient(details: nil) == .printed)
        #expect(try InvoiceRecipient(details: .checkedMobileBarcode("/abc+123")) == .carrier(.mobileBarcode("/ABC+123")))
        #expect(try InvoiceRecipient(details: .checkedDonation("25885")) == .donation("25885"))
        let company = try InvoiceRecipient(details: .checkedBusinessNumber("04595257"))
        #expect(company == .business(number: "04595257", name: "04595257"))
        #expect(company.buyerIdentifier == "04595257")
        #expect(InvoiceRecipient.printed.buyerIdentifier == "0000000000")
        #expect(InvoiceRecipient.printed.buyerName == "顧客")
        #expect(!(try InvoiceRecipient(details: .checkedDonation("25885"))).printsProof)
    }
}
