import CivilDate

/// One business day of the shop (営業日): a date on the proleptic Gregorian calendar, written
/// `YYYY-MM-DD` wherever it is stored or shown. Which instants belong to it is `ShopCalendar`'s to say.
public struct BusinessDay: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// Days from 1970-01-01.
    public let daysSince1970: Int

    public init(daysSince1970: Int) { self.daysSince1970 = daysSince1970 }

    /// - Throws: `BusinessDayError.noSuchDate` when the month or the day does not exist.
    public init(year: Int, month: Int, day: Int) throws(BusinessDayError) {
        let date = YearMonthDay(year: year, month: month, day: day)
        guard date.isValid else { throw .noSuchDate(year: year, month: month, day: day) }
        daysSince1970 = date.daysSince1970
    }

    /// Reads exactly `YYYY-MM-DD` (ASCII digits, a date that exists).
    /// - Throws: `BusinessDayError.notADate` naming the text.
    public init(_ text: String) throws(BusinessDayError) {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (48...57).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              YearMonthDay(year: year, month: month, day: day).isValid
        else { throw .notADate(text) }
        daysSince1970 = YearMonthDay(year: year, month: month, day: day).daysSince1970
    }

    /// The one reading of a day as staff type it: `today`/`今天`, `yesterday`/`昨天` (any case) counted from
    /// `today`, or `YYYY-MM-DD`.
    /// - Throws: `BusinessDayError.notADate` naming the text.
    public init(_ text: String, today: BusinessDay) throws(BusinessDayError) {
        if let offset = Self.offset(ofWord: text) {
            self = today.advanced(by: offset)
        } else {
            try self.init(text)
        }
    }

    /// The days from today a word names (`today`/`今天` 0, `yesterday`/`昨天` -1), nil for any other text.
    public static func offset(ofWord text: String) -> Int? {
        switch text.lowercased() {
        case "today", "今天": 0
        case "yesterday", "昨天": -1
        default: nil
        }
    }

    public var year: Int { YearMonthDay(daysSince1970: daysSince1970).year }
    public var month: Int { YearMonthDay(daysSince1970: daysSince1970).month }
    public var day: Int { YearMonthDay(daysSince1970: daysSince1970).day }

    /// The day `days` days later (negative: earlier).
    public func advanced(by days: Int) -> BusinessDay { BusinessDay(daysSince1970: daysSince1970 + days) }
    /// The days from this one to `other` (negative when `other` is earlier).
    public func distance(to other: BusinessDay) -> Int { other.daysSince1970 - daysSince1970 }
    public var next: BusinessDay { advanced(by: 1) }
    public var previous: BusinessDay { advanced(by: -1) }

    /// `2026-12-01` (the year padded to four digits).
    public var description: String {
        let date = YearMonthDay(daysSince1970: daysSince1970)
        return Self.pad(date.year, 4) + "-" + Self.pad(date.month, 2) + "-" + Self.pad(date.day, 2)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    public static func < (lhs: BusinessDay, rhs: BusinessDay) -> Bool { lhs.daysSince1970 < rhs.daysSince1970 }

    /// Encoded as its `YYYY-MM-DD` text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do { try self.init(text) } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Why a text or a range was not taken as business days.
public enum BusinessDayError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `YYYY-MM-DD` of a date that exists (the text, as given).
    case notADate(String)
    case noSuchDate(year: Int, month: Int, day: Int)
    /// A range whose last day is before its first.
    case reversed(first: BusinessDay, last: BusinessDay)

    public var description: String {
        switch self {
        case .notADate(let text): "'\(String(text.prefix(40)))' is not a date; give one like 2026-11-30 (日期格式錯誤)"
        case .noSuchDate(let year, let month, let day): "there is no day \(day) in month \(month) of \(year) (沒有這一天)"
        case .reversed(let first, let last): "\(first) to \(last): the first day is after the last (日期前後顛倒)"
        }
    }
}
