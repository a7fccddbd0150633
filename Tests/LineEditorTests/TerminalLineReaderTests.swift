import Foundation
import Glibc
import Testing
@testable import LineEditor

/// The terminal reader driven through a real pseudo-terminal. Serialized: raw-mode readers share the
/// process's signal dispositions.
@Suite(.serialized) struct TerminalLineReaderTests {
    private let left = "\u{1B}[D"
    private let up = "\u{1B}[A"

    private func temporaryHistoryPath() -> String {
        NSTemporaryDirectory() + "drinkshop-history-\(UUID().uuidString)/history"
    }

    @Test func readsATypedLineAndRestoresTheTerminal() async throws {
        let pty = try PseudoTerminal()
        let before = try pty.mode()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let session = await runReader(on: pty, prompt: "> ", typing: "order 白玉歐蕾 大杯\r") {
            reader.readLine(prompt: "> ")
        }
        #expect(session.line == "order 白玉歐蕾 大杯")
        #expect(session.screen.contains("\r> order 白玉歐蕾 大杯\u{1B}[0K"))
        #expect(sameMode(try pty.mode(), before))
        let after = try pty.mode()
        #expect(after.c_lflag & tcflag_t(ICANON) != 0 && after.c_lflag & tcflag_t(ECHO) != 0)
    }

    @Test func editsWithCursorKeysOverChineseText() async throws {
        let pty = try PseudoTerminal()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let session = await runReader(on: pty, prompt: "> ", typing: "白玉\(left)歐\r") {
            reader.readLine(prompt: "> ")
        }
        #expect(session.line == "白歐玉")
        // After "白" and the inserted "歐" the cursor stands on column 2 + 2 + 2.
        #expect(session.screen.contains("\r> 白歐玉\u{1B}[0K\r\u{1B}[6C"))
    }

    @Test func emacsKeysThroughTheTerminal() async throws {
        let pty = try PseudoTerminal()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        // Ctrl-A, Ctrl-K kills everything, Ctrl-Y brings it back, Ctrl-W drops the last word.
        let session = await runReader(on: pty, prompt: "> ", typing: "menu 歐蕾 x\u{1}\u{B}\u{19}\u{17}\r") {
            reader.readLine(prompt: "> ")
        }
        #expect(session.line == "menu 歐蕾 ")
    }

    @Test func controlDOnAnEmptyLineIsEndOfInput() async throws {
        let pty = try PseudoTerminal()
        let before = try pty.mode()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let session = await runReader(on: pty, prompt: "> ", typing: "\u{4}") { reader.readLine(prompt: "> ") }
        #expect(session.line == nil)
        #expect(sameMode(try pty.mode(), before))
    }

    @Test func controlCAbandonsTheLine() async throws {
        let pty = try PseudoTerminal()
        let before = try pty.mode()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let session = await runReader(on: pty, prompt: "> ", typing: "order 熟成\u{3}") { reader.readLine(prompt: "> ") }
        #expect(session.line == "")
        #expect(session.screen.contains("^C\r\n"))
        #expect(sameMode(try pty.mode(), before))
    }

    @Test func keysTypedAheadWaitForTheNextLine() async throws {
        let pty = try PseudoTerminal()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let first = await runReader(on: pty, prompt: "1> ", typing: "menu\rorders\r") { reader.readLine(prompt: "1> ") }
        let second = await runReader(on: pty, prompt: "2> ", typing: "") { reader.readLine(prompt: "2> ") }
        #expect(first.line == "menu")
        #expect(second.line == "orders")
    }

    @Test func historyIsKeptAcrossRunsInAFile() async throws {
        let path = temporaryHistoryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let pty = try PseudoTerminal()
        let firstRun = TerminalLineReader(input: pty.terminal, output: pty.terminal, historyFile: HistoryFile(path: path))
        _ = await runReader(on: pty, prompt: "> ", typing: "menu 歐蕾\r") { firstRun.readLine(prompt: "> ") }
        let recalled = await runReader(on: pty, prompt: "> ", typing: "\(up)\r") { firstRun.readLine(prompt: "> ") }
        #expect(recalled.line == "menu 歐蕾")
        #expect(firstRun.history == ["menu 歐蕾"])

        let secondRun = TerminalLineReader(input: pty.terminal, output: pty.terminal, historyFile: HistoryFile(path: path))
        let again = await runReader(on: pty, prompt: "> ", typing: "x\(up)\r") { secondRun.readLine(prompt: "> ") }
        #expect(again.line == "menu 歐蕾")
        #expect(secondRun.historyProblem == nil)
    }

