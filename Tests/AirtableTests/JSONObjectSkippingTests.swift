import Testing
@testable import Airtable

/// `JSONParser.parseObject(_:keeping:)` (a listing's `fields[]`), `parseObject(_:renaming:droppingEmptyCells:)` (a
/// listing read straight into records' fields) and the string path without escapes.
@Suite struct JSONObjectSkippingTests {
    private let text = #"{"fldA":"熟成紅茶","fldB":{"x":[1,"a\"b",null]},"fldC":"say \"hi\"\n","fldD":35,"fldE":["加白玉"],"fldF":true}"#

    @Test func keepsExactlyTheNamedMembersAsTheFullParseHasThem() throws {
        let full = try #require(try JSONParser.parse(text).objectValue)
        for keeping: Set<String> in [["fldA"], ["fldB", "fldD"], ["fldC", "fldE", "fldF", "nope"], [], Set(full.keys)] {
            let some = try JSONParser.parseObject(text, keeping: keeping)
            #expect(some == full.filter { keeping.contains($0.key) }, "\(keeping)")
        }
        #expect(try JSONParser.parseObject(text, keeping: nil) == full)
    }

    @Test(arguments: [#"{"a":1,"b":"x"#, #"{"a":1,"b":tru}"#, #"{"a":1,"b":"\q"}"#, "{\"a\":1,\"b\":\"\u{01}\"}", #"{"a":1,"b":[1,}"#,
                      #"{"a":1} x"#, #"[1]"#])
    func aSkippedMemberIsStillCheckedAsJSON(_ bad: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parseObject(bad, keeping: ["a"]) }
    }

    @Test func renamingKeepsTheNamedMembersUnderTheirNewNames() throws {
        let full = try #require(try JSONParser.parse(text).objectValue)
        let renamings: [[String: String]] = [
            [:], ["fldA": "drinkName"], ["fldB": "b", "fldD": "price", "nope": "never"],
            ["fldA": "a", "fldB": "b", "fldC": "c", "fldD": "d", "fldE": "e", "fldF": "f"],
            // A name kept under another member's name, and names long enough to collide in a small table.
            ["fldA": "fldB", "fldC": "fldCCCCCCCCCCCCCCCCCCCCCCCCC"],
            Dictionary(uniqueKeysWithValues: (0..<40).map { ("fld\($0)", "n\($0)") } + [("fldE", "addOns")]),
        ]
        for renaming in renamings {
            let names = JSONMemberNames(renaming)
            #expect(names.count == renaming.count)
            let got = try JSONParser.parseObject(text, renaming: names, droppingEmptyCells: false)
            var want: [String: JSONValue] = [:]
            for (key, value) in full { if let name = renaming[key] { want[name] = value } }
            #expect(got == want, "\(renaming)")
        }
    }

    @Test func renamingReadsEscapedNamesAndDropsEmptyCellsWhenAsked() throws {
        // "fld\u0041" is "fldA" written with an escape: looked up by its unescaped bytes.
        let escaped = #"{"fld\u0041":"x","fldB":"","fldC":[],"fldD":null,"fldE":0,"fldF":false,"é名":"y"}"#
        let names = JSONMemberNames(["fldA": "a", "fldB": "b", "fldC": "c", "fldD": "d", "fldE": "e", "fldF": "f", "é名": "g"])
        let all = try JSONParser.parseObject(escaped, renaming: names, droppingEmptyCells: false)
        #expect(all == ["a": "x", "b": "", "c": .array([]), "d": .null, "e": 0, "f": false, "g": "y"])
        let kept = try JSONParser.parseObject(escaped, renaming: names, droppingEmptyCells: true)
        #expect(kept == all.filter { !$0.value.isEmptyCell })
        #expect(kept["a"] == "x" && kept["g"] == "y")
    }

    @Test(arguments: [#"{"a":1,"b":"x"#, #"{"a":1,"b":tru}"#, #"{"a":1,"b":"\q"}"#, "{\"a\":1,\"b\":\"\u{01}\"}", #"{"a":1,"b":[1,}"#,
                      #"{"a":1} x"#, #"[1]"#, #"{"a" 1}"#, #"{"a\q":1}"#, "{\"a\u{01}\":1}", #"{"a":1,}"#])
    func aRenamingParseChecksWhatItSkipsAsJSON(_ bad: String) {
        #expect(throws: JSONSyntaxError.self) {
            try JSONParser.parseObject(bad, renaming: JSONMemberNames(["a": "A"]), droppingEmptyCells: true)
        }
    }

    @Test func stringsWithoutEscapesAreTheSameAndInvalidUTF8IsStillRefused() throws {
        #expect(try JSONParser.parse(#""plain ascii""#) == .string("plain ascii"))
        #expect(try JSONParser.parse(#""雪花冷露 é 🧋""#) == .string("雪花冷露 é 🧋"))
        #expect(try JSONParser.parse(#""""#) == .string(""))
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0x61, 0xFF, 0x62, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xE9, 0x8C, 0x22]) }  // cut short
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0x61, 0x62]) }  // unterminated
    }
}
