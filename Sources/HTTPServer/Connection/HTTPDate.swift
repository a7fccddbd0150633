import CivilDate

/// The IMF-fixdate form of the `Date` header (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`.
enum HTTPDate {
    private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Formats whole seconds since the Unix epoch (UTC), using the one days-to-civil-date algorithm (`CivilDate`) so no
    /// calendar, locale or time zone state is involved.
    static func format(secondsSince1970 seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let weekday = weekdays[Int(((days % 7) + 7) % 7)]
        let date = YearMonthDay(daysSince1970: Int(days))
        return "\(weekday), \(twoDigits(date.day)) \(months[date.month - 1]) \(date.year) "
            + "\(twoDigits(secondOfDay / 3_600)):\(twoDigits(secondOfDay / 60 % 60)):\(twoDigits(secondOfDay % 60)) GMT"
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
