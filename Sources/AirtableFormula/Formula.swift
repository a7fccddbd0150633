import Airtable
/// Airtable's formula language: parsing, and the two escaping functions every formula text is built with.
///
/// The pieces: `Formula.parse` reads text into a `FormulaExpression` (whose `description` prints it
/// back); `CompiledFormula` checks it against a table's fields and evaluates it on `FormulaRecord`s,
/// giving `FormulaValue`s; the builders in `FormulaBuilders.swift` make expressions from user input
/// without pasting text.
///
/// Where Airtable's behaviour is undocumented (reference §10.4, §16), these are the choices made:
/// - Blank equals `""`, `0` and `FALSE()`; an unchecked checkbox equals `0` and `FALSE()`.
/// - `=` on text is exact and case-sensitive; FIND and SEARCH are case-sensitive too.
/// - A number against numeric text compares numerically (`{Qty} = '2'`); text against text never does.
/// - Lists (multiple selects, attachments) read as their ", "-joined text; ARRAYJOIN's default
///   separator is ", ".
/// - Arithmetic is JavaScript's: `1/0` is Infinity, `0/0` NaN, MOD keeps the dividend's sign.
///   Arithmetic on text that is not a number, or on dates, is an error.
/// - Positions and lengths count characters as a person does (one per CJK character or emoji).
/// - Dates are instants; the record's time zone (UTC by default, as in Airtable) reads date-only
///   cells and zone-less text, makes TODAY(), and writes a date's text (`…Z` in UTC, `…+08:00` in Taipei).
/// - `<>` is accepted as `!=`; `==`, `&&`, `||` and `!` are refused with a hint.
/// - In strings, unknown escapes keep their backslash (`'\d+'` is the regex `\d+`).
public enum Formula {
    /// The longest formula accepted, in Unicode scalars. Airtable's URLs stop at 16,000 characters, but
    /// `POST …/listRecords` bodies can carry more (700 `RECORD_ID()='rec…'` terms are about 20,000).
    public static let maximumLength = 1_000_000

    /// The deepest tree accepted: nesting of parentheses and calls plus chains of operators.
    public static let maximumDepth = 400

    /// Parses formula text (Airtable syntax). Errors say what was wrong and where (character position).
    ///
    /// Function names are case-insensitive and come back in upper case; whether the functions and
    /// fields exist is checked by `CompiledFormula`.
    public static func parse(_ text: String) throws(FormulaError) -> FormulaExpression {
        let length = text.unicodeScalars.count
        guard length <= maximumLength else {
            throw FormulaError("Invalid formula: the formula is \(length) characters long; the limit is \(maximumLength)")
        }
        var parser = try FormulaParser(text)
        return try parser.parseFormula()
    }

    /// The one escaping function for string literals: `'…'` with `\` and `'` escaped, as pyairtable's
    /// `quoted()` does (`O'Brien` becomes `'O\'Brien'`).
    public static func quoted(_ string: String) -> String {
        var out = "'"
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "'": out += "\\'"
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "'"
        return out
    }

    /// A field reference `{name}` with `}` escaped as `\}`, as pyairtable's `field_name()` does.
    ///
    /// A backslash is doubled only where it would otherwise be read as an escape (before `}`, before
    /// another backslash, or at the end), so ordinary names print exactly as pyairtable prints them.
    public static func field(_ name: String) -> String {
        var out = "{"
        let scalars = Array(name.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "}":
                out += "\\}"
            case "\\":
                let next = index + 1 < scalars.count ? scalars[index + 1] : nil
                out += next == nil || next == "}" || next == "\\" ? "\\\\" : "\\"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "}"
        return out
    }
}
