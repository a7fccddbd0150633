import Airtable
import Foundation

/// RECORD_ID, CREATED_TIME, LAST_MODIFIED_TIME (of the whole record; field arguments are not taken), NOW, TODAY, IS_BEFORE, IS_AFTER, IS_SAME, DATEADD, DATETIME_DIFF,
/// DATETIME_PARSE, DATETIME_FORMAT, DATESTR, TIMESTR, YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, WEEKDAY,
/// WEEKNUM.
///
/// Calendar fields are read in the record's time zone. A date argument may be a date or text that
/// reads as one; a blank date is an error, so `IS_BEFORE({Due}, TODAY())` drops records with no due date.
extension FormulaEvaluator {
    func date(_ function: FormulaFunction, _ arguments: [FormulaValue]) throws(FormulaFailure) -> FormulaValue {
        let name = function.rawValue
        switch function {
        case .recordID: return .text(record.id)
        case .createdTime: return .date(record.createdTime)
        case .lastModifiedTime: return .date(record.lastModifiedTime ?? record.createdTime)
        case .now: return .date(record.now)
        case .today:
            let now = CivilDateTime(record.now, in: timeZone)
            return .date(CivilDateTime(year: now.year, month: now.month, day: now.day).date(in: timeZone))
        case .isBefore:
            return .bool(try arguments[0].instant(timeZone, for: name) < arguments[1].instant(timeZone, for: name))
        case .isAfter:
            return .bool(try arguments[0].instant(timeZone, for: name) > arguments[1].instant(timeZone, for: name))
        case .isSame:
            let a = try arguments[0].instant(timeZone, for: name)
            let b = try arguments[1].instant(timeZone, for: name)
            guard arguments.count > 2, !arguments[2].isEmptyValue else {
                return .bool(CivilDateTime.milliseconds(a) == CivilDateTime.milliseconds(b))
            }
            return .bool(isSame(a, b, try unit(arguments[2], name)))
        case .dateAdd:
            let start = try arguments[0].instant(timeZone, for: name)
            return .date(add(try arguments[1].number(), try unit(arguments[2], name), to: start))
        case .datetimeDiff:
            let a = try arguments[0].instant(timeZone, for: name)
            let b = try arguments[1].instant(timeZone, for: name)
            let unit = arguments.count > 2 && !arguments[2].isEmptyValue ? try unit(arguments[2], name) : .second
            return .number(difference(a, b, unit))
        case .datetimeParse:
            return .date(try parse(arguments))
        case .datetimeFormat:
            let instant = try arguments[0].instant(timeZone, for: name)
            let civil = CivilDateTime(instant, in: timeZone)
            guard arguments.count > 1, !arguments[1].isEmptyValue else { return .text(civil.isoText) }
            let pattern = DateFormatPattern(try arguments[1].string(timeZone))
            return .text(pattern.format(civil, instantMilliseconds: CivilDateTime.milliseconds(instant)))
        case .dateString:
            let civil = CivilDateTime(try arguments[0].instant(timeZone, for: name), in: timeZone)
            return .text(CivilDateTime.pad(civil.year, 4) + "-" + CivilDateTime.pad(civil.month, 2) + "-"
                + CivilDateTime.pad(civil.day, 2))
        case .year, .month, .day, .hour, .minute, .second:
            let c = CivilDateTime(try arguments[0].instant(timeZone, for: name), in: timeZone)
            let fields: [FormulaFunction: Int] = [.year: c.year, .month: c.month, .day: c.day, .hour: c.hour,
                                                  .minute: c.minute, .second: c.second]
            return .number(Double(fields[function] ?? 0))
        case .weekday:
            let weekday = CivilDateTime(try arguments[0].instant(timeZone, for: name), in: timeZone).weekday
            return .number(Double(try weekStartsOnMonday(arguments, name) ? (weekday + 6) % 7 : weekday))
        case .weekNumber:
            // Week 1 holds January 1st; weeks start on Sunday unless told 'Monday'.
            let civil = CivilDateTime(try arguments[0].instant(timeZone, for: name), in: timeZone)
            let mondayStart = try weekStartsOnMonday(arguments, name)
            let januaryFirst = CivilDateTime(year: civil.year, month: 1, day: 1)
            let shift = mondayStart ? (januaryFirst.weekday + 6) % 7 : januaryFirst.weekday
            return .number(Double((civil.dayNumber - januaryFirst.dayNumber + shift) / 7 + 1))
        case .timeString:
            let c = CivilDateTime(try arguments[0].instant(timeZone, for: name), in: timeZone)
            return .text(CivilDateTime.pad(c.hour, 2) + ":" + CivilDateTime.pad(c.minute, 2) + ":"
                + CivilDateTime.pad(c.second, 2))
        default:
            throw FormulaFailure("\(name) is not a date function")
        }
    }

