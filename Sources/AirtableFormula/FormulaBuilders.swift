import Airtable
import Foundation

/// Builders, so code never pastes user input into formula text:
///
///     let filter: FormulaExpression = .and([.field("name") == .text("O'Brien"), .field("Qty") >= 2])
///     query.filterByFormula = filter.description   // AND({name}='O\'Brien', {Qty}>=2)
///
/// The comparison operators here build expressions; where a `Bool` is wanted (`if a == b`), Swift
/// picks `Equatable`'s `==` as usual.
extension FormulaExpression {
    /// `TRUE()` or `FALSE()`.
    public static func bool(_ value: Bool) -> FormulaExpression { .call(value ? "TRUE" : "FALSE", []) }
    /// `BLANK()`.
    public static var blank: FormulaExpression { .call("BLANK", []) }
    /// `RECORD_ID()`.
    public static var recordID: FormulaExpression { .call("RECORD_ID", []) }
    /// `DATETIME_PARSE('2024-01-02T08:00:00.000Z')`: an instant, written in UTC, as pyairtable does.
    public static func date(_ value: Date) -> FormulaExpression {
        .call("DATETIME_PARSE", [.text(AirtableTimestamp.format(value))])
    }
    /// A number from an `Int`.
    /// When the record was created (`CREATED_TIME()`).
    public static var createdTime: FormulaExpression { .call("CREATED_TIME", []) }

    /// `time` is not before `date` (`NOT(IS_BEFORE(time, date))`).
    public static func notBefore(_ time: FormulaExpression, _ date: Date) -> FormulaExpression {
        .not(.call("IS_BEFORE", [time, .date(date)]))
    }

    /// The conditions that `time` falls in `start..<end` (at or after `start`, before `end`), to be joined
    /// with `and`, alone or beside others. Written the one way the embedded store answers by index.
    public static func inRange(_ time: FormulaExpression, from start: Date, to end: Date) -> [FormulaExpression] {
        [notBefore(time, start), .call("IS_BEFORE", [time, .date(end)])]
    }

    public static func int(_ value: Int) -> FormulaExpression { .number(Double(value)) }

    /// `AND(a, b, …)`.
    public static func and(_ operands: [FormulaExpression]) -> FormulaExpression { .call("AND", operands) }
    /// `OR(a, b, …)`.
    public static func or(_ operands: [FormulaExpression]) -> FormulaExpression { .call("OR", operands) }
    /// `NOT(a)`.
    public static func not(_ operand: FormulaExpression) -> FormulaExpression { .call("NOT", [operand]) }
    /// `IF(condition, then, else)`.
    public static func `if`(_ condition: FormulaExpression, then: FormulaExpression, else otherwise: FormulaExpression)
        -> FormulaExpression
    {
        .call("IF", [condition, then, otherwise])
    }

    /// `field = value` for each pair, joined with AND (pyairtable's `match()`); a single pair is not wrapped.
    public static func match(_ pairs: KeyValuePairs<String, FormulaExpression>) -> FormulaExpression {
        let terms = pairs.map { FormulaExpression.field($0.key) == $0.value }
        return terms.count == 1 ? terms[0] : .and(terms)
    }

    public static func == (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.equal, left, right)
    }
    public static func != (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.notEqual, left, right)
    }
    public static func < (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.less, left, right)
    }
    public static func > (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.greater, left, right)
    }
    public static func <= (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.lessOrEqual, left, right)
    }
    public static func >= (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.greaterOrEqual, left, right)
    }
    /// Text concatenation.
    public static func & (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.concatenate, left, right)
    }
    public static func + (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.add, left, right)
    }
    public static func - (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.subtract, left, right)
    }
    public static func * (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.multiply, left, right)
    }
    public static func / (left: FormulaExpression, right: FormulaExpression) -> FormulaExpression {
        .binary(.divide, left, right)
    }
    public static prefix func - (operand: FormulaExpression) -> FormulaExpression {
        .unary(.negate, operand)
    }
}

extension FormulaExpression: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// A number literal: `.field("Qty") >= 2`.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
}
