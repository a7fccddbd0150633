import Testing
@testable import Airtable

/// `JSONParser.parseObject(_:keeping:)` (a listing's `fields[]`) and the string path without escapes.
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

    @Test func stringsWithoutEscapesAreTheSameAndInvalidUTF8IsStillRefused() throws {
        #expect(try JSONParser.parse(#""plain ascii""#) == .string("plain ascii"))
        #expect(try JSONParser.parse(#""雪花冷露 é 🧋""#) == .string("雪花冷露 é 🧋"))
        #expect(try JSONParser.parse(#""""#) == .string(""))
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0x61, 0xFF, 0x62, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0xE9, 0x8C, 0x22]) }  // cut short
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse([0x22, 0x61, 0x62]) }  // unterminated
    }
}
