import DrinkShopCore
import Foundation
import Synchronization

/// The shop's sense of time: the current moment, the time zone its business day is counted in, and
/// the time of day the business day starts. Injected so tests can stand at any moment of any day.
///
/// The zone and the day's start are shared by every copy of a clock (the services each hold one), so
/// when `ShopSettings` reads the store's settings, one `adopt` changes them for the whole shop.
public struct ShopClock: Sendable {
    public var now: @Sendable () -> Date
    private let rule: Mutex<DayRule>.Shared

    public init(timeZone: TimeZone = .current, dayStart: BusinessDayStart = .midnight,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
        rule = .init(DayRule(timeZone: timeZone, dayStart: dayStart))
    }

    /// The time zone business days are counted in.
    public var timeZone: TimeZone { rule.value.timeZone }
    /// When a business day starts.
    public var dayStart: BusinessDayStart { rule.value.dayStart }

    /// Counts business days in `timeZone` from `dayStart` from now on, for every copy of this clock.
    public func adopt(timeZone: TimeZone, dayStart: BusinessDayStart) {
        rule.value = DayRule(timeZone: timeZone, dayStart: dayStart)
    }

    /// The business day of `date`: `YYYY-MM-DD` of the calendar day it falls in once the day's start is
    /// taken as midnight (with a 05:00 start, 02:00 on the 2nd belongs to the 1st).
    public func businessDay(of date: Date) -> String {
        let rule = rule.value
        // The day of the last date asked about answers every date inside it (most asks are of now).
        if let known = rule.lastDay.withLock({ $0 }), known.start <= date, date < known.end { return known.day }
        let parts = rule.calendar.dateComponents([.year, .month, .day], from: date.addingTimeInterval(-rule.offset))
        let pad = { (value: Int?, width: Int) -> String in
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let day = "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
        let bounds = dayBounds(of: date)
        rule.lastDay.withLock { $0 = (bounds.start, bounds.end, day) }
        return day
    }

    /// Today's business day.
    public var today: String { businessDay(of: now()) }

    /// The first instant of the business day containing `date`, and of the next one.
    public func dayBounds(of date: Date) -> (start: Date, end: Date) {
        let rule = rule.value
        let midnight = rule.calendar.startOfDay(for: date.addingTimeInterval(-rule.offset))
        let next = rule.calendar.date(byAdding: .day, value: 1, to: midnight) ?? midnight.addingTimeInterval(86_400)
        return (midnight.addingTimeInterval(rule.offset), next.addingTimeInterval(rule.offset))
    }

    /// The bounds of the business day named `YYYY-MM-DD`, or nil when `day` is not such a date.
    public func dayBounds(ofDay day: String) -> (start: Date, end: Date)? {
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2]),
              (1...12).contains(month), (1...31).contains(dayOfMonth)
        else { return nil }
        let rule = rule.value
        let components = DateComponents(year: year, month: month, day: dayOfMonth, hour: 12)
        guard let noon = rule.calendar.date(from: components),
              rule.calendar.component(.day, from: noon) == dayOfMonth
        else { return nil }
        return dayBounds(of: rule.calendar.startOfDay(for: noon).addingTimeInterval(rule.offset))
    }

    /// The business day `days` after `day` (negative: before), or nil when `day` is not a date.
    public func day(_ day: String, plus days: Int) -> String? {
        guard let bounds = dayBounds(ofDay: day) else { return nil }
        let rule = rule.value
        guard let moved = rule.calendar.date(byAdding: .day, value: days, to: bounds.start) else { return nil }
        return businessDay(of: moved.addingTimeInterval(60))
    }
}

/// The zone and day start a clock counts business days by.
struct DayRule: Sendable {
    let timeZone: TimeZone
    let dayStart: BusinessDayStart
    let calendar: Calendar
    /// The business day `businessDay(of:)` worked out last under this rule, with its bounds.
    let lastDay = Mutex<(start: Date, end: Date, day: String)?>.Shared(nil)

    init(timeZone: TimeZone, dayStart: BusinessDayStart) {
        self.timeZone = timeZone
        self.dayStart = dayStart
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    var offset: TimeInterval { TimeInterval(dayStart.minutes * 60) }
}

extension Mutex where Value: Sendable {
    /// A mutex shared by reference, so copies of a value type see one state.
    final class Shared: Sendable {
        private let mutex: Mutex<Value>
        init(_ value: Value) { mutex = Mutex(value) }
        func withLock<Result>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
        var value: Value {
            get { mutex.withLock { $0 } }
            set { mutex.withLock { $0 = newValue } }
        }
    }
}
