import Foundation

/// The shop's sense of time: the current moment and the time zone its business day is counted in.
/// Injected so tests can stand at any moment of any day.
public struct ShopClock: Sendable {
    public var now: @Sendable () -> Date
    public var timeZone: TimeZone

    public init(timeZone: TimeZone = .current, now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
        self.timeZone = timeZone
    }

    /// The business day of `date`: `YYYY-MM-DD` in the shop's time zone.
    public func businessDay(of date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let pad = { (value: Int?, width: Int) -> String in
            let text = String(value ?? 0)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))"
    }

    /// Today's business day.
    public var today: String { businessDay(of: now()) }

    /// The first instant of the business day containing `date`, and of the next one.
    public func dayBounds(of date: Date) -> (start: Date, end: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let start = calendar.startOfDay(for: date)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return (start, end)
    }
}
