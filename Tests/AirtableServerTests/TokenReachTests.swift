import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing
import TestSupport
@testable import AirtableServer

/// A table kept apart stays apart however a request names it and whatever path leads to it: every spelling of
/// its name the store accepts (any case, percent-encoded, by id), every route (records, comments, webhooks,
/// schema), and every field that reaches it (links, lookups, rollups, counts, formulas over them, typecast).
@Suite struct TokenReachTests {
    static let full = "patFULL00000000000.abcdef"
    static let reader = "patREAD00000000000.abcdef"
    static let writer = "patWRITE0000000000.abcdef"
    static let schemaWriter = "patSCHEMA000000000.abcdef"
    static let hooks = "patHOOKS0000000000.abcdef"
    static let scopes = TableScopes(["User": "drinkshop.staff", "TillPayment": "drinkshop.till"])
    static let secret = "pbkdf2$sha256$secret-hash"

    struct Shop {
        let base: LocalBase
        let api: AirtableAPI

        init() async throws {
            base = try LocalBase.inMemory()
            _ = try await base.createTable(APIHarness.drinkTable)
            _ = try await base.createTable(APIHarness.orderTable)
            _ = try await base.createTable(TableSpec(name: "User", fields: [FieldSpec(name: "name", type: .singleLineText),
                                                                            FieldSpec(name: "pinHash", type: .singleLineText),
                                                                            FieldSpec(name: "role", type: .singleLineText)]))
            _ = try await base.createTable(TableSpec(name: "TillPayment", fields: [FieldSpec(name: "amount", type: .number)]))
            _ = try await base.createRecords(in: "User", [["name": "Amy", "pinHash": .string(TokenReachTests.secret),
                                                           "role": "manager"]], options: WriteOptions())
            let file = """
                \(TokenReachTests.full) read-write
                \(TokenReachTests.reader) read
                \(TokenReachTests.writer) data.records:read data.records:write data.recordComments:read data.recordComments:write
                \(TokenReachTests.schemaWriter) schema.bases:read schema.bases:write data.records:read data.records:write
                \(TokenReachTests.hooks) webhook:manage data.records:read
                """
            let tokens = try AccessTokens.parseFile(file, path: "tokens", tableScopes: TokenReachTests.scopes)
            api = AirtableAPI(store: base, baseID: base.baseID, tokens: tokens, tableScopes: TokenReachTests.scopes)
        }

        func send(_ method: String, _ path: String, json: JSONValue? = nil, token: String) async -> Reply {
            await api.reply(method, path.hasPrefix("/") ? path : "/v0/\(base.baseID)/\(path)", json: json, token: token)
        }

        func users() async throws -> [Record] { try await base.allRecords(in: "User") }
    }

    /// Every way of writing `name` in a path that the store might read as the table: each letter's case
    /// (all of them for short names, a fixed sample for long ones), each letter percent-encoded, by id.
    static func spellings(of name: String, id: String) -> [String] {
        let letters = Array(name)
        var spelled: Set<String> = []
        let combinations = letters.count <= 10 ? 1 << letters.count : 256
        for index in 0..<combinations {
            // Long names: 256 masks spread over all of them (a multiplicative hash of the index).
            let mask = letters.count <= 10 ? index : (index &* 2_654_435_761) % (1 << letters.count)
            spelled.insert(String(letters.enumerated().map { offset, letter in
                mask & (1 << offset) != 0 ? Character(letter.uppercased()) : Character(letter.lowercased())
            }))
        }
        for offset in letters.indices {
            var encoded = letters.map(String.init)
            encoded[offset] = String(format: "%%%02X", letters[offset].asciiValue ?? 0)
            spelled.insert(encoded.joined())
        }
        spelled.insert(id)
        return spelled.sorted()
    }

