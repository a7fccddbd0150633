import Airtable
/// The functions this implementation evaluates, by Airtable's names, with how many arguments each takes.
enum FormulaFunction: String, Sendable, CaseIterable {
    // Logic
    case and = "AND", or = "OR", not = "NOT", xor = "XOR", `if` = "IF", `switch` = "SWITCH"
    case isError = "ISERROR", error = "ERROR", `true` = "TRUE", `false` = "FALSE", blank = "BLANK"
    // Text
    case find = "FIND", search = "SEARCH", lower = "LOWER", upper = "UPPER", len = "LEN", trim = "TRIM"
    case left = "LEFT", right = "RIGHT", mid = "MID", substitute = "SUBSTITUTE", replace = "REPLACE"
    case concatenate = "CONCATENATE", rept = "REPT", t = "T", value = "VALUE", regexMatch = "REGEX_MATCH"
    case regexExtract = "REGEX_EXTRACT", regexReplace = "REGEX_REPLACE", encodeURLComponent = "ENCODE_URL_COMPONENT"
    // Numbers
    case abs = "ABS", round = "ROUND", roundUp = "ROUNDUP", roundDown = "ROUNDDOWN", ceiling = "CEILING"
    case floor = "FLOOR", int = "INT", mod = "MOD", power = "POWER", sqrt = "SQRT", min = "MIN", max = "MAX"
    case sum = "SUM", average = "AVERAGE", count = "COUNT", countA = "COUNTA", countAll = "COUNTALL"
    case exp = "EXP", log = "LOG", even = "EVEN", odd = "ODD"
    // Records and dates
    case recordID = "RECORD_ID", createdTime = "CREATED_TIME", lastModifiedTime = "LAST_MODIFIED_TIME", now = "NOW"
    case today = "TODAY"
    case isBefore = "IS_BEFORE", isAfter = "IS_AFTER", isSame = "IS_SAME", dateAdd = "DATEADD"
    case datetimeDiff = "DATETIME_DIFF", datetimeParse = "DATETIME_PARSE", datetimeFormat = "DATETIME_FORMAT"
    case dateString = "DATESTR", year = "YEAR", month = "MONTH", day = "DAY", hour = "HOUR", minute = "MINUTE"
    case second = "SECOND", weekday = "WEEKDAY", weekNumber = "WEEKNUM", timeString = "TIMESTR"
    // Arrays
    case arrayJoin = "ARRAYJOIN", arrayCompact = "ARRAYCOMPACT", arrayUnique = "ARRAYUNIQUE"
    case arrayFlatten = "ARRAYFLATTEN"

    /// The fewest and most arguments (nil: any number).
    var arity: (minimum: Int, maximum: Int?) {
        switch self {
        case .true, .false, .blank, .error, .recordID, .createdTime, .lastModifiedTime, .now, .today: return (0, 0)
        case .and, .or, .xor, .concatenate, .min, .max, .sum, .average, .count, .countA, .countAll: return (1, nil)
        case .not, .isError, .lower, .upper, .len, .trim, .t, .value, .abs, .int, .sqrt, .dateString, .year, .month,
             .day, .hour, .minute, .second, .arrayCompact, .arrayUnique, .arrayFlatten, .encodeURLComponent, .exp,
             .even, .odd, .timeString:
            return (1, 1)
        case .if: return (2, 3)
        case .switch: return (3, nil)
        case .find, .search: return (2, 3)
        case .left, .right, .rept, .mod, .power, .isBefore, .isAfter, .regexMatch, .regexExtract: return (2, 2)
        case .mid, .dateAdd, .regexReplace: return (3, 3)
        case .substitute: return (3, 4)
        case .replace: return (4, 4)
        case .round, .roundUp, .roundDown: return (1, 2)
        case .ceiling, .floor: return (1, 2)
        case .isSame, .datetimeDiff: return (2, 3)
        case .datetimeParse: return (1, 3)
        case .datetimeFormat, .weekday, .weekNumber, .arrayJoin, .log: return (1, 2)
        }
    }

    /// The arity in words, for messages: "2 or 3 arguments", "at least 1 argument".
    var arityDescription: String {
        let (minimum, maximum) = arity
        func plural(_ n: Int) -> String { n == 1 ? "argument" : "arguments" }
        switch maximum {
        case nil: return "at least \(minimum) \(plural(minimum))"
        case minimum?: return minimum == 0 ? "no arguments" : "exactly \(minimum) \(plural(minimum))"
        case let maximum? where maximum == minimum + 1: return "\(minimum) or \(maximum) arguments"
        case let maximum?: return "\(minimum) to \(maximum) arguments"
        }
    }

    /// Airtable functions outside this implementation, so the error can say "not supported" rather
    /// than "unknown".
    static let knownToAirtableOnly: Set<String> = [
        "WORKDAY", "WORKDAY_DIFF", "SET_TIMEZONE", "SET_LOCALE", "TONOW", "FROMNOW",
        "ARRAYSLICE", "CREATED_BY", "LAST_MODIFIED_BY",
    ]
}
