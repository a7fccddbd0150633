import Airtable
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

    /// The formula's value for one record; its regular expressions draw on `budget` (shared by a listing's
    /// records), or on a budget of their own (`FormulaBudget.evaluationSteps`).
    public func evaluate(_ record: FormulaRecord, budget: FormulaBudget? = nil) -> FormulaValue {
        let evaluator = FormulaEvaluator(record: record, budget: budget ?? FormulaBudget(steps: FormulaBudget.evaluationSteps))
        do {
            return try evaluator.evaluate(root)
        } catch {
            return .error(error.message)
        }
    }

    /// Airtable's filter truthiness: kept unless 0, false, "", NaN, blank, [] or an error.
    public func matches(_ record: FormulaRecord, budget: FormulaBudget? = nil) -> Bool {
        evaluate(record, budget: budget).isTruthy
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
