import Testing
@testable import LineEditor

@Suite struct TerminalDisplayWidthTests {
    @Test(arguments: [
        ("abc", 3), ("", 0), ("NT$ 55", 6),
        ("白玉歐蕾", 8), ("熟成紅茶 L", 10), ("、。「」", 8), ("カタカナ", 8), ("한글", 4),
        ("ＡＢＣ１", 8), ("ｱｲｳ", 3),
        ("🧋", 2), ("👍🏽", 2), ("👩‍💻", 2), ("🇹🇼", 2), ("❤️", 2), ("1️⃣", 2), ("☺", 1),
        ("e\u{301}", 1), ("a\u{20DD}", 1), ("x\u{200D}y", 2), ("\u{200B}", 0),
        ("\u{1100}\u{1161}\u{11A8}", 2), ("\t", 0), ("\u{7}", 0),
    ])
    func measuresStrings(_ text: String, _ columns: Int) {
        #expect(text.displayWidth == columns, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func measuresSingleScalars() {
        #expect(DisplayWidth.of(Unicode.Scalar(0x4E00)!) == 2)  // 一
        #expect(DisplayWidth.of(Unicode.Scalar(0xFF01)!) == 2)  // ！ fullwidth
        #expect(DisplayWidth.of(Unicode.Scalar(0x0301)!) == 0)  // combining acute
        #expect(DisplayWidth.of(Unicode.Scalar(0xFE0F)!) == 0)  // variation selector
        #expect(DisplayWidth.of(Unicode.Scalar(0x200D)!) == 0)  // zero-width joiner
        #expect(DisplayWidth.of(Unicode.Scalar(0x1F9CB)!) == 2) // bubble tea
        #expect(DisplayWidth.of(Unicode.Scalar(0x20BB7)!) == 2) // 𠮷, plane 2
        #expect(DisplayWidth.of(Unicode.Scalar(0x0085)!) == 0)  // C1 control
        #expect(DisplayWidth.of(Unicode.Scalar(0x00E9)!) == 1)  // é
    }

    @Test func textPresentationSelectorNarrowsAnEmoji() {
        #expect("⌚".displayWidth == 2)
        #expect("⌚\u{FE0E}".displayWidth == 1)
    }

    @Test func escapeSequencesTakeNoColumns() {
        let styled = "\u{1B}[1;31m白玉\u{1B}[0m ok\u{1B}]0;title\u{7}"
        #expect(styled.displayWidth == 7)
        #expect(styled.removingTerminalEscapes == "白玉 ok")
    }

    @Test func padsByDisplayWidth() {
        #expect("白玉".padded(toWidth: 6) == "白玉  ")
        #expect("55".padded(toWidth: 5, alignment: .right) == "   55")
        #expect("歐蕾歐蕾".padded(toWidth: 4) == "歐蕾歐蕾")
    }

    @Test func truncatesWithoutSplittingAWideCharacter() {
        #expect("白玉歐蕾".truncated(toWidth: 8) == "白玉歐蕾")
        #expect("白玉歐蕾".truncated(toWidth: 7) == "白玉歐…")
        #expect("白玉歐蕾".truncated(toWidth: 6) == "白玉…")
        #expect("白玉歐蕾".truncated(toWidth: 6).displayWidth == 5)
        #expect("abcdef".truncated(toWidth: 4) == "abc…")
        #expect("abcdef".truncated(toWidth: 1) == "…")
        #expect("abcdef".truncated(toWidth: 0) == "")
        #expect("e\u{301}e\u{301}e\u{301}".truncated(toWidth: 2) == "e\u{301}…")
    }

    @Test func truncationKeepsStylesAndResetsThem() {
        let red = ColorPolicy.styled.paint("熟成紅茶", .red)
        let cut = red.truncated(toWidth: 5)
        #expect(cut.removingTerminalEscapes == "熟成…")
        #expect(cut.hasPrefix("\u{1B}[31m"))
        #expect(cut.hasSuffix(TerminalStyle.resetSequence))
    }
}
