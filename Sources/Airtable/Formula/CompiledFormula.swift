import Foundation

/// A formula checked against a table's fields and ready to evaluate record after record.
///
/// Compiling resolves every field reference and function once, so a filter over many records pays
/// only for evaluation. Evaluation never throws: what goes wrong on a record becomes
/// `FormulaValue.error`, which a filter treats as false, as Airtable's `#ERROR!` is.
public struct CompiledFormula: Sendable {
    /// The formula as parsed.
    public let expression: FormulaExpression
    /// The ids of the fields the formula reads.
    public let referencedFieldIDs: Set<String>
    let root: FormulaNode

    /// Resolves every field reference (by field id, or by name, case-sensitive) against a table's fields.
    ///
    /// - Throws: `FormulaError` for bad syntax (with its position), "Unknown field names: x, y"
    ///   (lower-cased, as Airtable words it), an unknown or unsupported function, or a wrong number of
    ///   arguments.
    public init(_ text: String, fields: [FieldSchema]) throws(FormulaError) {
        try self.init(Formula.parse(text), fields: fields)
    }

    /// Compiles an already built expression (from the builders or `Formula.parse`).
    public init(_ expression: FormulaExpression, fields: [FieldSchema]) throws(FormulaError) {
        try Self.checkDepth(expression)
        var compiler = FormulaCompiler(fields: fields)
        let root = try compiler.compile(expression)
        if !compiler.unknownFields.isEmpty {
            throw FormulaError("Unknown field names: " + compiler.unknownFields.map { $0.lowercased() }.joined(separator: ", "))
        }
        self.expression = expression
        self.root = root
        self.referencedFieldIDs = compiler.referencedFieldIDs
    }

    /// The formula's value for one record.
    public func evaluate(_ record: FormulaRecord) -> FormulaValue {
        let evaluator = FormulaEvaluator(record: record)
        do {
            return try evaluator.evaluate(root)
        } catch {
            return .error(error.message)
        }
    }

    /// Airtable's filter truthiness: kept unless 0, false, "", NaN, blank, [] or an error.
    public func matches(_ record: FormulaRecord) -> Bool {
        evaluate(record).isTruthy
    }

    /// Refuses trees deeper than `Formula.maximumDepth` without recursing (a built tree may be any depth).
    private static func checkDepth(_ expression: FormulaExpression) throws(FormulaError) {
        var stack: [(FormulaExpression, Int)] = [(expression, 1)]
        while let (node, depth) = stack.popLast() {
            guard depth <= Formula.maximumDepth else {
                throw FormulaError("Invalid formula: the formula nests too deeply (more than \(Formula.maximumDepth) levels)")
            }
            switch node {
            case .number, .text, .field: break
            case .unary(_, let operand): stack.append((operand, depth + 1))
            case .binary(_, let left, let right): stack += [(left, depth + 1), (right, depth + 1)]
            case .call(_, let arguments): stack += arguments.map { ($0, depth + 1) }
            }
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

/// An `NSRegularExpression`, which Apple documents as immutable and safe to share between threads.
struct FormulaRegex: @unchecked Sendable {
    let regex: NSRegularExpression

    init(_ pattern: String) throws(FormulaFailure) {
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            throw FormulaFailure("REGEX_MATCH: \(FormulaValue.excerpt(pattern)) is not a valid regular expression")
        }
    }

    func matches(_ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

private struct FormulaCompiler {
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
            if function == .regexMatch, case .constant(.text(let pattern)) = compiled[1] {
                do {
                    return .regexMatch(compiled[0], try FormulaRegex(pattern))
                } catch {
                    throw FormulaError("Invalid formula: " + error.message)
                }
            }
            return .call(function, compiled)
        }
    }
}
