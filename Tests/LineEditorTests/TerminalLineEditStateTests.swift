import Testing
@testable import LineEditor

@Suite struct TerminalLineEditStateTests {
    @Test func insertsAtTheCursorOverMultiByteCharacters() {
        var state = LineEditState(text: "白玉")
        #expect(state.cursor == 2)
        #expect(changed(state.moveLeft()))
        state.insert("歐蕾")
        #expect(state.text == "白歐蕾玉")
        #expect(state.cursor == 3)
        state.insert("🧋")
        #expect(state.buffer.count == 5)
        #expect(state.cursor == 4)
    }

    @Test func aCombiningMarkJoinsTheCharacterBeforeIt() {
        var state = LineEditState(text: "cafe")
        state.insert("\u{301}")
        #expect(state.buffer.count == 4)
        #expect(state.text == "café")
        #expect(state.cursor == 4)
        #expect(changed(state.deleteBackward()))
        #expect(state.text == "caf")
    }

    @Test func backspaceAndDeleteRemoveWholeCharacters() {
        var state = LineEditState(text: "熟成紅茶")
        #expect(changed(state.deleteBackward()))
        #expect(state.text == "熟成紅")
        #expect(changed(state.moveToStart()))
        #expect(!changed(state.deleteBackward()))
        #expect(changed(state.deleteForward()))
        #expect(state.text == "成紅")
        #expect(state.cursor == 0)
        #expect(changed(state.moveToEnd()))
        #expect(!changed(state.deleteForward()))
    }

    @Test func movesByCharacterAndRefusesToLeaveTheLine() {
        var state = LineEditState(text: "a白")
        #expect(!changed(state.moveRight()))
        #expect(changed(state.moveLeft()))
        #expect(state.cursor == 1)
        #expect(changed(state.moveLeft()))
        #expect(!changed(state.moveLeft()))
        #expect(state.cursor == 0)
    }

    @Test func movesByWords() {
        var state = LineEditState(text: "order 白玉歐蕾 L, half")
        #expect(changed(state.moveWordLeft()))
        #expect(state.cursor == 14)  // before "half"
        #expect(changed(state.moveWordLeft()))
        #expect(state.cursor == 11)  // before "L"
        #expect(changed(state.moveWordLeft()))
        #expect(state.cursor == 6)   // before "白玉歐蕾"
        #expect(changed(state.moveWordRight()))
        #expect(state.cursor == 10)  // after "白玉歐蕾"
        #expect(changed(state.moveToStart()))
        #expect(changed(state.moveWordRight()))
        #expect(state.cursor == 5)   // after "order"
    }

    @Test func homeAndEnd() {
        var state = LineEditState(text: "menu 歐蕾")
        #expect(changed(state.moveToStart()))
        #expect(state.cursor == 0)
        #expect(!changed(state.moveToStart()))
        #expect(changed(state.moveToEnd()))
        #expect(state.cursor == 7)
    }

    @Test func killsAndYanks() {
        var state = LineEditState(text: "order 白玉歐蕾 大杯")
        for _ in 0..<3 { _ = state.moveLeft() }
        #expect(changed(state.killToEnd()))
        #expect(state.text == "order 白玉歐蕾")
        #expect(state.killed == " 大杯")
        #expect(!changed(state.killToEnd()))
        #expect(changed(state.moveToStart()))
        #expect(changed(state.yank()))
        #expect(state.text == " 大杯order 白玉歐蕾")
        #expect(state.cursor == 3)
        #expect(changed(state.killToStart()))
        #expect(state.text == "order 白玉歐蕾")
        #expect(state.killed == " 大杯")
        #expect(state.cursor == 0)
    }

    @Test func controlWKillsTheWhitespaceSeparatedWordBeforeTheCursor() {
        var state = LineEditState(text: "order 白玉歐蕾 x2  ")
        #expect(changed(state.killPreviousWord()))
        #expect(state.text == "order 白玉歐蕾 ")
        #expect(state.killed == "x2  ")
        #expect(changed(state.killPreviousWord()))
        #expect(state.text == "order ")
        #expect(changed(state.yank()))
        #expect(state.text == "order 白玉歐蕾 ")
    }

    @Test func altWordKills() {
        var state = LineEditState(text: "less-ice half")
        #expect(changed(state.killPreviousAlphanumericWord()))
        #expect(state.text == "less-ice ")
        #expect(changed(state.moveToStart()))
        #expect(changed(state.killNextWord()))
        #expect(state.text == "-ice ")
        #expect(state.killed == "less")
    }

    @Test func yankWithNothingKilledRefuses() {
        var state = LineEditState()
        #expect(!changed(state.yank()))
        #expect(!changed(state.killPreviousWord()))
    }

    @Test func historyBrowsingKeepsTheLineBeingEdited() {
        var state = LineEditState(history: ["menu", "orders"])
        state.insert("ord")
        #expect(changed(state.historyPrevious()))
        #expect(state.text == "orders")
        #expect(state.cursor == 6)
        #expect(changed(state.historyPrevious()))
        #expect(state.text == "menu")
        #expect(!changed(state.historyPrevious()))
        #expect(changed(state.historyNext()))
        #expect(changed(state.historyNext()))
        #expect(state.text == "ord")
        #expect(!changed(state.historyNext()))
    }

    @Test func editsToARecalledLineSurviveBrowsingButNotTheHistory() {
        var state = LineEditState(history: ["menu"])
        #expect(changed(state.historyPrevious()))
        state.insert(" 歐蕾")
        #expect(changed(state.historyNext()))
        #expect(state.text == "")
        #expect(changed(state.historyPrevious()))
        #expect(state.text == "menu 歐蕾")
        #expect(state.history == ["menu"])
    }

    @Test func replaceRangePutsTheCursorAfterTheReplacement() {
        var state = LineEditState(text: "order 白 L")
        state.replace(6..<7, with: "白玉歐蕾")
        #expect(state.text == "order 白玉歐蕾 L")
        #expect(state.cursor == 10)
    }
}
