import TextScalars
/// A plain-text table whose columns line up by terminal display width, so a column of Chinese drink
/// names (two columns per character) lines up with the ASCII prices beside it.
///
/// Cells may carry styles from `ColorPolicy.paint`: escape sequences take no width. Line breaks and
/// tabs inside a cell become spaces and other control characters are dropped, since either would break
/// the grid. A row shorter than the header is filled with empty cells; a longer one gets untitled,
/// left-aligned columns, so no value is ever lost.
public struct TextTable: Sendable, Equatable {
    /// One column: its title, how its cells align, optionally a width past which cells are cut
    /// with "…", and how it gives way when the table must fit a narrower screen.
    public struct Column: Sendable, Equatable {
        public var title: String
        public var alignment: TextAlignment
        public var maxWidth: Int?
        /// The narrowest this column may be cut to (cells end in "…") when the table is too wide;
        /// nil keeps it at its full width.
        public var minWidth: Int?
        /// When the table is still too wide after narrowing, columns with a rank are left out, the
        /// lowest rank first; nil never leaves the column out (the columns a reader cannot do without).
        public var dropRank: Int?

        /// Creates a column titled `title`.
        public init(_ title: String, alignment: TextAlignment = .left, maxWidth: Int? = nil,
                    minWidth: Int? = nil, dropRank: Int? = nil) {
            self.title = title
            self.alignment = alignment
            self.maxWidth = maxWidth
            self.minWidth = minWidth
            self.dropRank = dropRank
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
    ///
    /// - Parameter width: the screen's columns; nil (a pipe, a file) shows every column at full width.
    ///   Otherwise the table is fitted like `ps` or `kubectl get`: columns with a `minWidth` are
    ///   narrowed (the one with the most room above its minimum first), then columns with a `dropRank` are left out, and as a last resort
    ///   every line is cut, so no line is wider than `width`.
    public func lines(style: ColorPolicy = .plain, width: Int? = nil) -> [String] {
        let allColumns = columnsCoveringEveryRow()
        let header = allColumns.map { Self.clean($0.title) }
        let body = rows.map { row in allColumns.indices.map { $0 < row.count ? Self.clean(row[$0]) : "" } }
        let natural = allColumns.indices.map { index in
            let widest = ([header[index]] + body.map { $0[index] }).map(\.displayWidth).max() ?? 0
            return allColumns[index].maxWidth.map { min($0, widest) } ?? widest
        }
        let fit = TableFit(columns: allColumns, natural: natural, gap: gap, width: width)
        let shown = fit.shown
        let columns = shown.map { allColumns[$0] }
        let pick = { (cells: [String]) in shown.map { cells[$0] } }
        var lines = [render(pick(header), columns: columns, widths: fit.widths, cellStyles: [.bold], style: style)]
        let rule = fit.widths.map { String(repeating: "-", count: $0) }.joined(separator: spacing)
        lines.append(style.paint(rule, .dim))
        lines += body.map { render(pick($0), columns: columns, widths: fit.widths, cellStyles: [], style: style) }
        guard let width else { return lines }
        // Only when even the key columns do not fit: cut the line rather than let the terminal wrap it.
        return lines.map { $0.displayWidth > width ? $0.truncated(toWidth: width) : $0 }
    }

    /// The table as text: `lines(style:width:)` joined, each ended by a newline.
    public func render(style: ColorPolicy = .plain, width: Int? = nil) -> String {
        lines(style: style, width: width).map { $0 + "\n" }.joined()
    }

    /// The titles of the columns `lines(width:)` leaves out at this width (none when nil).
    public func droppedColumns(width: Int?) -> [String] {
        let allColumns = columnsCoveringEveryRow()
        let natural = allColumns.indices.map { index in
            let widest = ([allColumns[index].title] + rows.map { index < $0.count ? Self.clean($0[index]) : "" })
                .map(\.displayWidth).max() ?? 0
            return allColumns[index].maxWidth.map { min($0, widest) } ?? widest
        }
        let shown = Set(TableFit(columns: allColumns, natural: natural, gap: gap, width: width).shown)
        return allColumns.indices.filter { !shown.contains($0) }.map { allColumns[$0].title }
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

    /// A cell's text made safe for one grid line: line breaks and tabs (U+2028 and U+2029 too) become spaces,
    /// then the terminal encoder draws whatever else is hidden (our colours keep their place).
    private static func clean(_ text: String) -> String {
        let flat = text.replacingHiddenScalars { scalar in
            switch scalar {
            case "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": " "
            default: String(scalar)
            }
        }
        return TerminalSafeText.encode(flat)
    }
}
