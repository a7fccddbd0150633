import Airtable
/// A DATETIME_FORMAT / DATETIME_PARSE format string split into tokens (Moment.js specifiers, as
/// Airtable uses them).
///
/// The supported subset: `YYYY YY Q M MM MMM MMMM D DD Do d ddd dddd H HH h hh m mm s ss S SS SSS
/// A a Z ZZ X x`, the English localized forms `L LL LLL LLLL l ll lll llll LT LTS`, and `[text]`
/// for literal text. Other characters stand for themselves.
struct DateFormatPattern: Sendable, Equatable {
    enum Piece: Sendable, Equatable {
        case token(String)
        case literal(String)
    }

    var pieces: [Piece]

    /// Longest first, so `MMMM` wins over `MM` and `LTS` over `LT`.
    static let tokens = [
        "LLLL", "llll", "YYYY", "MMMM", "dddd", "LTS", "LLL", "lll", "MMM", "ddd", "SSS",
        "YY", "MM", "Do", "DD", "HH", "hh", "mm", "ss", "SS", "ZZ", "LL", "ll", "LT",
        "Q", "M", "D", "d", "H", "h", "m", "s", "S", "A", "a", "Z", "X", "x", "L", "l",
    ]

    /// What the localized forms stand for, in English (United States).
    static let localized: [String: String] = [
        "L": "MM/DD/YYYY", "LL": "MMMM D, YYYY", "LLL": "MMMM D, YYYY h:mm A", "LLLL": "dddd, MMMM D, YYYY h:mm A",
        "l": "M/D/YYYY", "ll": "MMM D, YYYY", "lll": "MMM D, YYYY h:mm A", "llll": "ddd, MMM D, YYYY h:mm A",
        "LT": "h:mm A", "LTS": "h:mm:ss A",
    ]

    init(_ format: String) {
        pieces = Self.split(format, expandingLocalized: true)
    }

    private static func split(_ format: String, expandingLocalized: Bool) -> [Piece] {
        var pieces: [Piece] = []
        let characters = Array(format)
        var index = 0
        func appendLiteral(_ text: String) {
            if case .literal(let previous)? = pieces.last {
                pieces[pieces.count - 1] = .literal(previous + text)
            } else {
                pieces.append(.literal(text))
            }
        }
        outer: while index < characters.count {
            if characters[index] == "[", let close = characters[index...].firstIndex(of: "]") {
                appendLiteral(String(characters[(index + 1)..<close]))
                index = close + 1
                continue
            }
            for token in tokens where matches(token, characters, at: index) {
                index += token.count
                if let expansion = localized[token], expandingLocalized {
                    for piece in split(expansion, expandingLocalized: false) {
                        switch piece {
                        case .token: pieces.append(piece)
                        case .literal(let text): appendLiteral(text)
                        }
                    }
                } else {
                    pieces.append(.token(token))
                }
                continue outer
            }
            appendLiteral(String(characters[index]))
            index += 1
        }
        return pieces
    }

    private static func matches(_ token: String, _ characters: [Character], at index: Int) -> Bool {
        var i = index
        for character in token {
            guard i < characters.count, characters[i] == character else { return false }
            i += 1
        }
        return true
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
}

extension DateFormatPattern {
    /// `civil` written with this pattern.
    func format(_ civil: CivilDateTime, instantMilliseconds: Int64) -> String {
        var out = ""
        for piece in pieces {
            switch piece {
            case .literal(let text): out += text
            case .token(let token): out += Self.format(token, civil, instantMilliseconds)
            }
        }
        return out
    }

    private static func format(_ token: String, _ c: CivilDateTime, _ millis: Int64) -> String {
        let pad = CivilDateTime.pad
        let hour12 = c.hour % 12 == 0 ? 12 : c.hour % 12
        switch token {
        case "YYYY": return pad(c.year, 4)
        case "YY": return pad(((c.year % 100) + 100) % 100, 2)
        case "Q": return String((c.month - 1) / 3 + 1)
        case "M": return String(c.month)
        case "MM": return pad(c.month, 2)
        case "MMM": return String(monthNames[c.month - 1].prefix(3))
        case "MMMM": return monthNames[c.month - 1]
        case "D": return String(c.day)
        case "DD": return pad(c.day, 2)
        case "Do": return String(c.day) + ordinalSuffix(c.day)
        case "d": return String(c.weekday)
        case "ddd": return String(weekdayNames[c.weekday].prefix(3))
        case "dddd": return weekdayNames[c.weekday]
        case "H": return String(c.hour)
        case "HH": return pad(c.hour, 2)
        case "h": return String(hour12)
        case "hh": return pad(hour12, 2)
        case "m": return String(c.minute)
        case "mm": return pad(c.minute, 2)
        case "s": return String(c.second)
        case "ss": return pad(c.second, 2)
        case "S": return String(c.millisecond / 100)
        case "SS": return pad(c.millisecond / 10, 2)
        case "SSS": return pad(c.millisecond, 3)
        case "A": return c.hour < 12 ? "AM" : "PM"
        case "a": return c.hour < 12 ? "am" : "pm"
        case "Z": return c.offsetText(separator: ":")
        case "ZZ": return c.offsetText(separator: "")
        case "X": return String(CivilDateTime.floorDivide(millis, 1000))
        case "x": return String(millis)
        default: return token
        }
    }

    static func ordinalSuffix(_ day: Int) -> String {
        if (11...13).contains(day % 100) { return "th" }
        switch day % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }
}
