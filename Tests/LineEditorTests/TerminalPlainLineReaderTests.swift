import Foundation
import Glibc
import Testing
@testable import LineEditor

@Suite struct TerminalPlainLineReaderTests {
    /// A pipe holding `text`, already closed for writing; returns the read end.
    private func pipeHolding(_ text: String) throws -> Int32 {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        FileDescriptorIO.writeAll(ends[1], text)
        close(ends[1])
        return ends[0]
    }

    @Test func readsLinesUntilTheEnd() throws {
        let input = try pipeHolding("menu\r\norder 白玉歐蕾 大杯\n\nlast")
        defer { close(input) }
        let reader = PlainLineReader(input: input, output: input)
        #expect(reader.readLine(prompt: "> ") == "menu")
        #expect(reader.readLine(prompt: "> ") == "order 白玉歐蕾 大杯")
        #expect(reader.readLine(prompt: "> ") == "")
        #expect(reader.readLine(prompt: "> ") == "last")
        #expect(reader.readLine(prompt: "> ") == nil)
        #expect(reader.readLine(prompt: "> ") == nil)
    }

    @Test func showsNoPromptWhenTheInputIsAPipe() throws {
        let input = try pipeHolding("menu\n")
        defer { close(input) }
        var outputEnds: [Int32] = [0, 0]
        try #require(pipe(&outputEnds) == 0)
        defer { close(outputEnds[0]) }
        let reader = PlainLineReader(input: input, output: outputEnds[1])
        #expect(reader.readSecretLine(prompt: "> ") == "menu")
        FileDescriptorIO.writeAll(outputEnds[1], "end")
        close(outputEnds[1])
        #expect(FileDescriptorIO.readSome(outputEnds[0]) == Array("end".utf8))
    }

    @Test func showsThePromptWhenAsked() throws {
        let input = try pipeHolding("x\n")
        defer { close(input) }
        var outputEnds: [Int32] = [0, 0]
        try #require(pipe(&outputEnds) == 0)
        defer { close(outputEnds[0]) }
        let reader = PlainLineReader(input: input, output: outputEnds[1], showsPrompt: true)
        #expect(reader.readLine(prompt: "drinkshop> ") == "x")
        close(outputEnds[1])
        #expect(FileDescriptorIO.readSome(outputEnds[0]) == Array("drinkshop> ".utf8))
    }

    @Test func nextLineWaitsOnItsOwnThread() async throws {
        let input = try pipeHolding("orders\n")
        defer { close(input) }
        let reader: any LineReader = PlainLineReader(input: input, output: input)
        #expect(await reader.nextLine(prompt: "> ") == "orders")
        #expect(await reader.nextLine(prompt: "> ") == nil)
    }

    @Test func linesAlreadyReadAreTakenWithoutWaiting() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        FileDescriptorIO.writeAll(ends[1], "menu\r\norders\nbanner")
        let reader = PlainLineReader(input: ends[0], output: ends[0])
        // Nothing read yet: taking a line would mean a read.
        #expect(reader.lineWithoutWaiting(prompt: "> ") == nil)
        #expect(reader.readLine(prompt: "> ") == "menu")
        #expect(reader.lineWithoutWaiting(prompt: "> ") == .some("orders"))
        // "banner" has no line end yet and the pipe is still open: more may come.
        #expect(reader.lineWithoutWaiting(prompt: "> ") == nil)
        FileDescriptorIO.writeAll(ends[1], " once\n")
        close(ends[1])
        #expect(reader.readLine(prompt: "> ") == "banner once")
        #expect(reader.readLine(prompt: "> ") == nil)
        // At the end of input the end itself is at hand.
        #expect(reader.lineWithoutWaiting(prompt: "> ") == .some(nil))
    }

    @Test func editsOnlyBetweenTwoTerminalsUnderACapableTERM() {
        let xterm = ["TERM": "xterm-256color"]
        #expect(LineReaders.usesLineEditor(inputIsTerminal: true, outputIsTerminal: true, environment: xterm))
        #expect(!LineReaders.usesLineEditor(inputIsTerminal: false, outputIsTerminal: true, environment: xterm))
        #expect(!LineReaders.usesLineEditor(inputIsTerminal: true, outputIsTerminal: false, environment: xterm))
        #expect(!LineReaders.usesLineEditor(inputIsTerminal: true, outputIsTerminal: true, environment: ["TERM": "dumb"]))
        #expect(!LineReaders.usesLineEditor(inputIsTerminal: true, outputIsTerminal: true, environment: ["TERM": ""]))
        #expect(!LineReaders.usesLineEditor(inputIsTerminal: true, outputIsTerminal: true, environment: [:]))
    }
}
