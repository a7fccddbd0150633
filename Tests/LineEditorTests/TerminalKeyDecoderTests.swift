import Testing
@testable import LineEditor

@Suite struct TerminalKeyDecoderTests {
    private func decode(_ text: String) -> [EditorKey] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test func groupsTypedTextIntoOneKey() {
        #expect(decode("order 白玉歐蕾") == [.text("order 白玉歐蕾")])
    }

    @Test func joinsAUTF8CharacterSplitAcrossReads() {
        var decoder = KeyDecoder()
        let bytes = Array("白🧋".utf8)  // 3 + 4 bytes
        #expect(decoder.feed(bytes[0..<1]) == [])
        #expect(decoder.hasPendingBytes)
        #expect(decoder.feed(bytes[1..<4]) == [.text("白")])
        #expect(decoder.feed(bytes[4..<6]) == [])
        #expect(decoder.feed(bytes[6..<7]) == [.text("🧋")])
        #expect(!decoder.hasPendingBytes)
    }

    @Test func dropsInvalidUTF8() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xFF, 0x61, 0xE7, 0x41, 0x80, 0xC2, 0x85, 0x62]) == [.text("aAb")])
    }

    @Test func aTruncatedCharacterIsDroppedOnFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xE7, 0x99]) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.feed(Array("x".utf8)) == [.text("x")])
    }

    @Test(arguments: [
        ("\u{1B}[A", EditorKey.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
        ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
        ("\u{1B}[H", .home), ("\u{1B}OH", .home), ("\u{1B}[1~", .home), ("\u{1B}[7~", .home),
        ("\u{1B}[F", .end), ("\u{1B}OF", .end), ("\u{1B}[4~", .end), ("\u{1B}[8~", .end),
        ("\u{1B}[3~", .delete),
        ("\u{1B}[1;5C", .wordRight), ("\u{1B}[1;5D", .wordLeft), ("\u{1B}[1;3C", .wordRight),
        ("\u{1B}[1;3D", .wordLeft), ("\u{1B}Oc", .wordRight), ("\u{1B}Od", .wordLeft),
        ("\u{1B}\u{1B}[C", .wordRight), ("\u{1B}\u{1B}[D", .wordLeft), ("\u{1B}[1;2A", .up),
        ("\u{1B}b", .alt("b")), ("\u{1B}f", .alt("f")), ("\u{1B}d", .alt("d")), ("\u{1B}\u{7F}", .altBackspace),
        ("\r", .enter), ("\n", .enter), ("\t", .tab), ("\u{7F}", .backspace), ("\u{8}", .backspace),
        ("\u{1}", .control("a")), ("\u{3}", .control("c")), ("\u{4}", .control("d")), ("\u{17}", .control("w")),
        ("\u{19}", .control("y")), ("\u{1A}", .control("z")),
    ])
    func decodesEverySpelling(_ bytes: String, _ key: EditorKey) {
        #expect(decode(bytes) == [key])
    }

    @Test func carriageReturnAndLineFeedAreOneEnter() {
        #expect(decode("a\r\nb\n") == [.text("a"), .enter, .text("b"), .enter])
        #expect(decode("\n\n") == [.enter, .enter])
    }

    @Test func joinsAnEscapeSequenceSplitAcrossReads() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed(Array("[".utf8)) == [])
        #expect(decoder.feed(Array("3".utf8)) == [])
        #expect(decoder.feed(Array("~x".utf8)) == [.delete, .text("x")])
    }

    @Test func aLoneEscapeIsKnownOnlyWhenInputPauses() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(!decoder.hasPendingBytes)
    }

    @Test(arguments: ["\u{1B}[15~", "\u{1B}[Z", "\u{1B}[?1;2c", "\u{1B}[200;5u", "\u{1B}OP", "\u{1B}[5~",
                      "\u{1B}\u{1}", "\u{1B}é"])
    func ignoresUnknownSequences(_ sequence: String) {
        #expect(decode(sequence + "x") == [.text("x")])
    }

    @Test func discardsAnEndlessSequenceInsteadOfWaitingForever() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array(("\u{1B}[" + String(repeating: "1;", count: 40)).utf8)) == [])
        #expect(decoder.feed(Array("Ax".utf8)) == [.text("Ax")])
    }

    @Test func stopsOnABadByteInsideASequence() {
        #expect(decode("\u{1B}[1\u{7}a") == [.text("a")])
    }

    @Test func bracketedPasteArrivesAsOnePaste() {
        #expect(decode("\u{1B}[200~order\r白玉\u{1B}[A\u{1B}[201~\r") == [.paste("order\r白玉\u{1B}[A"), .enter])
    }

    @Test func bracketedPasteSplitAcrossReads() {
        var decoder = KeyDecoder()
        let bytes = Array("a\u{1B}[200~熟成紅茶\u{1B}[201~b".utf8)
        var keys: [EditorKey] = []
        for byte in bytes { keys += decoder.feed([byte]) }
        #expect(keys == [.text("a"), .paste("熟成紅茶"), .text("b")])
    }

    @Test func aPasteThatNeverEndsIsHandedOverOnFlush() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[200~menu\r".utf8)) == [])
        #expect(decoder.isInsidePaste)
        #expect(decoder.flush() == [.paste("menu\r")])
        #expect(decoder.feed(Array("\r".utf8)) == [.enter])
    }
}
