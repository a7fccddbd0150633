#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When the shop's business day begins, as a time of day (`05:00`): a shop open past midnight counts
/// the small hours with the day before, and pickup numbers restart at this moment.
public struct BusinessDayStart: Sendable, Hashable, CustomStringConvertible {
    /// Minutes after midnight, 0..<1440.
    public let minutes: Int

    /// Midnight: the calendar day is the business day.
    public static let midnight = BusinessDayStart(validMinutes: 0)

    private init(validMinutes: Int) { minutes = validMinutes }

    /// - Throws: `BusinessDayStartError` unless 0 ≤ hour < 24 and 0 ≤ minute < 60.
    public init(hour: Int, minute: Int = 0) throws(BusinessDayStartError) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { throw .outOfRange(hour: hour, minute: minute) }
        minutes = hour * 60 + minute
    }

    /// Reads `5`, `05`, `5:00`, `05:30` (full-width digits are the caller's to normalise).
    public init(parsing text: String) throws(BusinessDayStartError) {
        let trimmed = String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCIIDigit) }),
              let hour = Int(parts[0]), let minute = parts.count == 2 ? Int(parts[1]) : 0
        else { throw .unreadable(String(trimmed.prefix(40))) }
        try self.init(hour: hour, minute: minute)
    }

    /// `05:00`.
    public var description: String {
        let hour = minutes / 60, minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}

/// Why a business-day start was refused.
public enum BusinessDayStartError: Error, Sendable, Hashable, CustomStringConvertible {
    case unreadable(String)
    case outOfRange(hour: Int, minute: Int)

    public var description: String {
        switch self {
        case .unreadable(let text): return "'\(text)' is not a time of day; give one like 05:00"
        case .outOfRange(let hour, let minute):
            return "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute) is not a time of day; give one from 00:00 to 23:59"
        }
    }
}
