import Airtable
/// ARRAYJOIN, ARRAYCOMPACT, ARRAYUNIQUE, ARRAYFLATTEN. A value that is not a list counts as a list of itself.
extension FormulaEvaluator {
    func array(_ function: FormulaFunction, _ arguments: [FormulaValue]) throws(FormulaFailure) -> FormulaValue {
        let elements = try arguments[0].flattened()
        switch function {
        case .arrayJoin:
            // The separator defaults to ", ", the same joining a list gets in any text context.
            let separator = arguments.count > 1 ? try arguments[1].string(timeZone) : ", "
            var result = ""
            for (index, element) in elements.enumerated() {
                if index > 0 { result += separator }
                result += element.text(in: timeZone)
                try Self.checkLength(result.utf8.count)
            }
            return .text(result)
        case .arrayFlatten:
            return .array(elements)
        case .arrayCompact:
            return .array(elements.filter { !$0.isEmptyValue })
        case .arrayUnique:
            var seen: Set<FormulaValue> = []
            return .array(elements.filter { seen.insert($0).inserted })
        default:
            throw FormulaFailure("\(function.rawValue) is not an array function")
        }
    }
}
