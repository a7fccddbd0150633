import Glibc
import Testing
@testable import LineEditor

/// Tables fitted to a screen's width the way `ps` and `kubectl get` do it.
@Suite struct TerminalTableFitTests {
    /// Orders as the counter lists them: number and total never give way, the name and drinks narrow,
    /// the cups go first, then the name.
    private var orders: TextTable {
        TextTable(
            columns: [.init("#", alignment: .right), .init("For", minWidth: 6, dropRank: 1),
                      .init("Drinks", minWidth: 12), .init("Cups", alignment: .right, dropRank: 0),
                      .init("Total", alignment: .right)],
            rows: [["1", "王小明（台積電十二廠夜班團購）", "熟成榛果歐蕾 大杯•無糖•完全去冰 x2; 白玉歐蕾 大杯•半糖•少冰", "3", "$215"],
                   ["12", "Amy", "熟成紅茶 大杯•半糖•少冰", "1", "$35"]])
    }

    @Test func withoutAWidthEveryColumnIsWhole() {
        #expect(orders.lines() == orders.lines(width: nil))
        #expect(orders.lines()[2].contains("王小明（台積電十二廠夜班團購）"))
        #expect(orders.droppedColumns(width: nil).isEmpty)
    }

    @Test func aWideEnoughScreenChangesNothing() {
        #expect(orders.lines(width: 200) == orders.lines())
    }

    @Test func narrowsTheColumnWithTheMostRoomFirstWithAnEllipsisByDisplayWidth() {
        let lines = orders.lines(width: 80)
        #expect(lines.allSatisfy { $0.displayWidth <= 80 })
        #expect(lines[0].contains("Cups") && lines[0].contains("For"))
        #expect(lines[2].hasSuffix("$215"))
        // The drinks (59 columns, 47 above their minimum) gave up 23 columns before the name (30, 24 above
        // its minimum) gave up any; then both gave way in turn.
        #expect(lines[2].contains("王小明（台積電十二廠夜班團…"))
        #expect(lines[2].contains("熟成榛果歐蕾 大杯•無糖•完全去冰 x…"))
        #expect(lines[0].displayWidth == 80 || lines[2].displayWidth == 80)
    }

    @Test func dropsColumnsByRankWhenNarrowingIsNotEnough() {
        // Every column at its minimum takes 37 columns: at 40 nothing goes.
        #expect(orders.droppedColumns(width: 40).isEmpty)
        let at34 = orders.lines(width: 34)
        #expect(orders.droppedColumns(width: 34) == ["Cups"])
        #expect(at34.allSatisfy { $0.displayWidth <= 34 })
        #expect(!at34[0].contains("Cups"))
        #expect(at34[0].contains("For"))
        let at28 = orders.lines(width: 28)
        #expect(orders.droppedColumns(width: 28) == ["For", "Cups"])
        #expect(at28.allSatisfy { $0.displayWidth <= 28 })
        #expect(at28[2].hasPrefix(" 1  熟成榛果") && at28[2].hasSuffix("$215"))
    }

    @Test func aWideCharacterIsNeverSplitAtTheCut() {
        let table = TextTable(columns: [.init("Drink", minWidth: 5), .init("$", alignment: .right)],
                              rows: [["熟成榛果歐蕾", "75"]])
        let lines = table.lines(width: 10)
        // Six columns for the drink: two characters and the ellipsis (five); the third would straddle the edge.
        #expect(lines[2] == "熟成…   75")
    }

    @Test func keyColumnsTooWideForTheScreenAreCutRatherThanWrapped() {
        let table = TextTable(columns: [.init("Number"), .init("Status")],
                              rows: [["1234567890", "preparing for a very long time"]])
        let lines = table.lines(width: 20)
        #expect(lines.allSatisfy { $0.displayWidth <= 20 })
        #expect(lines[2].hasPrefix("1234567890"))
    }

    @Test func styledCellsFitLikePlainOnes() {
        let paint = ColorPolicy.styled
        var table = orders
        table.rows[1][1] = paint.paint("Amy", .green)
        #expect(table.lines(style: .styled, width: 40).map(\.removingTerminalEscapes) == orders.lines(width: 40))
    }

