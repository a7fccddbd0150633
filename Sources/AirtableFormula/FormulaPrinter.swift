import Airtable
/// Canonical formula text: what `Formula.parse` reads back to the same tree.
///
/// Strings are printed with `Formula.quoted` and field references with `Formula.field`, the only two
/// places that escape anything. Parentheses appear only where precedence needs them. Comparisons
/// print without spaces (`{Name}='x'`) and calls with `", "` between arguments, as pyairtable does.
extension FormulaExpression: CustomStringConvertible {
    public var description: String {
        var out = ""
        FormulaPrinter.write(self, into: &out)
        return out
    }
}

enum FormulaPrinter {
    static func write(_ expression: FormulaExpression, into out: inout String) {
        switch expression {
        case .number(let value):
            out += numberLiteral(value)
        case .text(let value):
            out += Formula.quoted(value)
        case .field(let name):
            out += Formula.field(name)
        case .unary(.negate, let operand):
            out += "-"
            // `-(5)` keeps a negated literal apart from the literal -5 (which `-5` reads as).
            switch operand {
            case .binary, .number: writeParenthesized(operand, into: &out)
            default: write(operand, into: &out)
            }
        case .binary(let op, let left, let right):
            writeOperand(left, of: op, needsParenthesesAtSamePrecedence: false, into: &out)
            out += op.isComparison ? op.rawValue : " \(op.rawValue) "
            writeOperand(right, of: op, needsParenthesesAtSamePrecedence: true, into: &out)
        case .call(let name, let arguments):
            out += name
            out += "("
            for (index, argument) in arguments.enumerated() {
                if index > 0 { out += ", " }
                write(argument, into: &out)
            }
            out += ")"
        }
    }

    /// Operators associate to the left, so a right operand of equal precedence needs parentheses.
    private static func writeOperand(_ operand: FormulaExpression, of parent: FormulaBinaryOperator,
                                     needsParenthesesAtSamePrecedence: Bool, into out: inout String) {
        if case .binary(let op, _, _) = operand,
           op.precedence < parent.precedence || (needsParenthesesAtSamePrecedence && op.precedence == parent.precedence)
        {
            writeParenthesized(operand, into: &out)
        } else {
            write(operand, into: &out)
        }
    }

    private static func writeParenthesized(_ expression: FormulaExpression, into out: inout String) {
        out += "("
        write(expression, into: &out)
        out += ")"
    }

    /// A literal the lexer reads back to the same value. Airtable has no literal for infinity or
    /// NaN (they only arise from arithmetic), so those print as `ERROR()`.
    static func numberLiteral(_ value: Double) -> String {
        guard value.isFinite else { return "ERROR()" }
        return FormulaNumberText.format(value)
    }
}
