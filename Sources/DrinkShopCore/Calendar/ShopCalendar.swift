#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The shop's wall clock as a fixed offset from UTC (Taiwan: +08:00, no daylight saving), so the
/// core can name days and hours without a time-zone database or a clock read.
public struct ShopCalendar: Sendable, Hashable {
    public let utcOffsetSeconds: Int

    /// Taiwan time, UTC+8.
    public static let taiwan = ShopCalendar(utcOffsetSeconds: 8 * 3600)

    public init(utcOffsetSeconds: Int) {
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Seconds since 1970 on the shop's wall clock.
    private func localSeconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down)) + utcOffsetSeconds
    }

    /// The hour of day, 0–23.
    public func hour(of date: Date) -> Int {
        let seconds = localSeconds(date)
        return ((seconds % 86_400 + 86_400) % 86_400) / 3600
    }

    /// The day number since 1970-01-01 on the shop's calendar.
    public func dayNumber(of date: Date) -> Int {
        let seconds = localSeconds(date)
        return seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    }

    /// "2026-12-01" on the shop's calendar.
    public func dayText(_ date: Date) -> String {
        let (year, month, day) = Self.civil(fromDays: dayNumber(of: date))
        return "\(year)-\(Self.two(month))-\(Self.two(day))"
    }

    /// "2026-12-01 14:05" on the shop's calendar.
    public func minuteText(_ date: Date) -> String {
        let seconds = ((localSeconds(date) % 86_400) + 86_400) % 86_400
        return dayText(date) + " " + Self.two(seconds / 3600) + ":" + Self.two(seconds % 3600 / 60)
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
