import Airtable
/// The units of DATEADD, DATETIME_DIFF and IS_SAME: long names in any case, singular or plural
/// (`'days'`, `'Day'`), or the short specifiers `ms s m h d w M Q y` (case matters: `M` is months,
/// `m` minutes).
enum DateUnit: String, Sendable, CaseIterable {
    case millisecond, second, minute, hour, day, week, month, quarter, year

    init?(specifier: String) {
        switch specifier {
        case "ms": self = .millisecond
        case "s": self = .second
        case "m": self = .minute
        case "h": self = .hour
        case "d": self = .day
        case "w": self = .week
        case "M": self = .month
        case "Q": self = .quarter
        case "y": self = .year
        default:
            var name = specifier.trimmingFormulaWhitespace().lowercased()
            if name.hasSuffix("s") { name.removeLast() }
            guard let unit = DateUnit(rawValue: name) else { return nil }
            self = unit
        }
    }

    /// The length of the unit in milliseconds, for the units of fixed length.
    var fixedMilliseconds: Int64? {
        switch self {
        case .millisecond: return 1
        case .second: return 1000
        case .minute: return 60_000
        case .hour: return 3_600_000
        case .day: return 86_400_000
        case .week: return 604_800_000
        case .month, .quarter, .year: return nil
        }
    }

    /// Months per unit, for the calendar units.
    var months: Int? {
        switch self {
        case .month: return 1
        case .quarter: return 3
        case .year: return 12
        default: return nil
        }
    }

    static let accepted = "milliseconds, seconds, minutes, hours, days, weeks, months, quarters, years "
        + "(or ms, s, m, h, d, w, M, Q, y)"
}