    @Test func longLinesWrapAtSpacesWithAnIndent() {
        let text = "40 orders, 82 cups, $4,210; cancelled or voided (not revenue): 6 orders, 9 cups, $520"
        let wrapped = text.wrapped(toWidth: 40)
        let lines = wrapped.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.displayWidth <= 40 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") })
        #expect(wrapped.replacingOccurrences(of: "\n  ", with: " ") == text)
        #expect("short\nlines stay".wrapped(toWidth: 40) == "short\nlines stay")
        #expect("熟成榛果歐蕾熟成榛果歐蕾".wrapped(toWidth: 10) == "熟成榛果歐\n  蕾熟成榛\n  果歐蕾")
    }

    @Test("errors wrap at spaces or between CJK characters, never inside a word, and lose nothing")
    func messagesWrapNeverMidWord() {
        let error = "error: could not connect to http://127.0.0.1:8787 (is the server running?); the order is kept in the outbox and sent when the store answers (已暫存，稍後送出)"
        let wrapped = error.wrapped(toWidth: 80)
        let lines = wrapped.split(separator: "\n")
        #expect(lines.allSatisfy { $0.displayWidth <= 80 })
        #expect(!wrapped.contains("serv\n") && wrapped.contains("(is the server running?)") || wrapped.contains("(is the\n  server running?)")
                || wrapped.contains("(is the server\n  running?)"))
        // Every word is whole on some line.
        let words = Set(error.split(separator: " ").filter { !$0.contains { $0.displayWidth == 2 } })
        let shown = Set(wrapped.split(whereSeparator: { $0 == " " || $0 == "\n" }))
        #expect(words.isSubset(of: shown))
        // CJK text without spaces breaks between characters; its closing marks stay with what they close.
        let chinese = "no shift is open (未開班); 請先開班並點算零用金後再收現金，否則錢櫃對不上（交班時會不符）。"
        let cjk = chinese.wrapped(toWidth: 30)
        #expect(cjk.split(separator: "\n").allSatisfy { $0.displayWidth <= 30 })
        #expect(cjk.split(separator: "\n").allSatisfy { line in !(line.trimmingCharacters(in: .whitespaces).first.map { "，。）);".contains($0) } ?? false) })
        #expect(cjk.replacingOccurrences(of: "\n  ", with: "").replacingOccurrences(of: " ", with: "") == chinese.replacingOccurrences(of: " ", with: ""))
        // A question keeps its last space.
        #expect("Delete order #4 (熟成紅茶 中杯 and 2 more, $105) for good? [y/N] ".wrapped(toWidth: 40).hasSuffix("[y/N] "))
        // A word wider than a line is broken where it must be, with nothing left out.
        #expect(String(repeating: "x", count: 25).wrapped(toWidth: 10).replacingOccurrences(of: "\n  ", with: "") == String(repeating: "x", count: 25))
    }

    @Test func pagerKeys() {
        #expect(TerminalPager.move(for: .text(" ")) == .page)
        #expect(TerminalPager.move(for: .enter) == .page)
        #expect(TerminalPager.move(for: .down) == .line)
        #expect(TerminalPager.move(for: .text("q")) == .stop)
        #expect(TerminalPager.move(for: .escape) == .stop)
        #expect(TerminalPager.move(for: .control("c")) == .stop)
        #expect(TerminalPager.move(for: .text("x")) == nil)
    }

    @Test func noPagerWhenTheOutputIsNotATerminal() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(TerminalPager(input: ends[0], output: ends[1]) == nil)
    }

    @Test func sizeFallsBackToColumnsAndLines() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        let size = TerminalDevice.size(ends[1], environment: ["COLUMNS": "61", "LINES": "19"])
        #expect(size.columns == 61 && size.rows == 19)
        let unset = TerminalDevice.size(ends[1], environment: ["COLUMNS": "junk"])
        #expect(unset.columns == 80 && unset.rows == 24)
    }
}
