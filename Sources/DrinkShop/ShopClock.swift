import DrinkShopCore
import Foundation
import Synchronization

/// The shop's sense of time: the current moment and the shop's calendar (`ShopCalendar`: the time zone
/// and the day's start from the store's settings). Injected so tests can stand at any moment of any day.
///
/// The calendar is shared by every copy of a clock (the services each hold one), so when `ShopSettings`
/// reads the store's settings, one `adopt` changes it for the whole shop. Which business day an instant
/// is in, and when a day starts and ends, is the calendar's answer; the clock only remembers the last day
/// it was asked about (most asks are of now).
public struct ShopClock: Sendable {
    public var now: @Sendable () -> Date
    private let current: Mutex<DayRule>.Shared

    public init(timeZone: TimeZone = .current, dayStart: BusinessDayStart = .midnight,
                now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
        current = .init(DayRule(ShopCalendar(timeZone: timeZone, dayStart: dayStart)))
    }

    /// The shop's calendar as the store's settings have it now.
    public var calendar: ShopCalendar { current.value.calendar }
    /// The time zone business days are counted in.
    public var timeZone: TimeZone { calendar.timeZone }
    /// When a business day starts.
    public var dayStart: BusinessDayStart { calendar.dayStart }

    /// Counts business days in `timeZone` from `dayStart` from now on, for every copy of this clock.
    func adopt(timeZone: TimeZone, dayStart: BusinessDayStart) {
        current.value = DayRule(ShopCalendar(timeZone: timeZone, dayStart: dayStart))
    }

    /// The business day of `date` (see `ShopCalendar.businessDay(of:)`).
    public func businessDay(of date: Date) -> BusinessDay {
        let rule = current.value
        // The day of the last date asked about answers every date inside it.
        if let known = rule.lastDay.withLock({ $0 }), known.start <= date, date < known.end { return known.day }
        let day = rule.calendar.businessDay(of: date)
        let bounds = rule.calendar.dayBounds(of: date)
        rule.lastDay.withLock { $0 = (bounds.start, bounds.end, day) }
        return day
    }

    /// Today's business day.
    public var today: BusinessDay { businessDay(of: now()) }

    /// The first instant of the business day containing `date`, and of the next one.
    public func dayBounds(of date: Date) -> (start: Date, end: Date) { calendar.dayBounds(of: date) }

    /// The first instant of `day`, and of the day after it.
    public func bounds(of day: BusinessDay) -> (start: Date, end: Date) { calendar.bounds(of: day) }
}

/// The calendar a clock counts business days by, with the last day worked out under it.
struct DayRule: Sendable {
    let calendar: ShopCalendar
    /// The business day `businessDay(of:)` worked out last under this calendar, with its bounds.
    let lastDay = Mutex<(start: Date, end: Date, day: BusinessDay)?>.Shared(nil)

    init(_ calendar: ShopCalendar) { self.calendar = calendar }
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
