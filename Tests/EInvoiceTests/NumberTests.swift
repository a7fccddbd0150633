import Testing
@testable import EInvoice

@Suite struct NumberTests {
    @Test func anInvoiceNumberIsReadAsTypedAndWrittenBothWays() throws {
        let number = try InvoiceNumber(parsing: "ab-12345678")
        #expect(number.text == "AB12345678")
        #expect(number.printed == "AB-12345678")
        #expect(try InvoiceNumber(parsing: "AB00000042").digits == "00000042")
        #expect(throws: EInvoiceError.invoiceNumberFormat("A112345678")) { try InvoiceNumber(parsing: "A112345678") }
        #expect(throws: EInvoiceError.invoiceNumberFormat("AB1234567")) { try InvoiceNumber(parsing: "AB1234567") }
        #expect(throws: EInvoiceError.trackFormat("A1")) { try InvoiceTrack("A1") }
        #expect(throws: EInvoiceError.trackFormat("字軌")) { try InvoiceTrack("字軌") }
    }

    @Test func aTrackLineAsStaffTypeItIsWholeBooksOfFifty() throws {
        let range = try TrackRange(parsing: "11512 AB 12345000-12345249")
        #expect(range.period.code == "11512")
        #expect(range.track.letters == "AB")
        #expect(range.count == 250)
        #expect(range.books.count == 5)
        #expect(range.books.first?.description == "11512 AB 12345000-12345049")
        #expect(range.books.last?.description == "11512 AB 12345200-12345249")
        #expect(try TrackRange(parsing: " 11512 ab 12345000 - 12345049 ").books.count == 1)
        #expect(try TrackRange(parsing: "11512 AB 12345050- 12345099").books.first?.firstSerial == 12_345_050)
    }

    @Test func aTrackLineThatIsNotWholeBooksOrOutOfOrderSaysWhatIsWrong() {
        #expect(throws: EInvoiceError.rangeNotWholeBooks("12345001-12345249")) { try TrackRange(parsing: "11512 AB 12345001-12345249") }
        #expect(throws: EInvoiceError.rangeNotWholeBooks("12345000-12345248")) { try TrackRange(parsing: "11512 AB 12345000-12345248") }
        #expect(throws: EInvoiceError.rangeOrder("12345249-12345000")) { try TrackRange(parsing: "11512 AB 12345249-12345000") }
        #expect(throws: EInvoiceError.rangeOrder("1234500-12345249")) { try TrackRange(parsing: "11512 AB 1234500-12345249") }
        #expect(throws: EInvoiceError.periodMonth("11511")) { try TrackRange(parsing: "11511 AB 12345000-12345249") }
        #expect(throws: EInvoiceError.trackFormat("A")) { try TrackRange(parsing: "11512 A 12345000-12345249") }
        #expect(throws: EInvoiceError.trackLine("11512 AB")) { try TrackRange(parsing: "11512 AB") }
    }

    @Test func aBookHandsOutItsFiftyNumbersInOrderThenNoMore() throws {
        let book = try Fixtures.book()
        #expect(book.number(after: nil)?.text == "AB12345650")
        #expect(try book.number(after: InvoiceNumber(parsing: "AB12345678"))?.text == "AB12345679")
        #expect(try book.number(after: InvoiceNumber(parsing: "AB12345699")) == nil)
        #expect(book.numbers.count == 50)
        #expect(try !book.contains(InvoiceNumber(parsing: "AC12345660")))
        #expect(throws: EInvoiceError.self) { try InvoiceBook(period: book.period, track: book.track, firstSerial: 12_345_651) }
    }

    @Test func theBlankNumbersOfABookAreItsUnusedRuns() throws {
        let book = try Fixtures.book()
        let used: Set<InvoiceNumber> = try Set(["AB12345650", "AB12345651", "AB12345681", "AB12345699", "AC12345660"]
            .map { try InvoiceNumber(parsing: $0) })
        #expect(book.blankRuns(used: used) == [12_345_652...12_345_680, 12_345_682...12_345_698])
        #expect(book.blankRuns(used: Set(book.numbers)).isEmpty)
        #expect(book.blankRuns(used: []) == [12_345_650...12_345_699])
    }
}
