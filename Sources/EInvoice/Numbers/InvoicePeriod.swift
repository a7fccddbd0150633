import CivilDate

/// A 期別: two calendar months (Jan-Feb, ..., Nov-Dec) named by the ROC year and the even month, `11512`
/// for Nov-Dec 115 (2026). Invoices, tracks and blank-number reports belong to one period.
public struct InvoicePeriod: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The ROC year (Gregorian year - 1911), 1 to 999.
    public let rocYear: Int
    /// The period's second month: 2, 4, 6, 8, 10 or 12.
    public let evenMonth: Int

    public init(rocYear: Int, evenMonth: Int) throws(EInvoiceError) {
        let code = Self.code(rocYear: rocYear, evenMonth: evenMonth)
        guard (1...999).contains(rocYear) else { throw .periodFormat(code) }
        guard (1...12).contains(evenMonth), evenMonth % 2 == 0 else { throw .periodMonth(code) }
        self.rocYear = rocYear
        self.evenMonth = evenMonth
    }

    /// The period a day falls in (month rule `m + m % 2`).
    public init(containing day: YearMonthDay) throws(EInvoiceError) {
        try self.init(rocYear: day.year - 1911, evenMonth: day.month + day.month % 2)
    }

    /// Reads what staff type or the platform prints: `11512`.
    public init(parsing text: String) throws(EInvoiceError) {
        let value = text.trimmingSpaces
        guard value.utf8.count == 5, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let number = Int(value) else { throw .periodFormat(value) }
        try self.init(rocYear: number / 100, evenMonth: number % 100)
    }

    /// `11512`: the ROC year in 3 digits and the even month in 2, as in the barcode and E0402.
    public var code: String { Self.code(rocYear: rocYear, evenMonth: evenMonth) }

    /// `115年11-12月`, as the proof prints it (months zero-padded: `115年01-02月`).
    public var printed: String { "\(rocYear)年\(Self.twoDigits(evenMonth - 1))-\(Self.twoDigits(evenMonth))月" }

    public var description: String { code }

    public var gregorianYear: Int { rocYear + 1911 }
    public var firstDay: YearMonthDay { YearMonthDay(year: gregorianYear, month: evenMonth - 1, day: 1) }
    public var lastDay: YearMonthDay {
        YearMonthDay(year: gregorianYear, month: evenMonth, day: YearMonthDay.daysIn(month: evenMonth, year: gregorianYear))
    }

    public func contains(_ day: YearMonthDay) -> Bool { firstDay <= day && day <= lastDay }

    /// The period after this one (Nov-Dec 115 -> Jan-Feb 116).
    public var next: InvoicePeriod {
        evenMonth == 12 ? InvoicePeriod(unchecked: rocYear + 1, evenMonth: 2) : InvoicePeriod(unchecked: rocYear, evenMonth: evenMonth + 2)
    }

    /// The period before this one (Jan-Feb 116 -> Nov-Dec 115).
    public var previous: InvoicePeriod {
        evenMonth == 2 ? InvoicePeriod(unchecked: rocYear - 1, evenMonth: 12) : InvoicePeriod(unchecked: rocYear, evenMonth: evenMonth - 2)
    }

    /// The last day to upload this period's blank numbers (E0402): 10 days counted from the first day of the
    /// next period, so Nov-Dec 115's are due by 2027-01-10.
    public var blankNumbersDue: YearMonthDay { YearMonthDay(daysSince1970: next.firstDay.daysSince1970 + 9) }

    /// The last day an invoice of this period may be voided (F0501); after it a return is an allowance (G0401).
    ///
    /// The law allows a void until the period's VAT filing deadline (the 15th of the next odd month); the
    /// value-added centres close on the 13th at 23:59:59. The earlier one is what an accountant accepts
    /// without question, so voids close at the end of the 13th of the next period's first month.
    public var lastVoidDay: YearMonthDay { YearMonthDay(year: next.gregorianYear, month: next.evenMonth - 1, day: 13) }

    public static func < (lhs: InvoicePeriod, rhs: InvoicePeriod) -> Bool {
        (lhs.rocYear, lhs.evenMonth) < (rhs.rocYear, rhs.evenMonth)
    }

    private init(unchecked rocYear: Int, evenMonth: Int) {
        self.rocYear = rocYear
        self.evenMonth = evenMonth
    }

    private static func code(rocYear: Int, evenMonth: Int) -> String {
        let year = String(rocYear)
        return String(repeating: "0", count: max(0, 3 - year.count)) + year + twoDigits(evenMonth)
    }

    static func twoDigits(_ value: Int) -> String { value < 10 && value >= 0 ? "0\(value)" : "\(value)" }
}

extension String {
    /// The text without spaces (and tabs) around it.
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    /// Zero-padded to `width` digits (for non-negative numbers).
    init(_ value: Int, digits width: Int) {
        let text = value.description
        self.init(repeating: "0", count: Swift.max(0, width - text.count))
        self += text
    }
}
