import Foundation
import Glibc
import Testing
@testable import LineEditor

@Suite struct TerminalColorTests {
    @Test func stylesOnlyATerminal() {
        #expect(ColorPolicy.detect(outputIsTerminal: true, environment: ["TERM": "xterm-256color"]).usesStyles)
        #expect(!ColorPolicy.detect(outputIsTerminal: false, environment: ["TERM": "xterm-256color"]).usesStyles)
    }

    @Test func noColorOrDumbTerminalTurnsStylesOff() {
        #expect(!ColorPolicy.detect(outputIsTerminal: true, environment: ["TERM": "xterm", "NO_COLOR": "1"]).usesStyles)
        #expect(!ColorPolicy.detect(outputIsTerminal: true, environment: ["TERM": "dumb"]).usesStyles)
        // An empty NO_COLOR does not count, as no-color.org says.
        #expect(ColorPolicy.detect(outputIsTerminal: true, environment: ["TERM": "xterm", "NO_COLOR": ""]).usesStyles)
    }

    @Test func aPipeIsNeverStyled() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        #expect(!ColorPolicy.detect(fileDescriptor: ends[1]).usesStyles)
    }

    @Test func paintsWithSGRCodes() {
        let paint = ColorPolicy.styled
        #expect(paint.paint("NT$ 55", .bold) == "\u{1B}[1mNT$ 55\u{1B}[0m")
        #expect(paint.paint("sold out", .red, .dim) == "\u{1B}[31;2msold out\u{1B}[0m")
        #expect(paint.paint("ok", .green) == "\u{1B}[32mok\u{1B}[0m")
        #expect(paint.paint("!", .yellow) == "\u{1B}[33m!\u{1B}[0m")
        #expect(paint.paint("#12", .cyan) == "\u{1B}[36m#12\u{1B}[0m")
    }

    @Test func plainPolicyLeavesTextAlone() {
        #expect(ColorPolicy.plain.paint("白玉歐蕾", .bold, .red) == "白玉歐蕾")
    }

    @Test func outerStyleSurvivesAnInnerReset() {
        let paint = ColorPolicy.styled
        let nested = paint.paint(paint.paint("NT$", .green) + " 55", .bold)
        #expect(nested == "\u{1B}[1m\u{1B}[32mNT$\u{1B}[0m\u{1B}[1m 55\u{1B}[0m")
    }
}