    @Test func secretLinesAreNeitherEchoedNorKept() async throws {
        let path = temporaryHistoryPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let pty = try PseudoTerminal()
        let reader = TerminalLineReader(
            input: pty.terminal, output: pty.terminal, historyFile: HistoryFile(path: path),
            isSecret: { $0.hasPrefix("token ") })
        let token = await runReader(on: pty, prompt: "token: ", typing: "patABC123\r") {
            reader.readSecretLine(prompt: "token: ")
        }
        #expect(token.line == "patABC123")
        #expect(!token.screen.contains("patABC"))
        let marked = await runReader(on: pty, prompt: "> ", typing: "token patXYZ\r") { reader.readLine(prompt: "> ") }
        #expect(marked.line == "token patXYZ")
        let kept = await runReader(on: pty, prompt: "> ", typing: "menu\r") { reader.readLine(prompt: "> ") }
        #expect(kept.line == "menu")
        #expect(reader.history == ["menu"])
        let file = try String(contentsOfFile: path, encoding: .utf8)
        #expect(file == "menu\n")
    }

    @Test func tabCompletesAndASecondTabLists() async throws {
        let pty = try PseudoTerminal()
        let drinks = ["白玉歐蕾", "白玉熟成紅茶", "熟成紅茶"]
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal, completer: { line, cursor in
            let word = String(Array(line)[..<cursor]).split(separator: " ").last.map(String.init) ?? ""
            return drinks.filter { $0.hasPrefix(word) }
        })
        let session = await runReader(on: pty, prompt: "> ", typing: "order 白\t\t\u{15}熟\t\r") {
            reader.readLine(prompt: "> ")
        }
        #expect(session.line == "熟成紅茶 ")
        #expect(session.screen.contains("\r\n白玉歐蕾      白玉熟成紅茶\r\n"))
    }

    @Test func longLinesScrollWithinTheTerminalWidth() async throws {
        let pty = try PseudoTerminal()
        pty.setColumns(20)
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let line = String(repeating: "abcdefghij", count: 3)
        let session = await runReader(on: pty, prompt: "> ", typing: line + "\r") { reader.readLine(prompt: "> ") }
        #expect(session.line == line)
        #expect(session.screen.contains("\r> " + line.suffix(17) + "\u{1B}[0K\r\u{1B}[19C"))
        // While typing, one row scrolling sideways; once entered, the whole line (once, at the end) for the
        // terminal to wrap, so the scrollback keeps every character.
        #expect(session.screen.components(separatedBy: String(line.prefix(18))).count == 2)
        #expect(session.screen.contains("\r> " + line + "\u{1B}[0K\r\n"))
    }

    @Test func linesAboveThePromptAreWrittenOnce() async throws {
        let pty = try PseudoTerminal()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let session = await runReader(on: pty, prompt: "> ", typing: "ab\r") { reader.readLine(prompt: "🧋 第二杯半價\n> ") }
        #expect(session.line == "ab")
        #expect(session.screen.components(separatedBy: "第二杯半價").count == 2)
    }

    @Test func bracketedPasteIsTurnedOnAndOff() async throws {
        let pty = try PseudoTerminal()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        let session = await runReader(on: pty, prompt: "> ", typing: "\u{1B}[200~menu\r歐蕾\u{1B}[201~\r") {
            reader.readLine(prompt: "> ")
        }
        #expect(session.line == "menu")  // the pasted line break ends the line; 歐蕾 waits for the next
        #expect(session.screen.hasPrefix("\u{1B}[?2004h"))
        #expect(session.screen.hasSuffix("\u{1B}[?2004l"))
    }

    @Test func readsPlainlyWhenTheInputIsNotATerminal() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        FileDescriptorIO.writeAll(ends[1], "menu\n")
        close(ends[1])
        let reader = TerminalLineReader(input: ends[0], output: ends[0])
        #expect(reader.readLine(prompt: "> ") == "menu")
        #expect(reader.readLine(prompt: "> ") == nil)
    }
}
