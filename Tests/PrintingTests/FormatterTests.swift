import Foundation
import Testing
@testable import Printing

@Suite struct TSPLFormatterTests {
    let formatter = TSPLFormatter(timeZone: Samples.taipei)

    @Test func aJobIsSetUpOnceThenClearsTextsAndPrintsEachSticker() throws {
        let job = formatter.format([Samples.label(cup: 1), Samples.label(cup: 2)])
        let lines = tsplLines(job.bytes).map { Big5.decode($0) ?? "<not Big5>" }
        #expect(lines.prefix(3) == ["SIZE 50 mm,40 mm", "GAP 2 mm,0 mm", "DIRECTION 1"])
        #expect(lines.filter { $0 == "CLS" }.count == 2)
        #expect(lines.filter { $0 == "PRINT 1,1" }.count == 2)
        #expect(lines.last == "PRINT 1,1")
        for line in lines.dropFirst(3) where line != "CLS" && line != "PRINT 1,1" {
            let text = try #require(textContent(Array(Big5.encode(line).bytes)), "not a TEXT command: \(line)")
            #expect(text.font == "TST24.BF2")
        }
        #expect(job.replacedCharacters.isEmpty)
    }

    @Test func theStickerTextRoundTripsThroughBig5() throws {
        let job = formatter.format([Samples.label(cup: 2, of: 3)])
        let contents = tsplLines(job.bytes).compactMap(textContent).map(\.content)
        #expect(contents.first?.hasPrefix("A023") == true)
        #expect(contents.first?.hasSuffix("2/3") == true)
        #expect(contents.contains("熟成紅茶"))
        #expect(contents.contains("大杯 半糖 少冰"))
        #expect(contents.contains("+白玉 +水玉"))
        #expect(contents.contains("備註 分開裝"))
        let last = try #require(contents.last)
        #expect(last.hasPrefix("王○明"))
        #expect(last.hasSuffix("12/01 14:05"))
        #expect(!contents.joined().contains("王小明"))
    }

    @Test func aCharacterBig5CannotEncodeIsPrintedAsAQuestionMarkAndReported() {
        let job = formatter.format([Samples.label(name: "林堃明", drink: "熟成紅茶😀")])
        #expect(job.replacedCharacters == ["😀"])  // 堃 is hidden by the shortening: 林○明
        let contents = tsplLines(job.bytes).compactMap(textContent).map(\.content)
        #expect(contents.contains("熟成紅茶?"))
        let other = formatter.format([Samples.label(name: "堃", drink: "紅茶")])
        #expect(other.replacedCharacters == ["堃"])
        #expect(other.replacementWarning == "the printer cannot print 堃 (printed as ?)")
        #expect(formatter.format([Samples.label()]).replacementWarning == nil)
    }

    @Test func aDoubleQuoteInTheTextCannotEndTheString() {
        let job = formatter.format([Samples.label(drink: "say \"hi\"")])
        let contents = tsplLines(job.bytes).compactMap(textContent).map(\.content)
        #expect(contents.contains(#"say \["]hi\["]"#))
    }
}

@Suite struct ESCPOSFormatterTests {
    let formatter = ESCPOSFormatter(columns: 48, timeZone: Samples.taipei)

    @Test func theReceiptStartsWithInitAndChineseModeAndEndsWithFeedAndCut() {
        let bytes = formatter.format(Samples.receipt).bytes
        #expect(Array(bytes.prefix(4)) == [0x1B, 0x40, 0x1C, 0x26])
        #expect(Array(bytes.suffix(6)) == [0x1B, 0x64, 4, 0x1D, 0x56, 0x01])
        #expect(bytes.contains(subsequence: [0x1D, 0x21, 0x11]))  // double size for the total
        #expect(bytes.contains(subsequence: [0x1B, 0x61, 0x01]))  // centred header
    }

    @Test func everyLineDecodesFromBig5AndFitsThePaper() throws {
        let text = try #require(Big5.decode(strippingCommands(formatter.format(Samples.receipt).bytes)))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains { $0.contains("取餐號碼 A023") })
        #expect(lines.contains { $0.hasPrefix("熟成紅茶 x2") && $0.hasSuffix("NT$90") })
        #expect(lines.contains { $0.hasPrefix("第二杯半價") && $0.hasSuffix("-NT$20") })
        #expect(lines.contains { $0.hasPrefix("找零") && $0.hasSuffix("NT$400") })
        #expect(lines.contains("發票號碼 AB-12345678"))
        for line in lines { #expect(Big5.columns(line) <= 48, "\(line)") }
        let pairLine = try #require(lines.first { $0.hasPrefix("熟成紅茶 x2") })
        #expect(Big5.columns(pairLine) == 48)
    }

    /// The text of an ESC/POS stream: the commands this formatter writes removed.
    private func strippingCommands(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x1B: index += bytes[index + 1] == 0x40 ? 2 : 3  // ESC @ | ESC a n | ESC d n
            case 0x1C: index += 2  // FS &
            case 0x1D: index += 3  // GS ! n | GS V m
            default:
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }
}

@Suite struct CustomerNameTests {
    @Test(arguments: [
        ("王小明", "王○明"), ("歐陽小明", "歐○○明"), ("王明", "王○"), ("明", "明"),
        ("Alice", "A***e"), ("Alice Wang", "A***e W."), ("Bo", "B*"), ("  ", nil), ("Al", "A*"),
        ("Christopher", "C***r"),
    ] as [(String, String?)])
    func shortening(name: String, expected: String?) {
        #expect(CustomerName.shortened(name) == expected)
    }

    @Test func noNameGivesNoName() {
        #expect(CustomerName.shortened(nil) == nil)
    }
}

@Suite struct TextPreviewTests {
    @Test func aStickerPreviewIsFramedOnAllFourSidesWithItsRightEdgeInLine() {
        let preview = TextPreview(timeZone: Samples.taipei).render(Samples.label(name: "王小明", drink: "白玉歐蕾"))
        let lines = preview.split(separator: "\n").map(String.init)
        #expect(lines.count > 3)
        #expect(lines.allSatisfy { $0.hasSuffix("|") || $0.hasSuffix("+") })
        #expect(Set(lines.map { Big5.columns($0) }).count == 1, "\(lines)")
    }

    @Test func theLabelPreviewShowsTheSameRowsAsThePaper() {
        let preview = TextPreview(timeZone: Samples.taipei).render(Samples.label(name: "堃", drink: "紅茶"))
        #expect(preview.contains("| A 0 2 3"))
        #expect(preview.contains("| 紅茶"))
        #expect(preview.contains("| ?"))  // the name Big5 cannot print, as on paper
        #expect(preview.contains("12/01 14:05"))
    }

    @Test func receiptPreviewLinesFitTheColumnsCountingChineseAsTwo() {
        let preview = TextPreview(receiptColumns: 32, timeZone: Samples.taipei).render(Samples.receipt)
        let lines = preview.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("熟成紅茶 x2") && $0.hasSuffix("NT$90") && Big5.columns($0) == 32 })
        for line in lines { #expect(Big5.columns(line) <= 32, "\(line)") }
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { Array(self[$0..<($0 + subsequence.count)]) == subsequence }
    }
}
