import Foundation
import Glibc
import Testing
@testable import ShopREPL
@testable import LineEditor

/// Full-width input, byte-order marks and huge lines, as they reach the command parser.
@Suite struct InputNormalizationTests {
    @Test func fullWidthWordsOutsideQuotesReadAsTyped() throws {
        #expect(try Tokenizer.tokenize("order 熟成紅茶　Ｍ　少冰 ２杯 ｘ２") == ["order", "熟成紅茶", "M", "少冰", "2杯", "x2"])
        // Quoted text stays as typed.
        #expect(try Tokenizer.tokenize("note \"Ｂ１樓　櫃台\"") == ["note", "Ｂ１樓　櫃台"])
    }

    @Test func aFullWidthSpaceInsideOneShellArgumentSeparatesWords() throws {
        let typed = try CommandParser.parse(line: "order 熟成紅茶 M 少冰 無糖 x2 for Amy")
        let shell = try CommandParser.parse(shellWords: ["order", "熟成紅茶　Ｍ　少冰", "無糖", "ｘ２", "for", "Ａｍｙ"])
        #expect(shell != nil)
        #expect(shell == typed)
    }

    @Test func aHugeLineIsRefusedWithAShortExcerpt() throws {
        let huge = "order " + String(repeating: "熟", count: 200_000)
        let refusal = try #require(CommandLength.refusal(huge))
        #expect(refusal.contains("200006 characters"))
        #expect(refusal.count < 200)
        #expect(CommandLength.refusal("order 熟成紅茶 M 少冰 無糖") == nil)
        #expect(CommandLength.refusal(String(repeating: "熟", count: CommandLength.limit)) == nil)
    }

    @Test func aByteOrderMarkAtTheStartOfPipedInputIsDropped() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        FileDescriptorIO.writeAll(ends[1], "\u{FEFF}menu\norders\n")
        close(ends[1])
        let reader = PlainLineReader(input: ends[0], output: ends[0])
        #expect(reader.readLine(prompt: "") == "menu")
        #expect(reader.readLine(prompt: "") == "orders")
        #expect(reader.readLine(prompt: "") == nil)
    }
}
