import TextScalars

/// A table written as CSV that Excel opens correctly with Chinese text: RFC 4180 quoting, CRLF
/// line ends, UTF-8 with a byte-order mark (without it Excel reads the bytes as the local code page).
public struct CSVTable: Sendable, Hashable {
    public let header: [String]
    public private(set) var rows: [[String]]

    public init(header: [String], rows: [[String]] = []) {
        self.header = header
        self.rows = rows
    }

    /// Adds a row; short rows are padded with empty fields, long ones keep their extra fields.
    public mutating func append(_ row: [String]) {
        rows.append(row.count < header.count ? row + Array(repeating: "", count: header.count - row.count) : row)
    }

    /// The file's text, without the byte-order mark.
    public var text: String { headerText + rowsText }

    /// The header line (CRLF-terminated).
    public var headerText: String { Self.line(header) }

    /// The rows without the header: a file written a part at a time is the header, then each part's rows.
    public var rowsText: String { rows.map(Self.line).joined() }

    private static func line(_ fields: [String]) -> String { fields.map(field).joined(separator: ",") + "\r\n" }

    /// The file's bytes: the UTF-8 byte-order mark, then `text` in UTF-8.
    public var bytes: [UInt8] { [0xEF, 0xBB, 0xBF] + Array(text.utf8) }

    /// Free text (a customer's name, a reason, a note) made safe for a spreadsheet: text starting
    /// with `=`, `+`, `-`, `@`, a tab or a CR would be run as a formula by Excel, so it gets a leading
    /// apostrophe. Use it for text only: numbers such as refunds (-35) stay as they are.
    public static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) else { return value }
        return "'" + value
    }

    /// One field: the one CSV encoder. It works on Unicode scalars (a `"` followed by U+0301 is one `Character`
    /// and no quote): every hidden scalar (a line break, a tab, an escape, a bidi control that would turn the
    /// sheet's text around, a zero-width character, U+2028) becomes U+FFFD, so a field is one line that reads
    /// as it is; the field is quoted when it holds a comma or a quote, or starts or ends with a space (which
    /// spreadsheet programs would otherwise trim); quotes inside are doubled.
    public static func field(_ value: String) -> String {
        let shown = value.replacingHiddenScalars { _ in "\u{FFFD}" }
        let needsQuotes = shown.unicodeScalars.contains { $0 == "," || $0 == "\"" }
            || shown.unicodeScalars.first == " " || shown.unicodeScalars.last == " "
        guard needsQuotes else { return shown }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in shown.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append("\"") }
        }
        quoted.append("\"")
        return String(quoted)
    }
}
