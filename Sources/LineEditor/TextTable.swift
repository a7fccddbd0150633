/// A plain-text table whose columns line up by terminal display width, so a column of Chinese drink
/// names (two columns per character) lines up with the ASCII prices beside it.
///
/// Cells may carry styles from `ColorPolicy.paint`: escape sequences take no width. Line breaks and
/// tabs inside a cell become spaces and other control characters are dropped, since either would break
/// the grid. A row shorter than the header is filled with empty cells; a longer one gets untitled,
/// left-aligned columns, so no value is ever lost.
public struct TextTable: Sendable, Equatable {
    /// One column: its title, how its cells align, and optionally a width past which cells are cut
    /// with "…".
    public struct Column: Sendable, Equatable {
        public var title: String
        public var alignment: TextAlignment
        public var maxWidth: Int?

        /// Creates a column titled `title`.
        public init(_ title: String, alignment: TextAlignment = .left, maxWidth: Int? = nil) {
            self.title = title
            self.alignment = alignment
            self.maxWidth = maxWidth
        }
    }

    /// The columns, left to right.
    public var columns: [Column]
    /// The rows of cells, top to bottom.
    public var rows: [[String]]
    /// Spaces between two columns.
    public var gap: Int = 2

    /// Creates a table with these columns and rows.
    public init(columns: [Column], rows: [[String]] = []) {
        self.columns = columns
        self.rows = rows
    }

    /// Adds a row at the bottom.
    public mutating func append(_ row: [String]) {
        rows.append(row)
    }

    /// The table as lines: a header (bold when styled), a rule of dashes (dim), then the rows.
    /// Lines carry no trailing spaces.
    public func lines(style: ColorPolicy = .plain) -> [String] {
        let allColumns = columnsCoveringEveryRow()
        let header = allColumns.map { Self.clean($0.title) }
        let body = rows.map { row in allColumns.indices.map { $0 < row.count ? Self.clean(row[$0]) : "" } }
        let widths = allColumns.indices.map { index in
            let natural = ([header[index]] + body.map { $0[index] }).map(\.displayWidth).max() ?? 0
            return allColumns[index].maxWidth.map { min($0, natural) } ?? natural
        }
        var lines = [render(header, columns: allColumns, widths: widths, cellStyles: [.bold], style: style)]
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: spacing)
        lines.append(style.paint(rule, .dim))
        lines += body.map { render($0, columns: allColumns, widths: widths, cellStyles: [], style: style) }
        return lines
    }

    /// The table as text: `lines(style:)` joined, each ended by a newline.
    public func render(style: ColorPolicy = .plain) -> String {
        lines(style: style).map { $0 + "\n" }.joined()
    }

    private var spacing: String { String(repeating: " ", count: gap) }

    private func columnsCoveringEveryRow() -> [Column] {
        let widest = rows.map(\.count).max() ?? 0
        return columns + Array(repeating: Column(""), count: max(0, widest - columns.count))
    }

    private func render(
        _ cells: [String], columns: [Column], widths: [Int], cellStyles: [TerminalStyle], style: ColorPolicy
    ) -> String {
        let padded = cells.indices.map { index in
            let text = cells[index].truncated(toWidth: widths[index])
            let painted = style.paint(text, styles: cellStyles)
            return painted.padded(toWidth: widths[index], alignment: columns[index].alignment)
        }
        var line = padded.joined(separator: spacing)
        while line.last == " " { line.removeLast() }
        return line
    }

    /// A cell's text made safe for one grid line. Escape keeps its place: it starts the styles.
    private static func clean(_ text: String) -> String {
        // Most cells hold no control character and no line break: nothing to do.
        if text.unicodeScalars.allSatisfy({ scalar in
            let value = scalar.value
            return value >= 0x20 && !(0x7F...0x9F).contains(value) && value != 0x2028 && value != 0x2029
        }) {
            return text
        }
        var result = ""
        for character in text {
            if character.isNewline || character == "\t" {
                result.append(" ")
            } else if character == "\u{1B}" || !character.unicodeScalars.allSatisfy(isControl) {
                result.append(character)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