    @Test func noSpellingOfAKeptTableReachesItWithoutItsScope() async throws {
        let shop = try await Shop()
        let schema = try await shop.base.schema()
        let amy = try #require(try await shop.users().first)
        let before = try await shop.users()
        var tried = 0
        for table in ["User", "TillPayment"] {
            let id = try #require(schema.table(table)?.id)
            for spelling in Self.spellings(of: table, id: id) {
                for token in [Self.reader, Self.writer, Self.schemaWriter] {
                    let replies = [
                        await shop.send("GET", spelling, token: token),
                        await shop.send("GET", "\(spelling)/", token: token),
                        await shop.send("POST", "\(spelling)/listRecords", json: [:], token: token),
                        await shop.send("GET", "\(spelling)/\(amy.id)", token: token),
                        await shop.send("POST", spelling, json: ["records": [["fields": ["name": "Mallory", "role": "manager"]]]],
                                        token: token),
                        await shop.send("PATCH", spelling, json: ["records": [["id": .string(amy.id), "fields": ["role": "staff"]]]],
                                        token: token),
                        await shop.send("PATCH", "\(spelling)/\(amy.id)", json: ["fields": ["pinHash": "x"]], token: token),
                        await shop.send("DELETE", "\(spelling)/\(amy.id)", token: token),
                        await shop.send("GET", "\(spelling)/\(amy.id)/comments", token: token),
                        await shop.send("POST", "\(spelling)/\(amy.id)/comments", json: ["text": "hi"], token: token),
                    ]
                    for reply in replies {
                        tried += 1
                        #expect(reply.status == 403 || reply.status == 404 || reply.status == 422,
                                "\(spelling) answered \(reply.status) to \(token.prefix(9))")
                        #expect(!reply.text.contains(Self.secret) && !reply.text.contains("manager"), "\(spelling) leaked")
                    }
                }
            }
        }
        #expect(tried > 3_000)
        #expect(try await shop.users() == before)
        // The one token with the scopes still reaches it, by every spelling.
        #expect(await shop.send("GET", "user", token: Self.full).text.contains(Self.secret))
    }

    @Test func aFieldThatReachesAKeptTableIsHiddenEverywhere() async throws {
        let shop = try await Shop()
        // The owner (a full token) links orders to the staff and looks their hashes up; a rollup and a formula
        // over the lookup, a count of the links, and a field that reaches nothing kept apart.
        let userID = try #require(try await shop.base.schema().table("User")?.id)
        let link = await shop.send("POST", "/v0/meta/bases/\(shop.base.baseID)/tables/OrderDrink/fields",
                                   json: ["name": "maker", "type": "multipleRecordLinks", "options": ["linkedTableId": .string(userID)]],
                                   token: Self.full)
        #expect(link.status == 200)
        for (name, type, options) in [
            ("makerHash", "multipleLookupValues", ["recordLinkFieldId": "maker", "fieldIdInLinkedTable": "pinHash"] as JSONValue),
            ("hashes", "rollup", ["recordLinkFieldId": "maker", "fieldIdInLinkedTable": "pinHash"]),
            ("makers", "count", ["recordLinkFieldId": "maker"]),
            ("hashText", "formula", ["formula": "{makerHash} & ''"]),
            ("cups2", "formula", ["formula": "{numberOfCups} * 2"]),
        ] {
            let made = await shop.send("POST", "/v0/meta/bases/\(shop.base.baseID)/tables/OrderDrink/fields",
                                       json: ["name": .string(name), "type": .string(type), "options": options], token: Self.full)
            #expect(made.status == 200, "\(name): \(made.text)")
        }
        let amy = try #require(try await shop.users().first)
        _ = try await shop.base.createRecords(in: "OrderDrink", [["drinkName": "熟成紅茶", "numberOfCups": 2,
                                                                 "maker": [.string(amy.id)]]], options: WriteOptions())
        for token in [Self.reader, Self.writer] {
            for path in ["OrderDrink", "OrderDrink?cellFormat=string&timeZone=UTC&userLocale=en",
                         "OrderDrink?returnFieldsByFieldId=true"] {
                let listed = await shop.send("GET", path, token: token)
                #expect(listed.status == 200)
                #expect(!listed.text.contains(Self.secret) && !listed.text.contains(amy.id), "\(path) leaked")
                #expect(listed.text.contains("熟成紅茶") && listed.text.contains("\"cups2\"") == !path.contains("FieldId"))
            }
            for query in ["fields%5B%5D=makerHash", "fields%5B%5D=MAKERHASH", "sort%5B0%5D%5Bfield%5D=hashes",
                          "filterByFormula=FIND(%27pbkdf2%27%2C%7BmakerHash%7D)", "filterByFormula=%7BhashText%7D%3D%27%27",
                          "filterByFormula=%7Bmakers%7D%3E0"] {
                let probe = await shop.send("GET", "OrderDrink?\(query)", token: token)
                #expect(probe.status == 403, "\(query) answered \(probe.status)")
            }
            let one = try #require(try await shop.base.allRecords(in: "OrderDrink").first)
            let got = await shop.send("GET", "OrderDrink/\(one.id)", token: token)
            #expect(got.status == 200 && !got.text.contains(Self.secret) && !got.text.contains(amy.id))
        }
        // A full token still sees what it made.
        #expect(await shop.send("GET", "OrderDrink", token: Self.full).text.contains(Self.secret))
    }

    @Test func writesAndTypecastNeverReachAKeptTableThroughALink() async throws {
        let shop = try await Shop()
        let userID = try #require(try await shop.base.schema().table("User")?.id)
        _ = try await shop.base.createField(in: "OrderDrink", FieldSpec(name: "maker", type: .multipleRecordLinks,
                                                                         options: ["linkedTableId": .string(userID)]))
        let amy = try #require(try await shop.users().first)
        let before = try await shop.users()
        let writes: [(String, String, JSONValue)] = [
            ("POST", "OrderDrink?", ["records": [["fields": ["drinkName": "x", "maker": ["Mallory"]]]], "typecast": true]),
            ("POST", "OrderDrink?", ["fields": ["drinkName": "x", "Maker": [.string(amy.id)]]]),
            ("PATCH", "OrderDrink?", ["performUpsert": ["fieldsToMergeOn": ["maker"]],
                                      "records": [["fields": ["drinkName": "x", "maker": ["Boss"]]]], "typecast": true]),
        ]
        for (method, path, body) in writes {
            let reply = await shop.send(method, String(path.dropLast()), json: body, token: Self.writer)
            #expect(reply.status == 403, "\(method) \(body) answered \(reply.status)")
        }
        #expect(try await shop.users() == before)
        #expect(try await shop.base.allRecords(in: "OrderDrink").isEmpty)
    }

    @Test func aSchemaTokenCannotBuildAPathIntoAKeptTable() async throws {
        let shop = try await Shop()
        let userID = try #require(try await shop.base.schema().table("User")?.id)
        let meta = "/v0/meta/bases/\(shop.base.baseID)/tables"
        let link = await shop.send("POST", "\(meta)/OrderDrink/fields",
                                   json: ["name": "maker", "type": "multipleRecordLinks", "options": ["linkedTableId": .string(userID)]],
                                   token: Self.schemaWriter)
        #expect(link.status == 403 && link.errorMessage?.contains("drinkshop.staff") == true)
        let table = await shop.send("POST", meta, json: ["name": "Spy", "fields": [
            ["name": "name", "type": "singleLineText"],
            ["name": "who", "type": "multipleRecordLinks", "options": ["linkedTableId": .string(userID)]],
        ]], token: Self.schemaWriter)
        #expect(table.status == 403)
        // Nor add a field to the kept table itself, by any spelling.
        for spelling in ["User", "user", "USER", userID] {
            let field = await shop.send("POST", "\(meta)/\(spelling)/fields", json: ["name": "copy", "type": "formula",
                                                                                    "options": ["formula": "{pinHash}"]],
                                        token: Self.schemaWriter)
            #expect(field.status == 403, "\(spelling)")
        }
        let schema = try await shop.base.schema()
        #expect(schema.table("Spy") == nil && schema.table("OrderDrink")?.field("maker") == nil)
        #expect(schema.table("User")?.field("copy") == nil)
    }

    @Test func webhookPayloadsLeaveOutWhatTheirReaderMayNotSee() async throws {
        let shop = try await Shop()
        let userID = try #require(try await shop.base.schema().table("User")?.id)
        let hooks = "/v0/bases/\(shop.base.baseID)/webhooks"
        let spec: JSONValue = ["options": ["filters": ["dataTypes": ["tableData"]],
                                           "includes": ["includeCellValuesInFieldIds": "all"]]]
        let watchUsers: JSONValue = ["options": ["filters": ["dataTypes": ["tableData"], "recordChangeScope": .string(userID)]]]
        #expect(await shop.send("POST", hooks, json: ["specification": watchUsers], token: Self.hooks).status == 403)
        let made = await shop.send("POST", hooks, json: ["specification": spec], token: Self.hooks)
        #expect(made.status == 200)
        let id = try #require(made.json["id"]?.stringValue)
        _ = try await shop.base.createRecords(in: "User", [["name": "Ben", "pinHash": "pbkdf2$sha256$bens-hash"]],
                                              options: WriteOptions())
        _ = try await shop.base.createRecords(in: "OrderDrink", [["drinkName": "熟成紅茶"]], options: WriteOptions())
        let payloads = await shop.send("GET", "\(hooks)/\(id)/payloads", token: Self.hooks)
        #expect(payloads.status == 200)
        #expect(!payloads.text.contains("bens-hash") && !payloads.text.contains(userID))
        #expect(payloads.text.contains("熟成紅茶"))
        // The application's own token sees both.
        let all = await shop.send("GET", "\(hooks)/\(id)/payloads", token: Self.full)
        #expect(all.text.contains("bens-hash") && all.text.contains("熟成紅茶"))
    }
}
