import Testing
@testable import LineEditor

@Suite struct TerminalTableTests {
    private var menu: TextTable {
        TextTable(
            columns: [.init("drink"), .init("medium", alignment: .right), .init("large", alignment: .right)],
            rows: [["白玉歐蕾", "55", "70"], ["Milk tea", "50", ""], ["熟成紅茶", "30", "35"]]
        )
    }

    /// The display column where `needle` starts in `line`.
    private func column(of needle: String, in line: String) -> Int? {
        guard let range = line.range(of: needle) else { return nil }
        return line[..<range.lowerBound].displayWidth
    }

    @Test func alignsMixedChineseAndASCIIByDisplayWidth() {
        let lines = menu.lines()
        #expect(lines == [
            "drink     medium  large",
            "--------  ------  -----",
            "白玉歐蕾      55     70",
            "Milk tea      50",
            "熟成紅茶      30     35",
        ])
        let mediumColumns = [column(of: "55", in: lines[2]), column(of: "50", in: lines[3]),
                             column(of: "30", in: lines[4])]
        #expect(mediumColumns == [14, 14, 14])
    }

    @Test func styledTableAlignsLikeThePlainOne() {
        let styled = menu.lines(style: .styled)
        #expect(styled.map(\.removingTerminalEscapes) == menu.lines())
        #expect(styled[0].contains("\u{1B}[1m"))
        #expect(styled[1].hasPrefix("\u{1B}[2m"))
    }

    @Test func styledCellsKeepTheGrid() {
        let paint = ColorPolicy.styled
        let table = TextTable(columns: [.init("name"), .init("status")],
                              rows: [[paint.paint("少糖", .green), "ok"], ["x", paint.paint("sold out", .red)]])
        let plain = table.lines().map(\.removingTerminalEscapes)
        #expect(plain == ["name  status", "----  --------", "少糖  ok", "x     sold out"])
    }

    @Test func cutsCellsAtAColumnMaximum() {
        let table = TextTable(columns: [.init("note", maxWidth: 6), .init("n")],
                              rows: [["去冰少糖加白玉", "1"]])
        #expect(table.lines() == ["note    n", "------  -", "去冰…   1"])
    }

    @Test func fillsShortRowsAndKeepsExtraCells() {
        let table = TextTable(columns: [.init("a"), .init("b")], rows: [["1"], ["2", "3", "extra"]])
        #expect(table.lines() == ["a  b", "-  -  -----", "1", "2  3  extra"])
    }

    @Test func controlCharactersCannotBreakTheGrid() {
        // Line breaks and tabs become spaces; any other control is drawn (its control picture), not obeyed.
        let table = TextTable(columns: [.init("note")], rows: [["line\nbreak\tand\u{7}bell\u{2028}\u{1B}[2K"]])
        #expect(table.lines()[2] == "line break and␇bell ␛[2K")
    }

    @Test func renderEndsEveryLine() {
        #expect(menu.render().split(separator: "\n", omittingEmptySubsequences: false).count == 6)
        #expect(menu.render().hasSuffix("35\n"))
    }
}
