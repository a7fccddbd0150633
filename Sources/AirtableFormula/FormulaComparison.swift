import Airtable
import Foundation

/// How `=`, `!=`, `<`, `>`, `<=`, `>=` (and SWITCH's matching) compare two values.
///
/// The rules, in order (reference §10.4; where Airtable is undocumented, the choice is said):
/// 1. An error on either side is the result.
/// 2. A list (multiple select, attachments) compares as its ", "-joined text.
/// 3. A date against a date compares instants; against text that reads as a date (times without a zone
///    in the record's zone), the instants too; against anything else, the date's ISO text.
/// 4. A number or boolean (TRUE() is 1) against a number, boolean, blank or numeric text compares
///    numerically; blank and "" count as 0 there. Against other text, the number's text is compared.
/// 5. Otherwise both sides compare as text, blank as "": exactly (code point for code point, so
///    case-sensitively) for `=`, by code point order for `<`/`>`.
/// So blank equals "", 0 and FALSE(), and an unchecked checkbox equals 0 and FALSE().
enum FormulaComparison {
    static func evaluate(_ op: FormulaBinaryOperator, _ left: FormulaValue, _ right: FormulaValue,
                         timeZone: TimeZone) throws(FormulaFailure) -> Bool {
        let order = try compare(left, right, timeZone: timeZone)
        switch op {
        case .equal: return order == .same
        case .notEqual: return order != .same
        case .less: return order == .ascending
        case .greater: return order == .descending
        case .lessOrEqual: return order == .ascending || order == .same
        case .greaterOrEqual: return order == .descending || order == .same
        default: return false
        }
    }

    /// `ascending` when `left < right`. NaN compares as `unordered` (unequal to everything).
    enum Order { case ascending, same, descending, unordered }

    static func compare(_ left: FormulaValue, _ right: FormulaValue, timeZone: TimeZone) throws(FormulaFailure) -> Order {
        if case .error(let message) = left { throw FormulaFailure(message) }
        if case .error(let message) = right { throw FormulaFailure(message) }
        let left = flattenList(left, timeZone)
        let right = flattenList(right, timeZone)
        switch (left, right) {
        case (.date(let a), .date(let b)):
            return order(a.timeIntervalSince1970, b.timeIntervalSince1970)
        case (.date(let a), .text(let text)):
            if let b = FormulaDateParsing.parse(text, in: timeZone) { return order(a.timeIntervalSince1970, b.timeIntervalSince1970) }
            return textOrder(left.text(in: timeZone), text)
        case (.text(let text), .date(let b)):
            if let a = FormulaDateParsing.parse(text, in: timeZone) { return order(a.timeIntervalSince1970, b.timeIntervalSince1970) }
            return textOrder(text, right.text(in: timeZone))
        case (.date, _), (_, .date):
            return textOrder(left.text(in: timeZone), right.text(in: timeZone))
        default:
            break
        }
        if isNumeric(left) || isNumeric(right), let a = numericValue(left), let b = numericValue(right) {
            return order(a, b)
        }
        return textOrder(left.text(in: timeZone), right.text(in: timeZone))
    }

    /// Text compared code point by code point (the order of their UTF-8 bytes), not by Swift's
    /// canonical equivalence: `'é'` written as one code point and as `e` + accent are different text,
    /// as they are to Airtable and to SQLite's binary collation.
    static func textOrder(_ a: String, _ b: String) -> Order {
        var left = a.utf8.makeIterator()
        var right = b.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return .same
            case (nil, _): return .ascending
            case (_, nil): return .descending
            case let (x?, y?) where x != y: return x < y ? .ascending : .descending
            default: continue
            }
        }
    }

    private static func flattenList(_ value: FormulaValue, _ timeZone: TimeZone) -> FormulaValue {
        if case .array = value { return .text(value.text(in: timeZone)) }
        return value
    }

    private static func isNumeric(_ value: FormulaValue) -> Bool {
        switch value {
        case .number, .bool: return true
        default: return false
        }
    }

    /// The number a comparison may read from this side; nil for text that is not a number.
    private static func numericValue(_ value: FormulaValue) -> Double? {
        switch value {
        case .blank: return 0
        case .number(let n): return n
        case .bool(let b): return b ? 1 : 0
        case .text(let s):
            if let n = FormulaNumberText.parse(s) { return n }
            return s.isEmpty ? 0 : nil
        default: return nil
        }
    }

    private static func order<T: Comparable>(_ a: T, _ b: T) -> Order {
        if a < b { return .ascending }
        if a > b { return .descending }
        if a == b { return .same }
        return .unordered
    }
}
