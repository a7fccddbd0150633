import Foundation
import Testing
@testable import ShopREPL

/// Pasted lines run one by one, questions fit the terminal, answers stay out of history.
@Suite(.serialized) struct TerminalPasteAndQuestionTests {
    @Test func eachPastedLineBecomesItsOwnLine() {
        let keys = LineEditor.typingPastedLines([.text("x"), .paste("order 熟成紅茶 L\r\norder 白玉歐蕾 M\rmenu\n"), .text("y")])
        #expect(keys == [.text("x"), .paste("order 熟成紅茶 L"), .enter, .paste("order 白玉歐蕾 M"), .enter,
                         .paste("menu"), .enter, .text("y")])
        #expect(LineEditor.typingPastedLines([.paste("orders\n歐蕾")]) == [.paste("orders"), .enter, .paste("歐蕾")])
        #expect(LineEditor.typingPastedLines([.paste("熟成紅茶")]) == [.paste("熟成紅茶")])
    }

    @Test func twoPastedOrdersAreTwoLinesInOrderThroughATerminal() async throws {
        let pty = try PseudoTerminal()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let paste = "\u{1B}[200~order 熟成紅茶 L for Amy\norder 白玉歐蕾 M for Ben\n\u{1B}[201~"
        let first = await runReader(on: pty, prompt: "1> ", typing: paste) { reader.readLine(prompt: "1> ") }
        let second = await runReader(on: pty, prompt: "2> ", typing: "") { reader.readLine(prompt: "2> ") }
        #expect(first.line == "order 熟成紅茶 L for Amy")
        #expect(second.line == "order 白玉歐蕾 M for Ben")
        #expect(reader.history == ["order 熟成紅茶 L for Amy", "order 白玉歐蕾 M for Ben"])
    }

    @Test func aLongQuestionKeepsItsYesNoInViewAt80And120Columns() {
        let question = "Delete order #4 (2× 白玉歐蕾 大杯 半糖 少冰 + 珍珠, 熟成紅茶 中杯 無糖 去冰 for Amy Chen) for good? [y/N] "
        for width in [40, 80, 120] {
            let fitted = LineRenderer.fitting(prompt: question, width: width)
            #expect(fitted.above + fitted.last == question.replacingOccurrences(of: "good? [y/N]", with: "good?\n[y/N]")
                    || fitted.above.replacingOccurrences(of: "\n", with: " ") + fitted.last == question)
            #expect(fitted.last.hasSuffix("[y/N] "))
            #expect(fitted.last.displayWidth <= width / 2)
            let drawn = LineRenderer.render(prompt: fitted.last, buffer: [], cursor: 0, width: width)
            #expect(drawn.contains("[y/N] "))
        }
        #expect(LineRenderer.fitting(prompt: "drinkshop> ", width: 80) == ("", "drinkshop> "))
    }

    @Test func aPromptTooWideKeepsItsEndSoTypingNeverRunsIntoIt() {
        let prompt = "drinkshop [" + String(repeating: "w", count: 60) + "]> "
        let drawn = LineRenderer.render(prompt: prompt, buffer: Array("menu"), cursor: 4, width: 40)
        #expect(drawn.hasPrefix("\r…"))
        #expect(drawn.contains("]> menu"))
        #expect(LineRenderer.keepingEnd(of: prompt, width: 20).displayWidth == 20)
    }

    @Test func answersAreShownButNeverKeptInHistory() async throws {
        let pty = try PseudoTerminal()
        pty.setColumns(120)
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        _ = await runReader(on: pty, prompt: "> ", typing: "delete #4\r") { reader.readLine(prompt: "> ") }
        let question = "Delete order #4 (" + String(repeating: "熟成紅茶 大杯 ", count: 8) + ") for good? [y/N] "
        let answer = await runReader(on: pty, prompt: "[y/N] ", typing: "y\r") { reader.readAnswer(prompt: question) }
        #expect(answer.line == "y")
        #expect(answer.screen.contains("[y/N] y"))
        #expect(reader.history == ["delete #4"])
    }
}
