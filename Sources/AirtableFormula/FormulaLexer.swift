import Airtable
/// One token of formula text, with where it starts and ends (offsets into the text's Unicode scalars).
struct FormulaToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case number(Double)
        case text(String)
        /// `{Name}`, already unescaped.
        case bracedField(String)
        /// A bare word: a function name before `(`, otherwise a single-word field name.
        case identifier(String)
        case leftParenthesis, rightParenthesis, comma
        case binaryOperator(FormulaBinaryOperator)
        case end
    }

    var kind: Kind
    var start: Int
    var end: Int
}

/// Splits formula text into tokens. Errors name the offending character and its position.
///
/// Escapes: in strings `\'`, `\"`, `\\`, `\n` and `\t`; any other backslash is kept with the character
/// after it (so `'\d+'` stays a usable regular expression). In `{…}`, `\}` is a brace and `\\` a
/// backslash; any other backslash is kept as it is, so names written by pyairtable read the same.
struct FormulaLexer {
    let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// Every token, ending with `.end`.
    mutating func tokens() throws(FormulaError) -> [FormulaToken] {
        var tokens: [FormulaToken] = []
        while true {
            let token = try next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private mutating func next() throws(FormulaError) -> FormulaToken {
        while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
        let start = index
        guard index < scalars.count else { return FormulaToken(kind: .end, start: start, end: start) }
        let scalar = scalars[index]
        let kind: FormulaToken.Kind
        switch scalar {
        case "0"..."9":
            kind = .number(try number())
        case "." where index + 1 < scalars.count && ("0"..."9").contains(scalars[index + 1]):
            kind = .number(try number())
        case "'", "\"":
            kind = .text(try string(closing: scalar))
        case "{":
            kind = .bracedField(try bracedName())
        case "(": index += 1; kind = .leftParenthesis
        case ")": index += 1; kind = .rightParenthesis
        case ",": index += 1; kind = .comma
        case "=", "!", "<", ">", "&", "|", "+", "-", "*", "/":
            kind = .binaryOperator(try binaryOperator())
        case "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}":
            throw error("the curly quote \(scalar) at character \(position(start)) is not allowed; use straight quotes ' or \"",
                        at: start)
        case "}":
            throw error("unexpected '}' at character \(position(start)) with no '{' before it", at: start)
        default:
            guard Self.startsIdentifier(scalar) else {
                var message = "unexpected character '\(scalar)' at character \(position(start))"
                // Full-width punctuation (（ ） ， ＝) is easy to type with a CJK input method.
                if (0xFF01...0xFF5E).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFEE0) {
                    message += "; did you mean '\(ascii)'?"
                }
                throw error(message, at: start)
            }
            while index < scalars.count, Self.continuesIdentifier(scalars[index]) { index += 1 }
            kind = .identifier(String(String.UnicodeScalarView(scalars[start..<index])))
        }
        return FormulaToken(kind: kind, start: start, end: index)
    }

    private mutating func number() throws(FormulaError) -> Double {
        let start = index
        func digits() { while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 } }
        digits()
        if index < scalars.count, scalars[index] == "." {
            index += 1
            digits()
        }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            var lookahead = index + 1
            if lookahead < scalars.count, scalars[lookahead] == "+" || scalars[lookahead] == "-" { lookahead += 1 }
            if lookahead < scalars.count, ("0"..."9").contains(scalars[lookahead]) {
                index = lookahead
                digits()
            }
        }
        let text = String(String.UnicodeScalarView(scalars[start..<index]))
        if index < scalars.count, Self.continuesIdentifier(scalars[index]) || scalars[index] == "." {
            throw error("the number \(text) at character \(position(start)) runs into '\(scalars[index])'; "
                + "put an operator or a space between them, or write a field name as {\(text)\(scalars[index])…}",
                at: index)
        }
        guard let value = Double(text), value.isFinite else {
            throw error("the number \(text.prefix(40)) at character \(position(start)) is too large", at: start)
        }
        return value
    }

    private mutating func string(closing quote: Unicode.Scalar) throws(FormulaError) -> String {
        let start = index
        index += 1
        var value = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == quote {
                index += 1
                return String(value)
            }
            if scalar == "\\", index + 1 < scalars.count {
                let escaped = scalars[index + 1]
                switch escaped {
                case "'", "\"", "\\": value.append(escaped)
                case "n": value.append("\n")
                case "t": value.append("\t")
                default: value.append(scalar); value.append(escaped)
                }
                index += 2
                continue
            }
            value.append(scalar)
            index += 1
        }
        throw error("the text starting at character \(position(start)) is never closed; add a \(quote) at its end",
                    at: start)
    }

    private mutating func bracedName() throws(FormulaError) -> String {
        let start = index
        index += 1
        var name = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "}" {
                index += 1
                guard !name.isEmpty else {
                    throw error("the field name in {} at character \(position(start)) is empty", at: start)
                }
                return String(name)
            }
            if scalar == "\\", index + 1 < scalars.count, scalars[index + 1] == "}" || scalars[index + 1] == "\\" {
                name.append(scalars[index + 1])
                index += 2
                continue
            }
            name.append(scalar)
            index += 1
        }
        throw error("the field name starting with '{' at character \(position(start)) is never closed; add a '}'",
                    at: start)
    }

    private mutating func binaryOperator() throws(FormulaError) -> FormulaBinaryOperator {
        let start = index
        let first = scalars[index]
        let second: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
        index += 1
        func take(_ op: FormulaBinaryOperator) -> FormulaBinaryOperator {
            index += 1
            return op
        }
        switch (first, second) {
        case ("=", "="):
            throw error("'==' at character \(position(start)) is not an operator; compare with a single '='", at: start)
        case ("=", _): return .equal
        case ("!", "="): return take(.notEqual)
        case ("!", _):
            throw error("'!' at character \(position(start)) is not an operator; use NOT(…) or '!='", at: start)
        case ("<", ">"): return take(.notEqual)
        case ("<", "="): return take(.lessOrEqual)
        case ("<", _): return .less
        case (">", "="): return take(.greaterOrEqual)
        case (">", _): return .greater
        case ("&", "&"):
            throw error("'&&' at character \(position(start)) is not an operator; use AND(a, b)", at: start)
        case ("&", _): return .concatenate
        case ("|", _):
            throw error("'|' at character \(position(start)) is not an operator; use OR(a, b)", at: start)
        case ("+", _): return .add
        case ("-", _): return .subtract
        case ("*", _): return .multiply
        default: return .divide
        }
    }

    /// The 1-based character (grapheme) position of a scalar offset, as a person counts along the text.
    func position(_ scalarOffset: Int) -> Int {
        String(String.UnicodeScalarView(scalars[0..<min(scalarOffset, scalars.count)])).count + 1
    }

    private func error(_ message: String, at scalarOffset: Int) -> FormulaError {
        FormulaError("Invalid formula: " + message, position: position(scalarOffset))
    }

    static func startsIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    static func continuesIdentifier(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            || scalar.properties.generalCategory == .nonspacingMark
    }
}
