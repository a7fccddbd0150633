import Testing
@testable import LineEditor

@Suite struct TerminalLineRendererTests {
    /// What a render shows: the text after the prompt and the column the cursor lands on.
    private struct Drawn: Equatable {
        var text: String
        var cursorColumn: Int
    }

    private func draw(_ prompt: String, _ line: String, cursor: Int, width: Int) throws -> Drawn {
        let output = LineRenderer.render(prompt: prompt, buffer: Array(line), cursor: cursor, width: width)
        #expect(output.hasPrefix("\r" + prompt) || prompt.displayWidth > width / 2)
        let clear = try #require(output.range(of: "\u{1B}[0K\r"))
        let shown = String(output[output.index(after: output.startIndex)..<clear.lowerBound])
        let move = output[clear.upperBound...]
        var column = 0
        if !move.isEmpty {
            #expect(move.hasPrefix("\u{1B}[") && move.hasSuffix("C"))
            column = try #require(Int(move.dropFirst(2).dropLast()))
        }
        let text = shown.hasPrefix(prompt) ? String(shown.dropFirst(prompt.count)) : shown
        return Drawn(text: text, cursorColumn: column)
    }

    @Test func aFinishedLineWiderThanTheScreenIsLeftWholeForTheScrollback() {
        let long = Array("order 白玉歐蕾 L 半糖 少冰 note \"a very long note past the end of the screen\"")
        // While typing it scrolls sideways on one row; once entered, the whole line, for the terminal to wrap.
        #expect(!LineRenderer.render(prompt: "> ", buffer: long, cursor: long.count, width: 40).contains("order 白玉"))
        #expect(LineRenderer.submitted(prompt: "> ", buffer: long, width: 40) == "\r> " + String(long) + "\u{1B}[0K")
        // A line that fits is drawn as before.
        let short = Array("menu")
        #expect(LineRenderer.submitted(prompt: "> ", buffer: short, width: 40)
            == LineRenderer.render(prompt: "> ", buffer: short, cursor: 4, width: 40))
    }

    @Test func exactBytesForAChineseLine() {
        let output = LineRenderer.render(prompt: "> ", buffer: Array("白玉歐蕾"), cursor: 4, width: 80)
        #expect(output == "\r> 白玉歐蕾\u{1B}[0K\r\u{1B}[10C")
    }

    @Test func cursorLandsOnTheDisplayColumn() throws {
        #expect(try draw("> ", "白玉歐蕾", cursor: 0, width: 80).cursorColumn == 2)
        #expect(try draw("> ", "白玉歐蕾", cursor: 1, width: 80).cursorColumn == 4)
        #expect(try draw("> ", "a白b", cursor: 2, width: 80).cursorColumn == 5)
        #expect(try draw("> ", "e\u{301}x", cursor: 1, width: 80).cursorColumn == 3)
        #expect(try draw("> ", "🧋ok", cursor: 1, width: 80).cursorColumn == 4)
    }

    @Test func noMovementAtColumnZero() {
        #expect(LineRenderer.render(prompt: "", buffer: [], cursor: 0, width: 80) == "\r\u{1B}[0K\r")
    }

    @Test func styledPromptsAreMeasuredWithoutTheirEscapes() throws {
        let prompt = ColorPolicy.styled.paint("🧋 ", .cyan) + "> "
        let output = LineRenderer.render(prompt: prompt, buffer: Array("熟成"), cursor: 2, width: 80)
        #expect(output == "\r" + prompt + "熟成\u{1B}[0K\r\u{1B}[9C")
    }

    @Test func aLongASCIILineScrollsToKeepTheCursorInView() throws {
        let line = String(repeating: "abcdefghij", count: 3)
        let end = try draw("> ", line, cursor: 30, width: 20)
        #expect(end == Drawn(text: String(line.suffix(17)), cursorColumn: 19))
        let start = try draw("> ", line, cursor: 0, width: 20)
        #expect(start == Drawn(text: String(line.prefix(17)), cursorColumn: 2))
    }

    @Test func aLongChineseLineNeverSpillsPastTheLastColumn() throws {
        let line = Array(String(repeating: "白玉歐蕾熟成紅茶", count: 3))  // 24 characters, 48 columns
        for width in [10, 11, 20, 21, 33] {
            for cursor in 0...line.count {
                let drawn = try draw("> ", String(line), cursor: cursor, width: width)
                #expect(2 + drawn.text.displayWidth <= width - 1, "width \(width) cursor \(cursor)")
                // What is shown is a slice of the line around the cursor, and the cursor sits on the
                // column right after the shown characters that precede it.
                let shown = Array(drawn.text)
                let fits = (max(0, cursor - shown.count)...cursor).contains { start in
                    start + shown.count <= line.count && Array(line[start..<(start + shown.count)]) == shown
                        && drawn.cursorColumn == 2 + String(line[start..<cursor]).displayWidth
                }
                #expect(fits, "width \(width) cursor \(cursor): \(drawn)")
            }
        }
    }

    @Test func scrollsAChineseLineAroundAMiddleCursor() throws {
        let line = String(repeating: "白玉歐蕾熟成紅茶", count: 3)
        let drawn = try draw("> ", line, cursor: 15, width: 20)
        // 17 columns of room: eight characters before the cursor fit (16 columns), none after it.
        #expect(drawn == Drawn(text: String(Array(line)[7..<15]), cursorColumn: 18))
    }

    @Test func aWideCharacterAtTheEdgeIsLeftOutWhole() throws {
        let drawn = try draw("> ", "a白玉歐蕾", cursor: 0, width: 8)  // room 5: "a" + 2 wide
        #expect(drawn == Drawn(text: "a白玉", cursorColumn: 2))
    }

    @Test func aPromptWiderThanHalfTheTerminalIsCutKeepingItsEnd() {
        let prompt = String(repeating: "歐", count: 20) + "> "
        let output = LineRenderer.render(prompt: prompt, buffer: Array("menu"), cursor: 4, width: 20)
        #expect(output == "\r…歐歐歐> menu\u{1B}[0K\r\u{1B}[13C")
    }

    @Test func listsCompletionsInColumnsByDisplayWidth() {
        let lines = CompletionListing.lines(["白玉歐蕾", "熟成紅茶", "menu", "orders"], width: 30)
        #expect(lines == ["白玉歐蕾  menu", "熟成紅茶  orders"])
        #expect(CompletionListing.lines(["白玉歐蕾", "熟成紅茶"], width: 5) == ["白玉歐蕾", "熟成紅茶"])
        #expect(CompletionListing.lines([], width: 80) == [])
    }
}
