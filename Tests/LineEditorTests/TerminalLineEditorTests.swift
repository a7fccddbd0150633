import Testing
@testable import LineEditor

@Suite struct TerminalLineEditorTests {
    private static let drinks = ["白玉歐蕾", "白玉熟成紅茶", "熟成紅茶", "menu", "order", "orders"]

    /// Completes from `drinks` by the prefix of the word at the cursor, like the REPL's completer.
    private static let completer: LineCompleter = { line, cursor in
        let before = String(Array(line)[..<cursor])
        let word = before.split(separator: " ", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        return drinks.filter { $0.hasPrefix(word) }
    }

    private func type(_ keys: [EditorKey], into editor: inout LineEditor) -> [EditOutcome] {
        keys.map { editor.handle($0) }
    }

    @Test func enterSubmitsTheLine() {
        var editor = LineEditor()
        #expect(editor.handle(.text("menu 歐蕾")) == .redraw)
        #expect(editor.handle(.enter) == .submit("menu 歐蕾"))
    }

    @Test func controlKeysEdit() {
        var editor = LineEditor()
        let outcomes = type([.text("order 紅茶"), .control("a"), .control("f"), .control("f"), .control("b"),
                             .control("k")], into: &editor)
        #expect(!outcomes.contains(.bell))
        #expect(editor.state.text == "o")
        #expect(editor.handle(.control("y")) == .redraw)
        #expect(editor.state.text == "order 紅茶")
        _ = type([.control("b"), .control("b"), .control("u")], into: &editor)
        #expect(editor.state.text == "紅茶")
        _ = type([.control("y"), .control("e"), .control("w")], into: &editor)
        #expect(editor.state.text == "order ")
        #expect(editor.handle(.control("e")) == .bell)
    }

    @Test func arrowsHomeEndAndDelete() {
        var editor = LineEditor()
        _ = type([.text("abc"), .home, .right, .delete, .end, .left, .backspace], into: &editor)
        #expect(editor.state.text == "c")
        #expect(editor.state.cursor == 0)
        _ = type([.text("白"), .wordRight, .wordLeft], into: &editor)
        #expect(editor.state.cursor == 0)
        _ = type([.alt("f"), .alt("b"), .alt("f")], into: &editor)
        #expect(editor.state.cursor == 2)
    }

    @Test func refusedEditsRingTheBell() {
        var editor = LineEditor()
        #expect(editor.handle(.backspace) == .bell)
        #expect(editor.handle(.left) == .bell)
        #expect(editor.handle(.up) == .bell)
        #expect(editor.handle(.escape) == .unchanged)
    }

    @Test func controlDEndsInputOnlyOnAnEmptyLine() {
        var editor = LineEditor()
        _ = editor.handle(.text("ab"))
        #expect(editor.handle(.control("d")) == .bell)
        _ = editor.handle(.home)
        #expect(editor.handle(.control("d")) == .redraw)
        #expect(editor.state.text == "b")
        _ = editor.handle(.backspace)
        _ = editor.handle(.delete)
        #expect(editor.handle(.control("d")) == .endOfInput)
    }

    @Test func controlCAbandonsTheLine() {
        var editor = LineEditor()
        _ = editor.handle(.text("order 白玉歐蕾"))
        #expect(editor.handle(.control("c")) == .abandon)
        #expect(editor.state.text.isEmpty)
    }

    @Test func controlLClearsAndControlZSuspends() {
        var editor = LineEditor()
        #expect(editor.handle(.control("l")) == .clearScreen)
        #expect(editor.handle(.control("z")) == .suspend)
    }

    @Test func historyWithArrowsAndControlPN() {
        var editor = LineEditor(history: ["menu", "orders"])
        _ = editor.handle(.text("x"))
        #expect(editor.handle(.up) == .redraw)
        #expect(editor.state.text == "orders")
        #expect(editor.handle(.control("p")) == .redraw)
        #expect(editor.state.text == "menu")
        #expect(editor.handle(.control("n")) == .redraw)
        #expect(editor.handle(.down) == .redraw)
        #expect(editor.state.text == "x")
    }

    @Test func pastedLineBreaksBecomeSpacesAndControlsVanish() {
        var editor = LineEditor()
        _ = editor.handle(.paste("order\n白玉歐蕾\t大杯\u{7}\r\n"))
        #expect(editor.state.text == "order 白玉歐蕾 大杯 ")
    }

    @Test func oneCandidateIsInsertedWithASpace() {
        var editor = LineEditor(completer: Self.completer)
        _ = editor.handle(.text("order 熟"))
        #expect(editor.handle(.tab) == .redraw)
        #expect(editor.state.text == "order 熟成紅茶 ")
        #expect(editor.state.cursor == 11)
    }

    @Test func oneCandidateInTheMiddleOfTheLineReusesTheFollowingSpace() {
        var editor = LineEditor(completer: Self.completer)
        _ = type([.text("me L"), .left, .left], into: &editor)
        #expect(editor.handle(.tab) == .redraw)
        #expect(editor.state.text == "menu L")
        #expect(editor.state.cursor == 5)
    }

    @Test func severalCandidatesInsertTheirCommonPrefixThenASecondTabListsThem() {
        var editor = LineEditor(completer: Self.completer)
        _ = editor.handle(.text("白"))
        #expect(editor.handle(.tab) == .redraw)
        #expect(editor.state.text == "白玉")
        #expect(editor.handle(.tab) == .showCompletions(["白玉歐蕾", "白玉熟成紅茶"]))
        #expect(editor.state.text == "白玉")
    }

    @Test func noCommonPrefixRingsThenLists() {
        var editor = LineEditor(completer: Self.completer)
        _ = editor.handle(.text("order"))
        #expect(editor.handle(.tab) == .bell)
        #expect(editor.handle(.tab) == .showCompletions(["order", "orders"]))
    }

    @Test func aKeyBetweenTabsStartsCompletionOver() {
        var editor = LineEditor(completer: Self.completer)
        _ = editor.handle(.text("order"))
        #expect(editor.handle(.tab) == .bell)
        _ = editor.handle(.end)
        #expect(editor.handle(.tab) == .bell)
    }

    @Test func noCandidatesRingTheBell() {
        var editor = LineEditor(completer: Self.completer)
        _ = editor.handle(.text("zzz"))
        #expect(editor.handle(.tab) == .bell)
        #expect(editor.state.text == "zzz")
    }

    @Test func completerSeesTheLineAndTheCursorInCharacters() {
        let seen = LockedBox<[String]>([])
        var editor = LineEditor(completer: { line, cursor in
            seen.update { $0.append("\(line)|\(cursor)") }
            return []
        })
        _ = type([.text("order 白玉 L"), .left, .left, .tab], into: &editor)
        #expect(seen.value == ["order 白玉 L|8"])
    }

    @Test func aCandidateNeedNotStartWithTheWord() {
        var editor = LineEditor(completer: { _, _ in ["半糖"] })
        _ = editor.handle(.text("order 白玉歐蕾 half"))
        _ = editor.handle(.tab)
        #expect(editor.state.text == "order 白玉歐蕾 半糖 ")
    }

    @Test func secretLinesHaveNoHistoryOrCompletion() {
        var editor = LineEditor(history: ["menu"], isSecret: true, completer: Self.completer)
        #expect(editor.handle(.up) == .bell)
        _ = editor.handle(.text("me"))
        #expect(editor.handle(.tab) == .bell)
        #expect(editor.state.text == "me")
    }

    @Test func longestCommonPrefixWorksOnCharacters() {
        #expect(LineEditor.longestCommonPrefix(["白玉歐蕾", "白玉熟成"]) == "白玉")
        #expect(LineEditor.longestCommonPrefix(["abc"]) == "abc")
        #expect(LineEditor.longestCommonPrefix(["abc", "xyz"]) == "")
    }
}
