import Airtable
import CivilDate
import Foundation

/// A wall-clock reading of an instant in a time zone: the calendar fields formulas work with.
///
/// Built by hand from the zone's offset (no `Calendar`, no `DateFormatter`): it runs once per record
/// in a filter, and must not depend on the machine's locale.
struct CivilDateTime: Sendable, Equatable {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    var millisecond: Int
    /// The zone's offset from UTC at that instant, in seconds.
    var offsetSeconds: Int

    init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0,
         offsetSeconds: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.millisecond = millisecond
        self.offsetSeconds = offsetSeconds
    }

    /// `date` as read on a clock in `timeZone`.
    init(_ date: Date, in timeZone: TimeZone) {
        let offset = timeZone.secondsFromGMT(for: date)
        let millis = Self.milliseconds(date) + Int64(offset) * 1000
        let dayNumber = Self.floorDivide(millis, 86_400_000)
        let millisOfDay = Int(millis - dayNumber * 86_400_000)
        let date = YearMonthDay(daysSince1970: Int(dayNumber))
        self.init(year: date.year, month: date.month, day: date.day, hour: millisOfDay / 3_600_000, minute: millisOfDay / 60_000 % 60,
                  second: millisOfDay / 1000 % 60, millisecond: millisOfDay % 1000, offsetSeconds: offset)
    }

    /// Days since 1970-01-01 of this calendar date.
    var dayNumber: Int { YearMonthDay(year: year, month: month, day: day).daysSince1970 }

    /// 0 for Sunday through 6 for Saturday.
    var weekday: Int { YearMonthDay(year: year, month: month, day: day).weekday }

    /// Milliseconds since the epoch of this wall-clock reading taken as UTC.
    private var wallMilliseconds: Int64 {
        Int64(dayNumber) * 86_400_000 + Int64(hour) * 3_600_000 + Int64(minute) * 60_000 + Int64(second) * 1000
            + Int64(millisecond)
    }

    /// The instant at which a clock in `timeZone` reads this (fields out of range roll over). In a
    /// daylight-saving gap the clock reading is taken with the offset before the change.
    func date(in timeZone: TimeZone) -> Date {
        let wall = Date(timeIntervalSince1970: Double(wallMilliseconds) / 1000)
        let guess = wall.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: wall)))
        let refined = wall.addingTimeInterval(-Double(timeZone.secondsFromGMT(for: guess)))
        return refined
    }

    /// The instant at which this reading is taken with its own `offsetSeconds`.
    var instantAtOwnOffset: Date {
        Date(timeIntervalSince1970: Double(wallMilliseconds - Int64(offsetSeconds) * 1000) / 1000)
    }

    /// ISO 8601 with milliseconds: `2024-01-02T08:00:00.000Z`, or `…+08:00` off UTC.
    var isoText: String {
        Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) + "T" + Self.pad(hour, 2) + ":"
            + Self.pad(minute, 2) + ":" + Self.pad(second, 2) + "." + Self.pad(millisecond, 3)
            + (offsetSeconds == 0 ? "Z" : offsetText(separator: ":"))
    }

    /// `+08:00` (or `+0800` with an empty separator).
    func offsetText(separator: String) -> String {
        let sign = offsetSeconds < 0 ? "-" : "+"
        let minutes = abs(offsetSeconds) / 60
        return sign + Self.pad(minutes / 60, 2) + separator + Self.pad(minutes % 60, 2)
    }

    /// The same reading with the calendar date moved by whole months, the day clamped to the new
    /// month's length (Jan 31 + 1 month is Feb 29 in a leap year), as Airtable's DATEADD does.
    func addingMonths(_ months: Int) -> CivilDateTime {
        var copy = self
        let total = year * 12 + (month - 1) + months
        copy.year = Self.floorDivide(total, 12)
        copy.month = total - copy.year * 12 + 1
        copy.day = min(day, YearMonthDay.daysIn(month: copy.month, year: copy.year))
        return copy
    }

    /// The same reading with the calendar date moved by whole days.
    func addingDays(_ days: Int) -> CivilDateTime {
        var copy = self
        let moved = YearMonthDay(daysSince1970: dayNumber + days)
        (copy.year, copy.month, copy.day) = (moved.year, moved.month, moved.day)
        return copy
    }

    static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard value.isFinite, abs(value) < 8.0e15 else { return value < 0 ? -8_000_000_000_000_000 : 8_000_000_000_000_000 }
        return Int64(value)
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }
    static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : (a - b + 1) / b }

    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        let padded = digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        return value < 0 ? "-" + padded : padded
    }
}
