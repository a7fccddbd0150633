import Airtable

/// What the schema and comment routes accept as text: no control characters (Unicode's Cc: U+0000–U+001F,
/// U+007F–U+009F). A NUL or an escape in a table name made a table that looked like `Drink` to a person and
/// was not `Drink` to a counter, which then made a second, empty one.
///
/// Names are one line: every control character is refused. Descriptions and comments are several lines in
/// Airtable's own editor, so a line feed (and a tab, and the carriage return of a CRLF) stays allowed there;
/// every other control character is refused.
enum TextRules {
    /// What a piece of text is, for the error message.
    enum Kind: String {
        case tableName = "a table name"
        case fieldName = "a field name"
        case description = "a description"
        case comment = "a comment"

        var allowsLineBreaks: Bool { self == .description || self == .comment }
    }

    /// The first control character `kind` does not allow in `text`, with its position (counted in
    /// characters from 1); nil when there is none.
    static func forbiddenCharacter(in text: String, kind: Kind) -> (scalar: Unicode.Scalar, position: Int)? {
        var position = 0
        for scalar in text.unicodeScalars {
            position += 1
            guard scalar.properties.generalCategory == .control else { continue }
            if kind.allowsLineBreaks && (scalar == "\n" || scalar == "\t" || scalar == "\r") { continue }
            return (scalar, position)
        }
        return nil
    }

    /// Throws Airtable's 422 when `text` holds a control character `kind` does not allow; the message names the
    /// character as `U+001B`, never the character itself.
    static func check(_ text: String, as kind: Kind) throws(APIError) {
        guard let (scalar, position) = forbiddenCharacter(in: text, kind: kind) else { return }
        let code = String(scalar.value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
        throw .invalidRequest("\(kind.rawValue) cannot contain control characters; U+\(padded) is at position "
            + "\(position)" + (kind.allowsLineBreaks ? " (only line feeds, carriage returns and tabs are allowed)" : ""))
    }
}
