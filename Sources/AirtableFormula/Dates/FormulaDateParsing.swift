import Airtable
import CivilDate
import Foundation

/// Reading dates from text when no format is given (DATETIME_PARSE with one argument, and text
/// compared with or passed where a date is wanted).
///
/// Accepted: ISO 8601 as Airtable writes it (`2024-01-02`, `2024-01-02T08:00:00.000Z`,
/// `2024-01-02 08:00`, with `Z` or `±HH:MM`), `YYYY/MM/DD`, and US `M/D/YYYY`, each optionally followed
/// by ` HH:mm[:ss]`. Text without a zone is read as a clock reading in `timeZone`.
enum FormulaDateParsing {
    static func parse(_ raw: String, in timeZone: TimeZone) -> Date? {
        let text = raw.trimmingFormulaWhitespace()
        guard text.utf8.count >= 8, text.utf8.count <= 40 else { return nil }
        if let iso = AirtableTimestamp.parse(text) {
            guard !hasZone(text) else { return iso }
            // AirtableTimestamp read the clock reading as UTC; read it in `timeZone` instead.
            return CivilDateTime(iso, in: FormulaRecord.utc).date(in: timeZone)
        }
        return slashed(text)?.date(in: timeZone)
    }

    /// Whether ISO text carries `Z` or an offset after its date part.
    private static func hasZone(_ text: String) -> Bool {
        let time = text.utf8.dropFirst(10)
        return time.contains(UInt8(ascii: "Z")) || time.contains(UInt8(ascii: "+")) || time.contains(UInt8(ascii: "-"))
    }

    /// `YYYY/MM/DD` or `M/D/YYYY`, optionally with ` HH:mm[:ss]`.
    private static func slashed(_ text: String) -> CivilDateTime? {
        let pieces = text.split(separator: " ", maxSplits: 1)
        guard let datePart = pieces.first else { return nil }
        let fields = datePart.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard fields.count == 3, let a = fields[0], let b = fields[1], let c = fields[2] else { return nil }
        let yearFirst = datePart.split(separator: "/")[0].count == 4
        var civil = yearFirst ? CivilDateTime(year: a, month: b, day: c) : CivilDateTime(year: c, month: a, day: b)
        guard (1...12).contains(civil.month), (1...YearMonthDay.daysIn(month: civil.month, year: civil.year)).contains(civil.day)
        else { return nil }
        if pieces.count == 2 {
            let time = pieces[1].split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard (2...3).contains(time.count), let h = time[0], let m = time[1], (0..<24).contains(h), (0..<60).contains(m)
            else { return nil }
            civil.hour = h
            civil.minute = m
            if time.count == 3 {
                guard let s = time[2], (0..<60).contains(s) else { return nil }
                civil.second = s
            }
        }
        return civil
    }
}
