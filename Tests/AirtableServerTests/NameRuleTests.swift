import Airtable
import Testing
@testable import AirtableServer

/// Control characters are refused in names, descriptions and comments, with Airtable's 422; the tables an
/// application reads by name are not renamed while it runs.
@Suite struct NameRuleTests {
    /// NUL, ESC, tab, line feed, DEL and NEL (a C1 control), each inside a name.
    @Test(arguments: [0x00, 0x1B, 0x09, 0x0A, 0x7F, 0x85] as [UInt8])
    func controlCharactersInNamesAreRefusedAndChangeNothing(_ code: UInt8) async throws {
        let name = "Drink" + String(Character(Unicode.Scalar(code))) + "x"
        let api = try await APIHarness()
        let meta = "/v0/meta/bases/\(api.base.baseID)/tables"
        let before = try await api.base.schema()
        let refusals = [
            await api.send("PATCH", "\(meta)/Drink", json: ["name": .string(name)]),
            await api.send("PATCH", "\(meta)/Drink/fields/name", json: ["name": .string(name)]),
            await api.send("POST", meta, json: ["name": .string(name), "fields": [["name": "a", "type": "singleLineText"]]]),
            await api.send("POST", meta, json: ["name": "Fine", "fields": [["name": .string(name), "type": "singleLineText"]]]),
            await api.send("POST", "\(meta)/Drink/fields", json: ["name": .string(name), "type": "singleLineText"]),
        ]
        for reply in refusals {
            #expect(reply.status == 422, "\(reply)")
            #expect(reply.errorType == "INVALID_REQUEST_UNKNOWN")
            #expect(reply.errorMessage?.contains("control characters") == true, "\(reply)")
            // The message names the character by its code, never the raw character.
            #expect(reply.errorMessage?.unicodeScalars.contains { $0.properties.generalCategory == .control } == false)
        }
        #expect(try await api.base.schema() == before)
    }

    @Test func descriptionsAndCommentsKeepLineBreaksButNotOtherControlCharacters() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(1)
        let meta = "/v0/meta/bases/\(api.base.baseID)/tables"
        #expect(await api.send("PATCH", "\(meta)/Drink", json: ["description": "menu\nline two\tand a tab"]).status == 200)
        let bell = await api.send("PATCH", "\(meta)/Drink", json: ["description": "ring\u{7}"])
        #expect(bell.status == 422 && bell.errorMessage?.contains("U+0007") == true, "\(bell)")
        #expect(await api.send("PATCH", "\(meta)/Drink/fields/name", json: ["description": "x\u{0}"]).status == 422)
        #expect(await api.send("POST", "\(meta)/Drink/fields",
                               json: ["name": "note", "type": "singleLineText", "description": "\u{1B}[31m"]).status == 422)

        let comments = api.path("OrderDrink", "/\(ids[0])/comments")
        #expect(await api.send("POST", comments, json: ["text": "no ice\nplease"]).status == 200)
        let escape = await api.send("POST", comments, json: ["text": "hi\u{1B}]0;owned\u{7}"])
        #expect(escape.status == 422 && escape.errorType == "INVALID_REQUEST_UNKNOWN", "\(escape)")
        let added = await api.send("POST", comments, json: ["text": "fine"])
        let id = try #require(added.json["id"]?.stringValue)
        #expect(await api.send("PATCH", comments + "/\(id)", json: ["text": "nul\u{0}"]).status == 422)
        let listed = await api.get(comments)
        #expect(listed.json["comments"]?.arrayValue?.count == 2)
    }

    @Test func protectedTablesAndFieldsAreNotRenamedButMayBeDescribed() async throws {
        let protected = ProtectedTables([(table: "Drink", fields: ["name", "medium"])], owner: "the shop's counters")
        let api = try await APIHarness(protectedTables: protected)
        let meta = "/v0/meta/bases/\(api.base.baseID)/tables"
        let drinkID = try #require(try await api.base.schema().table("Drink")?.id)
        let before = try await api.base.schema()
        for target in ["\(meta)/Drink", "\(meta)/\(drinkID)", "\(meta)/drink"] {
            let renamed = await api.send("PATCH", target, json: ["name": "Drinks"])
            #expect(renamed.status == 403 && renamed.errorType == "INVALID_PERMISSIONS", "\(renamed)")
            #expect(renamed.errorMessage?.contains("Table \"Drink\" is used by the shop's counters") == true)
        }
        let field = await api.send("PATCH", "\(meta)/Drink/fields/name", json: ["name": "title"])
        #expect(field.status == 403 && field.errorMessage?.contains("Field \"name\" of table \"Drink\"") == true, "\(field)")
        #expect(try await api.base.schema() == before)

        // Describing is fine, so is renaming to the same name, and tables and fields nobody relies on.
        #expect(await api.send("PATCH", "\(meta)/Drink", json: ["name": "Drink", "description": "the menu"]).status == 200)
        #expect(await api.send("PATCH", "\(meta)/Drink/fields/name", json: ["description": "as printed"]).status == 200)
        #expect(await api.send("PATCH", "\(meta)/Drink/fields/large", json: ["name": "grande"]).status == 200)
        #expect(await api.send("PATCH", "\(meta)/OrderDrink", json: ["name": "Orders"]).status == 200)
    }

    @Test func theRuleNamesThePositionAndCodeOfTheFirstControlCharacter() {
        #expect(TextRules.forbiddenCharacter(in: "abc", kind: .tableName) == nil)
        #expect(TextRules.forbiddenCharacter(in: "熟成紅茶", kind: .fieldName) == nil)
        let found = TextRules.forbiddenCharacter(in: "ab\u{1B}c", kind: .tableName)
        #expect(found?.scalar == "\u{1B}" && found?.position == 3)
        #expect(TextRules.forbiddenCharacter(in: "a\r\nb\tc", kind: .comment) == nil)
        #expect(TextRules.forbiddenCharacter(in: "a\r\nb", kind: .tableName)?.position == 2)
        #expect(TextRules.forbiddenCharacter(in: "\u{9F}", kind: .description)?.scalar == "\u{9F}")
    }
}
