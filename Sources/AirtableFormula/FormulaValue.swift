import Airtable
import Foundation

/// What a formula computes, and what it sees of a cell.
///
/// Comparisons give `.bool` (which counts as 1 or 0 wherever a number is wanted and reads as "1"
/// or "0" as text), as Airtable's `TRUE()` is 1 and `FALSE()` is 0.
public enum FormulaValue: Sendable, Hashable {
    /// An empty cell or `BLANK()`: "" as text, 0 as a number.
    case blank
    case number(Double)
    case text(String)
    case bool(Bool)
    /// An instant; `FormulaRecord.timeZone` decides its calendar date and its text form.
    case date(Date)
    /// A multiple select, attachments, or an array function's result; ", "-joined as text.
    case array([FormulaValue])
    /// Airtable's `#ERROR!`: the text says what went wrong. Errors propagate through operators and
    /// functions (except `ISERROR` and `IF`'s untaken branch) and make a filter drop the record.
    case error(String)
}

extension FormulaValue {
    /// Airtable's filter truthiness: true unless 0, false, "", NaN, blank, [] or an error.
    public var isTruthy: Bool {
        switch self {
        case .blank, .error: return false
        case .number(let n): return n != 0 && !n.isNaN
        case .text(let s): return !s.isEmpty
        case .bool(let b): return b
        case .date: return true
        case .array(let elements): return !elements.isEmpty
        }
    }

    /// Whether this is an error value.
    public var isError: Bool {
        if case .error = self { return true }
        return false
    }

    /// The text this value shows as, dates written in `timeZone` (ISO 8601 with milliseconds;
    /// `Z` where the zone's offset is zero, as Airtable writes times). Errors show as `#ERROR!`.
    public func text(in timeZone: TimeZone = FormulaRecord.utc) -> String {
        switch self {
        case .blank: return ""
        case .number(let n): return FormulaNumberText.format(n)
        case .text(let s): return s
        case .bool(let b): return b ? "1" : "0"
        case .date(let d): return CivilDateTime(d, in: timeZone).isoText
        case .array(let elements): return elements.map { $0.text(in: timeZone) }.joined(separator: ", ")
        case .error: return "#ERROR!"
        }
    }
}

/// Why an operation could not give a value; becomes `FormulaValue.error` unless `ISERROR` catches it.
struct FormulaFailure: Error, Sendable {
    var message: String
    init(_ message: String) { self.message = message }
}

/// The coercions operators and functions apply to their operands (reference §10.4).
extension FormulaValue {
    /// The number this value stands for: blank and "" are 0, `TRUE()` 1, numeric text its number, a
    /// one-element array its element. Fails for other text, dates and errors.
    func number() throws(FormulaFailure) -> Double {
        switch self {
        case .blank: return 0
        case .number(let n): return n
        case .bool(let b): return b ? 1 : 0
        case .text(let s):
            if let n = FormulaNumberText.parse(s) { return n }
            if s.trimmingFormulaWhitespace().isEmpty { return 0 }
            throw FormulaFailure("\(Self.excerpt(s)) is not a number")
        case .date:
            throw FormulaFailure("a date is not a number; use DATETIME_DIFF or DATEADD to compute with dates")
        case .array(let elements):
            if elements.isEmpty { return 0 }
            if elements.count == 1 { return try elements[0].number() }
            throw FormulaFailure("a list of \(elements.count) values is not a number")
        case .error(let message): throw FormulaFailure(message)
        }
    }

    /// The text of this value; errors propagate.
    func string(_ timeZone: TimeZone) throws(FormulaFailure) -> String {
        if case .error(let message) = self { throw FormulaFailure(message) }
        return text(in: timeZone)
    }

    /// The instant this value stands for: a date, or text Airtable would read as one (times without a
    /// zone are read in `timeZone`). Fails for blank, numbers and other text.
    func instant(_ timeZone: TimeZone, for function: String) throws(FormulaFailure) -> Date {
        switch self {
        case .date(let d): return d
        case .text(let s):
            if let d = FormulaDateParsing.parse(s, in: timeZone) { return d }
            throw FormulaFailure("\(function) cannot read \(Self.excerpt(s)) as a date")
        case .array(let elements) where elements.count == 1:
            return try elements[0].instant(timeZone, for: function)
        case .error(let message): throw FormulaFailure(message)
        case .blank: throw FormulaFailure("\(function) needs a date, but the value is empty")
        default: throw FormulaFailure("\(function) needs a date, not \(text(in: timeZone))")
        }
    }

    /// The values of an array, or this value alone; errors propagate.
    func flattened() throws(FormulaFailure) -> [FormulaValue] {
        switch self {
        case .array(let elements):
            var out: [FormulaValue] = []
            for element in elements { out += try element.flattened() }
            return out
        case .error(let message): throw FormulaFailure(message)
        default: return [self]
        }
    }

    /// Text quoted and shortened for a message.
    static func excerpt(_ text: String) -> String {
        text.count > 40 ? "'\(text.prefix(40))…'" : "'\(text)'"
    }
}
