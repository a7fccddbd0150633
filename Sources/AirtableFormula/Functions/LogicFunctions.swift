import Airtable
/// AND, OR, NOT, XOR, ERROR, TRUE, FALSE, BLANK (IF, SWITCH and ISERROR are lazy: see the evaluator).
extension FormulaEvaluator {
    func logic(_ function: FormulaFunction, _ arguments: [FormulaValue]) throws(FormulaFailure) -> FormulaValue {
        switch function {
        case .and:
            return .bool(try truths(arguments).allSatisfy { $0 })
        case .or:
            return .bool(try truths(arguments).contains(true))
        case .xor:
            return .bool(try truths(arguments).filter { $0 }.count % 2 == 1)
        case .not:
            if case .error(let message) = arguments[0] { throw FormulaFailure(message) }
            return .bool(!arguments[0].isTruthy)
        case .error:
            throw FormulaFailure("ERROR() was called")
        case .true: return .bool(true)
        case .false: return .bool(false)
        case .blank: return .blank
        default:
            throw FormulaFailure("\(function.rawValue) is not a logic function")
        }
    }

    /// The truth of each argument; an array argument counts element by element, as Airtable's
    /// AND/OR over a lookup do. Errors propagate.
    private func truths(_ arguments: [FormulaValue]) throws(FormulaFailure) -> [Bool] {
        var out: [Bool] = []
        for argument in arguments {
            if case .array(let elements) = argument, !elements.isEmpty {
                out += try argument.flattened().map(\.isTruthy)
            } else {
                if case .error(let message) = argument { throw FormulaFailure(message) }
                out.append(argument.isTruthy)
            }
        }
        return out
    }
}