    /// The optional second argument of WEEKDAY and WEEKNUM: 'Sunday' (the default) or 'Monday'.
    private func weekStartsOnMonday(_ arguments: [FormulaValue], _ function: String) throws(FormulaFailure) -> Bool {
        guard arguments.count > 1, !arguments[1].isEmptyValue else { return false }
        switch try arguments[1].string(timeZone).lowercased() {
        case "sunday": return false
        case "monday": return true
        case let other:
            throw FormulaFailure("\(function)'s week starts on 'Sunday' or 'Monday', not \(FormulaValue.excerpt(other))")
        }
    }

    private func unit(_ value: FormulaValue, _ function: String) throws(FormulaFailure) -> DateUnit {
        let text = try value.string(timeZone)
        guard let unit = DateUnit(specifier: text) else {
            throw FormulaFailure("\(function) does not know the unit \(FormulaValue.excerpt(text)); use \(DateUnit.accepted)")
        }
        return unit
    }

    private func isSame(_ a: Date, _ b: Date, _ unit: DateUnit) -> Bool {
        let x = CivilDateTime(a, in: timeZone)
        let y = CivilDateTime(b, in: timeZone)
        switch unit {
        case .year: return x.year == y.year
        case .quarter: return x.year == y.year && (x.month - 1) / 3 == (y.month - 1) / 3
        case .month: return x.year == y.year && x.month == y.month
        case .week: return x.dayNumber - x.weekday == y.dayNumber - y.weekday
        case .day: return x.dayNumber == y.dayNumber
        case .hour: return x.dayNumber == y.dayNumber && x.hour == y.hour
        case .minute: return x.dayNumber == y.dayNumber && x.hour == y.hour && x.minute == y.minute
        case .second: return CivilDateTime.milliseconds(a) / 1000 == CivilDateTime.milliseconds(b) / 1000
        case .millisecond: return CivilDateTime.milliseconds(a) == CivilDateTime.milliseconds(b)
        }
    }

    /// DATEADD: fixed units add elapsed time; days, weeks, months, quarters and years move the calendar
    /// date in the record's zone (keeping the clock time across a daylight-saving change), counts of
    /// those rounded to whole units as Moment.js does.
    private func add(_ count: Double, _ unit: DateUnit, to start: Date) -> Date {
        guard count.isFinite else { return start }
        let clamped = Swift.max(-1e7, Swift.min(1e7, count))
        switch unit {
        case .millisecond, .second, .minute, .hour:
            let millis = Double(unit.fixedMilliseconds ?? 1) * count
            return start.addingTimeInterval(millis / 1000)
        case .day, .week:
            let days = Int(clamped.rounded(.toNearestOrAwayFromZero)) * (unit == .week ? 7 : 1)
            return CivilDateTime(start, in: timeZone).addingDays(days).date(in: timeZone)
        case .month, .quarter, .year:
            let months = Int(clamped.rounded(.toNearestOrAwayFromZero)) * (unit.months ?? 1)
            return CivilDateTime(start, in: timeZone).addingMonths(months).date(in: timeZone)
        }
    }

    /// DATETIME_DIFF: `a - b` in whole units, cut toward zero (negative when `b` is later). Months,
    /// quarters and years count whole calendar months in the record's zone.
    private func difference(_ a: Date, _ b: Date, _ unit: DateUnit) -> Double {
        if let size = unit.fixedMilliseconds {
            let elapsed = CivilDateTime.milliseconds(a) - CivilDateTime.milliseconds(b)
            return Double(elapsed / size)
        }
        let later = CivilDateTime(Swift.max(a, b), in: timeZone)
        let earlier = CivilDateTime(Swift.min(a, b), in: timeZone)
        var months = (later.year - earlier.year) * 12 + (later.month - earlier.month)
        if months > 0, earlier.addingMonths(months).date(in: timeZone) > Swift.max(a, b) { months -= 1 }
        let whole = months / (unit.months ?? 1)
        return Double(a >= b ? whole : -whole)
    }

    /// DATETIME_PARSE(text, [format], [locale]): without a format, the forms `FormulaDateParsing`
    /// reads; with one, the `DateFormatPattern` tokens. The locale is accepted; names are English.
    private func parse(_ arguments: [FormulaValue]) throws(FormulaFailure) -> Date {
        if case .date(let d) = arguments[0] { return d }
        let text = try arguments[0].string(timeZone)
        guard arguments.count > 1, !arguments[1].isEmptyValue else {
            return try arguments[0].instant(timeZone, for: "DATETIME_PARSE")
        }
        let format = try arguments[1].string(timeZone)
        if arguments.count > 2 { _ = try arguments[2].string(timeZone) }
        guard let date = DateFormatPattern(format).parse(text, now: record.now, timeZone: timeZone) else {
            throw FormulaFailure("DATETIME_PARSE cannot read \(FormulaValue.excerpt(text)) with the format "
                + FormulaValue.excerpt(format))
        }
        return date
    }
}
