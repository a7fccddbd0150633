import CivilDate
import Testing
@testable import EInvoice

@Suite struct PeriodTests {
    @Test func aDayFallsInTheTwoMonthPeriodNamedByItsEvenMonth() throws {
        let november = try InvoicePeriod(containing: YearMonthDay(year: 2026, month: 11, day: 15))
        #expect(november.code == "11512")
        #expect(november.printed == "115年11-12月")
        let january = try InvoicePeriod(containing: YearMonthDay(year: 2026, month: 1, day: 31))
        #expect(january.code == "11502")
        #expect(january.printed == "115年01-02月")
        #expect(try InvoicePeriod(containing: YearMonthDay(year: 2026, month: 12, day: 31)) == november)
        #expect(november.next.code == "11602")
        #expect(november.firstDay == YearMonthDay(year: 2026, month: 11, day: 1))
        #expect(november.lastDay == YearMonthDay(year: 2026, month: 12, day: 31))
        #expect(try InvoicePeriod(parsing: "11502").lastDay == YearMonthDay(year: 2026, month: 2, day: 28))
    }

    @Test func blankNumbersAreDueTenDaysIntoTheNextPeriodAndVoidsCloseOnThe13th() throws {
        let period = try InvoicePeriod(parsing: "11512")
        #expect(period.blankNumbersDue == YearMonthDay(year: 2027, month: 1, day: 10))
        #expect(period.lastVoidDay == YearMonthDay(year: 2027, month: 1, day: 13))
        #expect(try InvoicePeriod(parsing: "11502").lastVoidDay == YearMonthDay(year: 2026, month: 3, day: 13))
    }

    @Test func aPeriodStaffTypeWronglyIsNamedInTheRefusal() {
        #expect(throws: EInvoiceError.periodMonth("11511")) { try InvoicePeriod(parsing: "11511") }
        #expect(throws: EInvoiceError.periodFormat("1151")) { try InvoicePeriod(parsing: "1151") }
        #expect(throws: EInvoiceError.periodFormat("11a12")) { try InvoicePeriod(parsing: "11a12") }
        #expect(throws: EInvoiceError.periodMonth("11514")) { try InvoicePeriod(parsing: "11514") }
    }
}
