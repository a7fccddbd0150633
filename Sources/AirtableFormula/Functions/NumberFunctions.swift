import Airtable
import Foundation
import Glibc

/// ABS, ROUND, ROUNDUP, ROUNDDOWN, CEILING, FLOOR, INT, MOD, POWER, SQRT, EXP, LOG, EVEN, ODD, MIN, MAX,
/// SUM, AVERAGE, COUNT, COUNTA, COUNTALL. Arithmetic follows Airtable's JavaScript numbers: MOD keeps the sign of
/// the dividend, and impossible results (MOD by 0, SQRT of a negative) are NaN, which filters treat as
/// false.
extension FormulaEvaluator {
    func numeric(_ function: FormulaFunction, _ arguments: [FormulaValue]) throws(FormulaFailure) -> FormulaValue {
        switch function {
        case .abs: return .number(Swift.abs(try arguments[0].number()))
        case .round: return .number(try rounded(arguments, .toNearestOrAwayFromZero))
        case .roundUp: return .number(try rounded(arguments, .awayFromZero))
        case .roundDown: return .number(try rounded(arguments, .towardZero))
        case .ceiling: return .number(try multiple(arguments, .up))
        case .floor: return .number(try multiple(arguments, .down))
        case .int: return .number(Foundation.floor(try arguments[0].number()))
        case .mod:
            return .number(fmod(try arguments[0].number(), try arguments[1].number()))
        case .power: return .number(pow(try arguments[0].number(), try arguments[1].number()))
        case .sqrt: return .number(Foundation.sqrt(try arguments[0].number()))
        case .exp: return .number(Foundation.exp(try arguments[0].number()))
        case .log:
            let value = try arguments[0].number()
            let base = arguments.count > 1 ? try arguments[1].number() : 10
            // log10 and log2 are exact on powers of their base, where a quotient of logs is not (LOG(1000) = 3).
            switch base {
            case 10: return .number(log10(value))
            case 2: return .number(log2(value))
            default: return .number(Foundation.log(value) / Foundation.log(base))
            }
        case .even: return .number(try awayFromZero(arguments[0].number(), toMultipleOf: 2, offset: 0))
        case .odd: return .number(try awayFromZero(arguments[0].number(), toMultipleOf: 2, offset: 1))
        case .min, .max: return try extreme(function, arguments)
        case .sum: return .number(try numbers(arguments).reduce(0, +))
        case .average:
            let values = try numbers(arguments)
            guard !values.isEmpty else { throw FormulaFailure("AVERAGE was given no numbers to average") }
            return .number(values.reduce(0, +) / Double(values.count))
        case .count:
            return .number(Double(try flatten(arguments).filter { if case .number = $0 { true } else { false } }.count))
        case .countA:
            return .number(Double(try flatten(arguments).filter { !$0.isEmptyValue }.count))
        case .countAll:
            return .number(Double(try flatten(arguments).count))
        default:
            throw FormulaFailure("\(function.rawValue) is not a number function")
        }
    }

    /// Every argument, arrays opened up; errors propagate.
    func flatten(_ arguments: [FormulaValue]) throws(FormulaFailure) -> [FormulaValue] {
        var out: [FormulaValue] = []
        for argument in arguments { out += try argument.flattened() }
        return out
    }

    /// The numbers among the arguments: numbers, TRUE()/FALSE() and numeric text count; blanks and other
    /// text are skipped, as in a rollup.
    private func numbers(_ arguments: [FormulaValue]) throws(FormulaFailure) -> [Double] {
        try flatten(arguments).compactMap { value -> Double? in
            switch value {
            case .number(let n): return n
            case .bool(let b): return b ? 1 : 0
            case .text(let s): return FormulaNumberText.parse(s)
            default: return nil
            }
        }
    }

    /// MIN/MAX of numbers; of dates when there are dates and no numbers; 0 when there is neither.
    private func extreme(_ function: FormulaFunction, _ arguments: [FormulaValue]) throws(FormulaFailure)
        -> FormulaValue
    {
        let values = try numbers(arguments)
        let pick: (Double, Double) -> Double = function == .min ? { Swift.min($0, $1) } : { Swift.max($0, $1) }
        if let first = values.first { return .number(values.dropFirst().reduce(first, pick)) }
        let dates = try flatten(arguments).compactMap { value -> Double? in
            if case .date(let d) = value { return d.timeIntervalSince1970 }
            return nil
        }
        if let first = dates.first { return .date(Date(timeIntervalSince1970: dates.dropFirst().reduce(first, pick))) }
        return .number(0)
    }

    /// ROUND family: `value` to `precision` decimal places (negative: to tens, hundreds...).
    private func rounded(_ arguments: [FormulaValue], _ rule: FloatingPointRoundingRule) throws(FormulaFailure)
        -> Double
    {
        let value = try arguments[0].number()
        let precision = arguments.count > 1 ? try arguments[1].number() : 0
        guard value.isFinite, precision.isFinite else { return value }
        let places = Int(Swift.max(-300, Swift.min(300, precision.rounded(.towardZero))))
        let scale = pow(10, Double(Swift.abs(places)))
        var scaled = places >= 0 ? value * scale : value / scale
        // 2.3 * 10 is 23.000000000000004 in binary; without this ROUNDUP(2.3, 1) would give 2.4.
        let nearest = scaled.rounded()
        if Swift.abs(scaled - nearest) <= 1e-9 * Swift.max(1, Swift.abs(scaled)) { scaled = nearest }
        let result = scaled.rounded(rule)
        return places >= 0 ? result / scale : result * scale
    }

    /// EVEN/ODD: away from zero to the nearest integer of the form `k * multiple + offset`
    /// (EVEN(1.5) is 2, EVEN(-1) is -2, ODD(2) is 3, ODD(0) is 1).
    private func awayFromZero(_ value: Double, toMultipleOf multiple: Double, offset: Double) -> Double {
        guard value.isFinite else { return value }
        let sign: Double = value < 0 ? -1 : 1
        let magnitude = Swift.abs(value).rounded(.up)
        let steps = ((magnitude - offset) / multiple).rounded(.up)
        return sign * Swift.max(offset == 0 ? 0 : 1, steps * multiple + offset)
    }

    /// CEILING/FLOOR: the nearest multiple of the significance (default 1) at or above/below the value.
    private func multiple(_ arguments: [FormulaValue], _ rule: FloatingPointRoundingRule) throws(FormulaFailure)
        -> Double
    {
        let value = try arguments[0].number()
        let significance = arguments.count > 1 ? try arguments[1].number() : 1
        guard significance != 0 else { return 0 }
        var steps = value / significance
        let nearest = steps.rounded()
        if Swift.abs(steps - nearest) <= 1e-9 * Swift.max(1, Swift.abs(steps)) { steps = nearest }
        return steps.rounded(rule) * significance
    }
}

extension FormulaValue {
    /// Blank, "" or [] (what COUNTA leaves out).
    var isEmptyValue: Bool {
        switch self {
        case .blank: return true
        case .text(let s): return s.isEmpty
        case .array(let a): return a.isEmpty
        default: return false
        }
    }
}
