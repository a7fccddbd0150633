#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CivilDate

/// The shop's calendar: the time zone it counts in and the time of day its business day starts, both
/// from the store's settings. The one type that says which business day an instant belongs to and
/// when a business day starts and ends; also the wall-clock readings (date, hour, minute) shown to staff.
public struct ShopCalendar: Sendable, Hashable {
    public let timeZone: TimeZone
    public let dayStart: BusinessDayStart
    private let gregorian: Calendar

    public init(timeZone: TimeZone, dayStart: BusinessDayStart = .midnight) {
        self.timeZone = timeZone
        self.dayStart = dayStart
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = timeZone
        self.gregorian = gregorian
    }

    /// The day's start as an offset from midnight.
    private var offset: TimeInterval { TimeInterval(dayStart.minutes * 60) }

    // MARK: Business days

    /// The business day of `date`: the calendar day it falls in once the day's start is taken as
    /// midnight (with a 05:00 start, 02:00 on the 2nd belongs to the 1st).
    public func businessDay(of date: Date) -> BusinessDay {
        let parts = gregorian.dateComponents([.year, .month, .day], from: date.addingTimeInterval(-offset))
        return BusinessDay(daysSince1970: YearMonthDay(year: parts.year ?? 1970, month: parts.month ?? 1,
                                                       day: parts.day ?? 1).daysSince1970)
    }

    /// The first instant of the business day containing `date`, and of the next one.
    public func dayBounds(of date: Date) -> (start: Date, end: Date) {
        let midnight = gregorian.startOfDay(for: date.addingTimeInterval(-offset))
        let next = gregorian.date(byAdding: .day, value: 1, to: midnight) ?? midnight.addingTimeInterval(86_400)
        return (midnight.addingTimeInterval(offset), next.addingTimeInterval(offset))
    }

    /// The first instant of `day`, and of the day after it.
    public func bounds(of day: BusinessDay) -> (start: Date, end: Date) {
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: 12)
        // Noon of the day exists in every zone (a skipped or repeated hour is never at noon).
        let noon = gregorian.date(from: components)
            ?? Date(timeIntervalSince1970: Double(day.daysSince1970) * 86_400 + 43_200)
        return dayBounds(of: gregorian.startOfDay(for: noon).addingTimeInterval(offset))
    }

    /// The first instant of `range`'s first day and of the day after its last.
    public func bounds(of range: DayRange) -> (start: Date, end: Date) {
        (bounds(of: range.first).start, bounds(of: range.last).end)
    }

    // MARK: Wall clock (midnight to midnight, as staff read a date)

    /// The hour of day, 0–23.
    public func hour(of date: Date) -> Int { wallSeconds(date) / 3600 }

    /// "2026-12-01": the calendar date of `date` in the shop's zone.
    public func dayText(_ date: Date) -> String {
        BusinessDay(daysSince1970: wallDays(date)).description
    }

    /// "2026-12-01 14:05".
    public func minuteText(_ date: Date) -> String {
        let seconds = wallSeconds(date)
        return dayText(date) + " " + Self.two(seconds / 3600) + ":" + Self.two(seconds % 3600 / 60)
    }

    /// "14:05": the time of day of `date` on the shop's wall clock.
    public func timeText(_ date: Date) -> String {
        let seconds = wallSeconds(date)
        return Self.two(seconds / 3600) + ":" + Self.two(seconds % 3600 / 60)
    }

    /// Seconds since 1970 on the shop's wall clock.
    private func localSeconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date)
    }

    private func wallDays(_ date: Date) -> Int {
        let seconds = localSeconds(date)
        return seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    private func wallSeconds(_ date: Date) -> Int {
        let seconds = localSeconds(date)
        return (seconds % 86_400 + 86_400) % 86_400
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
