/// A date on the proleptic Gregorian calendar, and the one conversion to and from a count of days since
/// 1970-01-01 that the whole program uses (Howard Hinnant's `days_from_civil` / `civil_from_days`,
/// public domain). No time zone, locale or `Calendar` is involved, so it is cheap and the same everywhere.
///
/// The fields are not checked: `daysSince1970` of an out-of-range month or day is what the algorithm
/// gives (callers that read text check it first with `isValid`).
public struct YearMonthDay: Sendable, Hashable, Comparable {
    public var year: Int
    /// 1–12.
    public var month: Int
    /// 1–31.
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` days after 1970-01-01 (negative: before).
    public init(daysSince1970 days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // March is 0
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date (negative: before).
    public var daysSince1970: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = (month + 9) % 12  // March is 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whether the month is 1–12 and the day exists in it.
    public var isValid: Bool {
        (1...12).contains(month) && (1...Self.daysIn(month: month, year: year)).contains(day)
    }

    /// 0 for Sunday through 6 for Saturday (1970-01-01 was a Thursday).
    public var weekday: Int { ((daysSince1970 % 7) + 7 + 4) % 7 }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    /// The number of days in `month` (1–12) of `year`; 31 for a month outside 1–12.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public static func < (lhs: YearMonthDay, rhs: YearMonthDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}
