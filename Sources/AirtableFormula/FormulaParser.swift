import Airtable
/// Recursive descent over the tokens, by precedence climbing: comparison < `&` < `+ -` < `* /` < unary.
///
/// Hostile input cannot exhaust the stack: the tree's depth is counted as it grows (nesting, unary
/// chains and long operator chains alike) and refused past `Formula.maximumDepth`, since evaluating,
/// comparing and freeing the tree all recurse over it.
struct FormulaParser {
    private let lexer: FormulaLexer
    private let tokens: [FormulaToken]
    private var index = 0

    init(_ text: String) throws(FormulaError) {
        var lexer = FormulaLexer(text)
        tokens = try lexer.tokens()
        self.lexer = lexer
    }

    mutating func parseFormula() throws(FormulaError) -> FormulaExpression {
        guard current.kind != .end else { throw FormulaError("Invalid formula: the formula is empty", position: 1) }
        let (expression, _) = try parseBinary(minimumPrecedence: 1, depth: 1)
        guard current.kind == .end else {
            if current.kind == .rightParenthesis {
                throw error("')' at character \(position(current)) has no '(' to close", at: current)
            }
            var message = "expected an operator at character \(position(current)), found \(describe(current))"
            if case .identifier(let word) = current.kind, ["AND", "OR", "NOT", "XOR"].contains(word.uppercased()) {
                message += "; logic is written as a function: \(word.uppercased())(a, b)"
            }
            throw error(message, at: current)
        }
        return expression
    }

    private var current: FormulaToken { tokens[index] }
    private var following: FormulaToken { tokens[min(index + 1, tokens.count - 1)] }

    /// A subtree and its depth.
    private typealias Parsed = (FormulaExpression, Int)

    private mutating func parseBinary(minimumPrecedence: Int, depth: Int) throws(FormulaError) -> Parsed {
        var (left, leftDepth) = try parseUnary(depth: depth)
        while case .binaryOperator(let op) = current.kind, op.precedence >= minimumPrecedence {
            let operatorToken = current
            index += 1
            let (right, rightDepth) = try parseBinary(minimumPrecedence: op.precedence + 1, depth: depth + 1)
            let combined = max(leftDepth, rightDepth) + 1
            try checkDepth(max(depth, combined), at: operatorToken)
            left = .binary(op, left, right)
            leftDepth = combined
        }
        return (left, leftDepth)
    }

    private mutating func parseUnary(depth: Int) throws(FormulaError) -> Parsed {
        while current.kind == .binaryOperator(.add) { index += 1 }
        guard current.kind == .binaryOperator(.subtract) else { return try parsePrimary(depth: depth) }
        let minus = current
        try checkDepth(depth, at: minus)
        index += 1
        // `-5` is the literal -5, so a printed negative literal reads back as the same tree.
        if case .number(let value) = current.kind {
            index += 1
            return (.number(-value), 1)
        }
        let (operand, operandDepth) = try parseUnary(depth: depth + 1)
        return (.unary(.negate, operand), operandDepth + 1)
    }

    private mutating func parsePrimary(depth: Int) throws(FormulaError) -> Parsed {
        let token = current
        switch token.kind {
        case .number(let value):
            index += 1
            return (.number(value), 1)
        case .text(let value):
            index += 1
            return (.text(value), 1)
        case .bracedField(let name):
            index += 1
            return (.field(name), 1)
        case .identifier(let word):
            index += 1
            guard current.kind == .leftParenthesis else { return (.field(word), 1) }
            return try parseCall(named: word, at: token, depth: depth)
        case .leftParenthesis:
            try checkDepth(depth, at: token)
            index += 1
            let inner = try parseBinary(minimumPrecedence: 1, depth: depth + 1)
            guard current.kind == .rightParenthesis else {
                throw error("'(' at character \(position(token)) is never closed: expected ')' at character "
                    + "\(position(current)), found \(describe(current))", at: current)
            }
            index += 1
            return inner
        case .rightParenthesis:
            throw error("expected a value at character \(position(token)), found ')'", at: token)
        case .comma:
            throw error("expected a value at character \(position(token)), found ','", at: token)
        case .binaryOperator(let op):
            throw error("expected a value before '\(op.rawValue)' at character \(position(token))", at: token)
        case .end:
            throw error("the formula ends where a value is expected (character \(position(token)))", at: token)
        }
    }

    private mutating func parseCall(named word: String, at nameToken: FormulaToken, depth: Int)
        throws(FormulaError) -> Parsed
    {
        try checkDepth(depth, at: nameToken)
        let name = word.uppercased()
        let open = current
        index += 1
        var arguments: [FormulaExpression] = []
        var deepest = 0
        if current.kind == .rightParenthesis {
            index += 1
            return (.call(name, []), 1)
        }
        while true {
            if current.kind == .comma || current.kind == .rightParenthesis {
                throw error("argument \(arguments.count + 1) of \(name) is missing at character \(position(current))",
                            at: current)
            }
            let (argument, argumentDepth) = try parseBinary(minimumPrecedence: 1, depth: depth + 1)
            arguments.append(argument)
            deepest = max(deepest, argumentDepth)
            switch current.kind {
            case .comma:
                index += 1
            case .rightParenthesis:
                index += 1
                return (.call(name, arguments), deepest + 1)
            case .end:
                throw error("\(name)( at character \(position(open)) is never closed: expected ')' at the end "
                    + "of the formula", at: current)
            default:
                throw error("expected ',' or ')' after argument \(arguments.count) of \(name) at character "
                    + "\(position(current)), found \(describe(current))", at: current)
            }
        }
    }

    private func checkDepth(_ depth: Int, at token: FormulaToken) throws(FormulaError) {
        guard depth <= Formula.maximumDepth else {
            throw error("the formula nests too deeply (more than \(Formula.maximumDepth) levels of parentheses, "
                + "calls and operators) at character \(position(token))", at: token)
        }
    }

    private func position(_ token: FormulaToken) -> Int { lexer.position(token.start) }

    private func error(_ message: String, at token: FormulaToken) -> FormulaError {
        FormulaError("Invalid formula: " + message, position: position(token))
    }

    /// The token as written, shortened, for messages.
    private func describe(_ token: FormulaToken) -> String {
        if token.kind == .end { return "the end of the formula" }
        let written = String(String.UnicodeScalarView(lexer.scalars[token.start..<token.end]))
        return written.count > 40 ? "\(written.prefix(40))…" : written
    }
}
