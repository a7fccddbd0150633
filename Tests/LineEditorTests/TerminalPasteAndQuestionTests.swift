import Foundation
import Glibc
import Testing
@testable import LineEditor

/// Pasted lines run one by one, questions fit the terminal, answers stay out of history.
@Suite(.serialized) struct TerminalPasteAndQuestionTests {
    @Test func aHugeLineIsNotKeptInHistory() {
        var kept = KeptHistory(file: nil, limit: 10)
        kept.record(String(repeating: "熟", count: 200_000))
        kept.record("menu")
        #expect(kept.history.entries == ["menu"])
    }

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

/// The status line (the banner) above the prompt, and redrawing after a resize.
@Suite(.serialized) struct TerminalStatusLineTests {
    @Test func theStatusLineIsRedrawnInPlaceWhileTypingIsKept() async throws {
        let pty = try PseudoTerminal()
        pty.setColumns(80)
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let start = ContinuousClock.now
        // Changes every 100 ms: A, B, C, …
        let status = StatusLine(
            text: { now in
                let ticks = Int((now - start) / .milliseconds(100))
                return "★ banner " + String(UnicodeScalar(UInt8(65 + ticks % 26)))
            },
            timeUntilChange: { now in
                let elapsed = now - start
                let ticks = Int(elapsed / .milliseconds(100))
                return .milliseconds(100) * (ticks + 1) - elapsed
            })
        let session = await withCheckedContinuation { continuation in
            Thread {
                let result = LockedBox<String??>(nil)
                let finished = DispatchSemaphore(value: 0)
                Thread {
                    let line = reader.readLine(prompt: "> ", statusLine: status)
                    result.update { $0 = .some(line) }
                    finished.signal()
                }.start()
                var screen = pty.screen(until: "> ")
                pty.type("order 熟成")
                screen += pty.screen(until: "\u{1B}[1A\u{1B}[2K★ banner", after: screen)
                screen += pty.screen(until: "order 熟成\u{1B}[0K", after: screen)
                // A turn of the banner once the typing is on the line (under load the one above can come
                // before the reader has read what was typed): looked for in what arrives from now on.
                screen += pty.screen(until: "\r> order 熟成")
                pty.type("紅茶\r")
                _ = finished.wait(timeout: .now() + 10)
                screen += pty.screen(until: "\u{1B}[?2004l", after: screen)
                continuation.resume(returning: TerminalSession(line: result.value ?? nil, screen: screen))
            }.start()
        }
        #expect(session.line == "order 熟成紅茶")
        // Redrawn in place: up one row, clear it, the new text, back down to the prompt with its line.
        // The last redraw: on a slow machine the banner may also turn before anything is typed.
        let redraw = try #require(session.screen.range(of: "\r\u{1B}[1A\u{1B}[2K★ banner ", options: .backwards))
        #expect(session.screen[redraw.upperBound...].contains("\r\n\r> order 熟成"))
    }

    @Test func aResizeRewindsOverTheRewrappedRows() {
        // A 70-column prompt row with the cursor on column 69, and a 40-column banner above it, narrowed
        // to 30 columns: the cursor is now on the third row of the prompt line, below two banner rows.
        #expect(LineRenderer.rewind(linesAbove: [40], cursorColumn: 69, width: 30) == "\r\u{1B}[4A\u{1B}[J")
        #expect(LineRenderer.rewind(linesAbove: [], cursorColumn: 10, width: 80) == "\r\u{1B}[J")
        #expect(LineRenderer.rewind(linesAbove: [0], cursorColumn: 10, width: 80) == "\r\u{1B}[1A\u{1B}[J")
    }

    @Test func narrowingTheWindowLeavesNothingStaleBelowThePrompt() async throws {
        let pty = try PseudoTerminal()
        pty.setColumns(100)
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let typed = String(repeating: "熟成紅茶 ", count: 12)
        let session = await withCheckedContinuation { continuation in
            Thread {
                let result = LockedBox<String??>(nil)
                let finished = DispatchSemaphore(value: 0)
                Thread {
                    let line = reader.readLine(prompt: "> ")
                    result.update { $0 = .some(line) }
                    finished.signal()
                }.start()
                var screen = pty.screen(until: "> ")
                pty.type(typed)
                screen += pty.screen(until: "熟成紅茶 \u{1B}[0K\r\u{1B}[", after: screen)
                pty.setColumns(40)
                _ = kill(getpid(), SIGWINCH)
                screen += pty.screen(until: "\u{1B}[J", after: screen)
                screen += pty.screen(until: "\u{1B}[0K", after: screen)
                pty.type("\r")
                _ = finished.wait(timeout: .now() + 10)
                screen += pty.screen(until: "\u{1B}[?2004l", after: screen)
                continuation.resume(returning: TerminalSession(line: result.value ?? nil, screen: screen))
            }.start()
        }
        #expect(session.line == typed)
        // The 108-column line scrolled in a 100-column row, the cursor near its end (column 98 or 99);
        // at 40 columns that row became three, and the reader went up two and cleared to the end of the screen.
        #expect(session.screen.contains("\r\u{1B}[2A\u{1B}[J"))
    }
}
