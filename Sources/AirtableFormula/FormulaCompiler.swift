import Airtable
/// Turns a parsed expression into `FormulaNode`s: fields resolved to their schema, functions to
/// their implementation and arity checked, constant regular expressions compiled once.
struct FormulaCompiler {
    let fieldsByID: [String: FieldSchema]
    let fieldsByName: [String: FieldSchema]
    var referencedFieldIDs: Set<String> = []
    var unknownFields: [String] = []

    init(fields: [FieldSchema]) {
        fieldsByID = Dictionary(fields.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        fieldsByName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func compile(_ expression: FormulaExpression) throws(FormulaError) -> FormulaNode {
        switch expression {
        case .number(let value): return .constant(.number(value))
        case .text(let value): return .constant(.text(value))
        case .field(let name):
            guard let field = fieldsByID[name] ?? fieldsByName[name] else {
                if !unknownFields.contains(name) { unknownFields.append(name) }
                return .constant(.blank)
            }
            referencedFieldIDs.insert(field.id)
            return .field(field)
        case .unary(.negate, let operand):
            return .negate(try compile(operand))
        case .binary(let op, let left, let right):
            return .binary(op, try compile(left), try compile(right))
        case .call(let name, let arguments):
            let upper = name.uppercased()
            guard let function = FormulaFunction(rawValue: upper) else {
                if FormulaFunction.knownToAirtableOnly.contains(upper) {
                    throw FormulaError("Invalid formula: the function \(upper) is not supported here")
                }
                throw FormulaError("Invalid formula: unknown function \(name)")
            }
            let (minimum, maximum) = function.arity
            guard arguments.count >= minimum, arguments.count <= maximum ?? Int.max else {
                throw FormulaError("Invalid formula: \(upper) takes \(function.arityDescription), but was given "
                    + "\(arguments.count)")
            }
            var compiled: [FormulaNode] = []
            compiled.reserveCapacity(arguments.count)
            for argument in arguments { compiled.append(try compile(argument)) }
            // A pattern written in the formula is checked now, so a typo is a 422, not a silent #ERROR!.
            if [.regexMatch, .regexExtract, .regexReplace].contains(function),
               case .constant(.text(let pattern)) = compiled[1]
            {
                let regex: FormulaRegex
                do {
                    regex = try FormulaRegex(pattern, for: upper)
                } catch {
                    throw FormulaError("Invalid formula: " + error.message)
                }
                if function == .regexMatch { return .regexMatch(compiled[0], regex) }
            }
            return .call(function, compiled)
        }
    }
}

/// A compiled formula: fields resolved to ids and types, functions to their implementation.
indirect enum FormulaNode: Sendable {
    case constant(FormulaValue)
    case field(FieldSchema)
    case negate(FormulaNode)
    case binary(FormulaBinaryOperator, FormulaNode, FormulaNode)
    case call(FormulaFunction, [FormulaNode])
    /// REGEX_MATCH with a pattern known when compiling: compiled once.
    case regexMatch(FormulaNode, FormulaRegex)
}
