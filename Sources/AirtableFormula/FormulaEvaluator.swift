import Airtable
import Foundation

/// Evaluates a compiled formula against one record. Failures are thrown as `FormulaFailure`, so an
/// error propagates through every operator and function until `ISERROR` (or the top) catches it.
struct FormulaEvaluator {
    let record: FormulaRecord
    /// What the formula's regular expressions may still spend.
    let budget: FormulaBudget
    var timeZone: TimeZone { record.timeZone }

    /// The longest text a formula may build (`REPT`, `SUBSTITUTE`, `&`...), in UTF-8 bytes, so a hostile
    /// formula cannot exhaust memory.
    static let maximumTextBytes = 10_000_000

    func evaluate(_ node: FormulaNode) throws(FormulaFailure) -> FormulaValue {
        switch node {
        case .constant(let value):
            return value
        case .field(let field):
            let value = FormulaCells.value(of: field, in: record)
            if case .error(let message) = value { throw FormulaFailure(message) }
            return value
        case .negate(let operand):
            return .number(-(try evaluate(operand).number()))
        case .binary(let op, let leftNode, let rightNode):
            let left = try evaluate(leftNode)
            let right = try evaluate(rightNode)
            return try apply(op, left, right)
        case .call(let function, let arguments):
            return try call(function, arguments)
        case .regexMatch(let textNode, let regex):
            return .bool(try regex.matches(try evaluate(textNode).string(timeZone), budget: budget))
        }
    }

    func apply(_ op: FormulaBinaryOperator, _ left: FormulaValue, _ right: FormulaValue) throws(FormulaFailure)
        -> FormulaValue
    {
        switch op {
        case .equal, .notEqual, .less, .greater, .lessOrEqual, .greaterOrEqual:
            return .bool(try FormulaComparison.evaluate(op, left, right, timeZone: timeZone))
        case .concatenate:
            let a = try left.string(timeZone)
            let b = try right.string(timeZone)
            try Self.checkLength(a.utf8.count + b.utf8.count)
            return .text(a + b)
        case .add: return .number(try left.number() + right.number())
        case .subtract: return .number(try left.number() - right.number())
        case .multiply: return .number(try left.number() * right.number())
        // As in Airtable (JavaScript numbers), x/0 is Infinity and 0/0 is NaN, which filters treat as false.
        case .divide: return .number(try left.number() / right.number())
        }
    }

    /// Evaluates the arguments of an eager function, left to right; the first error wins.
    func values(_ nodes: [FormulaNode]) throws(FormulaFailure) -> [FormulaValue] {
        var out: [FormulaValue] = []
        out.reserveCapacity(nodes.count)
        for node in nodes { out.append(try evaluate(node)) }
        return out
    }

    static func checkLength(_ bytes: Int) throws(FormulaFailure) {
        guard bytes <= maximumTextBytes else {
            throw FormulaFailure("the text would be longer than \(maximumTextBytes) bytes")
        }
    }

    private func call(_ function: FormulaFunction, _ arguments: [FormulaNode]) throws(FormulaFailure) -> FormulaValue {
        switch function {
        // These look at their arguments lazily or catch errors, so they take nodes.
        case .if:
            let condition = try evaluate(arguments[0])
            if condition.isTruthy { return try evaluate(arguments[1]) }
            return arguments.count > 2 ? try evaluate(arguments[2]) : .blank
        case .switch:
            let subject = try evaluate(arguments[0])
            var index = 1
            while index + 1 < arguments.count {
                let pattern = try evaluate(arguments[index])
                if try FormulaComparison.compare(subject, pattern, timeZone: timeZone) == .same {
                    return try evaluate(arguments[index + 1])
                }
                index += 2
            }
            return index < arguments.count ? try evaluate(arguments[index]) : .blank
        case .isError:
            do {
                return .bool(try evaluate(arguments[0]).isError)
            } catch {
                return .bool(true)
            }
        default:
            return try callEager(function, values(arguments))
        }
    }

    private func callEager(_ function: FormulaFunction, _ arguments: [FormulaValue]) throws(FormulaFailure)
        -> FormulaValue
    {
        switch function {
        case .and, .or, .not, .xor, .if, .switch, .isError, .error, .true, .false, .blank:
            return try logic(function, arguments)
        case .find, .search, .lower, .upper, .len, .trim, .left, .right, .mid, .substitute, .replace, .concatenate,
             .rept, .t, .value:
            return try text(function, arguments)
        case .regexMatch, .regexExtract, .regexReplace, .encodeURLComponent:
            return try pattern(function, arguments)
        case .abs, .round, .roundUp, .roundDown, .ceiling, .floor, .int, .mod, .power, .sqrt, .min, .max, .sum,
             .average, .count, .countA, .countAll, .exp, .log, .even, .odd:
            return try numeric(function, arguments)
        case .recordID, .createdTime, .lastModifiedTime, .now, .today, .isBefore, .isAfter, .isSame, .dateAdd, .datetimeDiff,
             .datetimeParse, .datetimeFormat, .dateString, .year, .month, .day, .hour, .minute, .second, .weekday,
             .weekNumber, .timeString:
            return try date(function, arguments)
        case .arrayJoin, .arrayCompact, .arrayUnique, .arrayFlatten:
            return try array(function, arguments)
        }
    }
}
