import Airtable
import CivilDate
import Foundation
import Glibc

/// DATETIME_PARSE with a format: reads text by a `DateFormatPattern`.
///
/// Forgiving where Moment.js is: a separator in the format matches any one non-alphanumeric
/// character, runs of spaces match any run of spaces, month and weekday names match in any case by
/// their first three letters or in full. Missing fields default as Moment's do: with no year, month or
/// day, today (in `timeZone`); with a day but no month, this month; with a month but no year, this year.
extension DateFormatPattern {
    func parse(_ text: String, now: Date, timeZone: TimeZone) -> Date? {
        var reader = Reader(characters: Array(text))
        var fields = ParsedFields()
        for piece in pieces {
            switch piece {
            case .literal(let literal):
                guard reader.skipLiteral(literal) else { return nil }
            case .token(let token):
                guard fields.read(token, from: &reader) else { return nil }
            }
        }
        reader.skipSpaces()
        guard reader.atEnd else { return nil }
        return fields.resolve(now: now, timeZone: timeZone)
    }
}

private struct Reader {
    var characters: [Character]
    var index = 0

    var atEnd: Bool { index >= characters.count }

    mutating func skipSpaces() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }

    mutating func skipLiteral(_ literal: String) -> Bool {
        for expected in literal {
            if expected.isWhitespace {
                skipSpaces()
                continue
            }
            guard index < characters.count else { return false }
            let actual = characters[index]
            let bothSeparators = !expected.isLetter && !expected.isNumber && !actual.isLetter && !actual.isNumber
            guard actual == expected || bothSeparators else { return false }
            index += 1
        }
        return true
    }

    /// Between `minimum` and `maximum` digits, with an optional sign when `signed`.
    mutating func integer(_ minimum: Int, _ maximum: Int, signed: Bool = false) -> Int? {
        skipSpaces()
        var negative = false
        if signed, index < characters.count, characters[index] == "-" || characters[index] == "+" {
            negative = characters[index] == "-"
            index += 1
        }
        var value = 0
        var count = 0
        while count < maximum, index < characters.count, let digit = characters[index].wholeNumberValue,
              characters[index].isASCII {
            value = value * 10 + digit
            count += 1
            index += 1
        }
        guard count >= minimum else { return nil }
        return negative ? -value : value
    }

    /// The index (0-based) of the name in `names` that the text starts with, in full or by its first three letters.
    mutating func name(in names: [String]) -> Int? {
        skipSpaces()
        let rest = String(characters[index...]).lowercased()
        for (position, name) in names.enumerated() {
            let full = name.lowercased()
            if rest.hasPrefix(full) {
                index += full.count
                return position
            }
        }
        for (position, name) in names.enumerated() where rest.hasPrefix(name.lowercased().prefix(3)) {
            index += 3
            return position
        }
        return nil
    }

    mutating func word(_ choices: [String]) -> String? {
        let rest = String(characters[index...]).lowercased()
        for choice in choices where rest.hasPrefix(choice) {
            index += choice.count
            return choice
        }
        return nil
    }
}

private struct ParsedFields {
    var year: Int?
    var month: Int?
    var day: Int?
    var hour = 0
    var minute = 0
    var second = 0
    var millisecond = 0
    var afternoon: Bool?
    var offsetSeconds: Int?
    var epochMilliseconds: Int64?

    mutating func read(_ token: String, from reader: inout Reader) -> Bool {
        switch token {
        case "YYYY": year = reader.integer(1, 4, signed: true)
        case "YY": year = reader.integer(2, 2).map { $0 > 68 ? 1900 + $0 : 2000 + $0 }
        case "Q": month = reader.integer(1, 1).map { ($0 - 1) * 3 + 1 }
        case "M", "MM": month = reader.integer(1, 2)
        case "MMM", "MMMM": month = reader.name(in: DateFormatPattern.monthNames).map { $0 + 1 }
        case "D", "DD": day = reader.integer(1, 2)
        case "Do":
            day = reader.integer(1, 2)
            _ = reader.word(["st", "nd", "rd", "th"])
        case "d": return reader.integer(1, 1) != nil
        case "ddd", "dddd": return reader.name(in: DateFormatPattern.weekdayNames) != nil
        case "H", "HH", "h", "hh": return assign(reader.integer(1, 2), to: &hour)
        case "m", "mm": return assign(reader.integer(1, 2), to: &minute)
        case "s", "ss": return assign(reader.integer(1, 2), to: &second)
        case "S", "SS", "SSS":
            let start = reader.index
            guard let digits = reader.integer(1, 9) else { return false }
            let count = reader.index - start
            millisecond = Int((Double(digits) / pow(10, Double(count)) * 1000).rounded(.down))
        case "A", "a":
            reader.skipSpaces()
            guard let meridiem = reader.word(["am", "pm", "a.m.", "p.m.", "a", "p"]) else { return false }
            afternoon = meridiem.hasPrefix("p")
        case "Z", "ZZ": return readOffset(&reader)
        case "X":
            guard let seconds = reader.integer(1, 15, signed: true) else { return false }
            epochMilliseconds = Int64(seconds) * 1000
        case "x":
            guard let millis = reader.integer(1, 18, signed: true) else { return false }
            epochMilliseconds = Int64(millis)
        default: return false
        }
        switch token {
        case "YYYY", "YY": return year != nil
        case "Q", "M", "MM", "MMM", "MMMM": return month != nil
        case "D", "DD", "Do": return day != nil
        default: return true
        }
    }

    private func assign(_ value: Int?, to field: inout Int) -> Bool {
        guard let value else { return false }
        field = value
        return true
    }

    private mutating func readOffset(_ reader: inout Reader) -> Bool {
        reader.skipSpaces()
        if reader.word(["z"]) != nil {
            offsetSeconds = 0
            return true
        }
        guard !reader.atEnd, reader.characters[reader.index] == "+" || reader.characters[reader.index] == "-" else {
            return false
        }
        let negative = reader.characters[reader.index] == "-"
        reader.index += 1
        guard let hours = reader.integer(2, 2) else { return false }
        if !reader.atEnd, reader.characters[reader.index] == ":" { reader.index += 1 }
        let minutes = reader.integer(2, 2) ?? 0
        let total = hours * 3600 + minutes * 60
        offsetSeconds = negative ? -total : total
        return true
    }

    func resolve(now: Date, timeZone: TimeZone) -> Date? {
        if let epochMilliseconds { return Date(timeIntervalSince1970: Double(epochMilliseconds) / 1000) }
        let today = CivilDateTime(now, in: timeZone)
        var civil = CivilDateTime(year: today.year, month: today.month, day: today.day)
        switch (year, month, day) {
        case (nil, nil, nil): break
        case (let y?, _, _): civil = CivilDateTime(year: y, month: month ?? 1, day: day ?? 1)
        case (nil, let m?, _): civil = CivilDateTime(year: today.year, month: m, day: day ?? 1)
        case (nil, nil, let d?): civil.day = d
        }
        var hour = self.hour
        if let afternoon {
            guard (1...12).contains(hour) else { return nil }
            hour = afternoon ? (hour % 12) + 12 : hour % 12
        }
        guard (1...12).contains(civil.month),
              (1...YearMonthDay.daysIn(month: civil.month, year: civil.year)).contains(civil.day),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second)
        else { return nil }
        civil.hour = hour
        civil.minute = minute
        civil.second = second
        civil.millisecond = millisecond
        if let offsetSeconds {
            civil.offsetSeconds = offsetSeconds
            return civil.instantAtOwnOffset
        }
        return civil.date(in: timeZone)
    }
}
