import Airtable
/// A parsed formula: Airtable's formula language as a tree.
///
/// `Formula.parse` builds it from text; its `description` prints it back as canonical formula text
/// that parses to the same tree. Code that builds formulas from user input builds this tree (see the
/// builders in `FormulaBuilders.swift`) instead of pasting text, so values are always escaped.
public indirect enum FormulaExpression: Sendable, Hashable {
    /// A number literal (`2`, `2.5`; `-3` when the minus is written right before the digits).
    case number(Double)
    /// A string literal, already unescaped.
    case text(String)
    /// A field reference, by name or field id, as written between `{ }` or bare.
    case field(String)
    /// A prefix operator applied to an operand (`-{Qty}`).
    case unary(FormulaUnaryOperator, FormulaExpression)
    /// An infix operator (`{Qty} * 2`, `{Name} = 'x'`, `{First} & ' ' & {Last}`).
    case binary(FormulaBinaryOperator, FormulaExpression, FormulaExpression)
    /// A function call; the parser writes the name in upper case, as function names are case-insensitive.
    case call(String, [FormulaExpression])
}

/// The prefix operators.
public enum FormulaUnaryOperator: String, Sendable, Hashable, CaseIterable {
    case negate = "-"
}

/// The infix operators, with Airtable's precedence: comparison < `&` < `+ -` < `* /`.
public enum FormulaBinaryOperator: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case less = "<"
    case greater = ">"
    case lessOrEqual = "<="
    case greaterOrEqual = ">="
    case concatenate = "&"
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"

    /// Binding strength: a higher number binds tighter. All operators associate to the left.
    public var precedence: Int {
        switch self {
        case .equal, .notEqual, .less, .greater, .lessOrEqual, .greaterOrEqual: return 1
        case .concatenate: return 2
        case .add, .subtract: return 3
        case .multiply, .divide: return 4
        }
    }

    /// Whether the operator compares and gives 1 or 0.
    public var isComparison: Bool { precedence == 1 }
}
