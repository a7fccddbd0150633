import Airtable
import Foundation
import LocalBase
import Testing
import TestSupport
@testable import AirtableServer

/// Tokens with Airtable's scopes, and tables kept apart by scopes of their own: a token for a display or a
/// delivery integration reads the menu and adds orders, and never reads the staff table (PIN hashes) or
/// writes payments; a full token acts as the whole application.
@Suite struct TokenScopeTests {
    static let full = "patFULL00000000000.abcdef"
    static let orders = "patORDERS000000000.abcdef"
    static let display = "patDISPLAY00000000.abcdef"
    static let staffReader = "patSTAFF0000000000.abcdef"
    static let scopes = TableScopes(["User": "drinkshop.staff", "TillPayment": "drinkshop.till"])

    struct Harness {
        let base: LocalBase
        let api: AirtableAPI

        init() async throws {
            base = try LocalBase.inMemory()
            _ = try await base.createTable(APIHarness.drinkTable)
            _ = try await base.createTable(APIHarness.orderTable)
            _ = try await base.createTable(TableSpec(name: "User", fields: [FieldSpec(name: "name", type: .singleLineText),
                                                                            FieldSpec(name: "pinHash", type: .singleLineText)]))
            _ = try await base.createTable(TableSpec(name: "TillPayment", fields: [FieldSpec(name: "amount", type: .number)]))
            _ = try await base.createRecords(in: "User", [["name": "Amy", "pinHash": "pbkdf2$secret"]], options: WriteOptions())
            let file = """
                \(TokenScopeTests.full) read-write
                \(TokenScopeTests.orders) data.records:read,data.records:write
                \(TokenScopeTests.display) data.records:read
                \(TokenScopeTests.staffReader) data.records:read drinkshop.staff:read schema.bases:read
                """
            let tokens = try AccessTokens.parseFile(file, path: "tokens", tableScopes: TokenScopeTests.scopes)
            api = AirtableAPI(store: base, baseID: base.baseID, tokens: tokens, tableScopes: TokenScopeTests.scopes)
        }

        func send(_ method: String, _ table: String, _ rest: String = "", json: JSONValue? = nil, token: String) async -> Reply {
            await api.reply(method, table.hasPrefix("/") ? table : "/v0/\(base.baseID)/\(table)\(rest)", json: json, token: token)
        }
    }

    @Test func anOrdersTokenReadsTheMenuAndAddsOrdersButNeverTheStaffOrThePayments() async throws {
        let shop = try await Harness()
        let order: JSONValue = ["records": [["fields": ["drinkName": "熟成紅茶", "orderName": "Foodpanda #12"]]]]
        #expect(await shop.send("GET", "Drink", token: Self.orders).status == 200)
        #expect(await shop.send("POST", "OrderDrink", json: order, token: Self.orders).status == 200)
        let staff = await shop.send("GET", "User", token: Self.orders)
        #expect(staff.status == 403 && staff.errorType == "INVALID_PERMISSIONS")
        #expect(staff.errorMessage?.contains("drinkshop.staff:read") == true)
        #expect(!staff.text.contains("pbkdf2"))
        // By the table's id as well as its name.
        let userID = try #require(try await shop.base.schema().table("User")?.id)
        #expect(await shop.send("GET", userID, token: Self.orders).status == 403)
        let payment: JSONValue = ["records": [["fields": ["amount": 35]]]]
        #expect(await shop.send("POST", "TillPayment", json: payment, token: Self.orders).status == 403)
        #expect(try await shop.base.allRecords(in: "TillPayment").isEmpty)
        // No schema, comment or webhook scope: refused as Airtable refuses it.
        let schema = await shop.send("GET", "/v0/meta/bases/\(shop.base.baseID)/tables", token: Self.orders)
        #expect(schema.status == 403 && schema.errorMessage == "You are not permitted to perform this operation")
        #expect(await shop.send("POST", "/v0/bases/\(shop.base.baseID)/webhooks", json: [:], token: Self.orders).status == 403)
    }

    @Test func aDisplayTokenOnlyReads() async throws {
        let shop = try await Harness()
        #expect(await shop.send("GET", "OrderDrink", token: Self.display).status == 200)
        let write = await shop.send("POST", "OrderDrink", json: ["records": [["fields": ["drinkName": "x"]]]], token: Self.display)
        #expect(write.status == 403 && write.errorType == "INVALID_PERMISSIONS")
    }

    @Test func theStaffScopeReadsTheStaffTableAndAFullTokenActsAsTheWholeShop() async throws {
        let shop = try await Harness()
        #expect(await shop.send("GET", "User", token: Self.staffReader).status == 200)
        #expect(await shop.send("PATCH", "User", json: ["records": []], token: Self.staffReader).status == 403)
        #expect(await shop.send("GET", "User", token: Self.full).status == 200)
        #expect(await shop.send("POST", "TillPayment", json: ["records": [["fields": ["amount": 35]]]], token: Self.full).status == 200)
        let whoami = await shop.send("GET", "/v0/meta/whoami", token: Self.staffReader)
        #expect(whoami.json["scopes"]?.arrayValue?.compactMap(\.stringValue) == ["data.records:read", "schema.bases:read", "drinkshop.staff:read"])
        let fullScopes = await shop.send("GET", "/v0/meta/whoami", token: Self.full).json["scopes"]?.arrayValue?.compactMap(\.stringValue)
        #expect(fullScopes?.contains("drinkshop.till:write") == true && fullScopes?.contains("webhook:manage") == true)
    }

    @Test func aTokenFileNamesAnUnknownScopeByLineNeverTheToken() {
        do {
            _ = try AccessTokens.parseFile("patAAAAAAAAAA data.records:read drinkshop.admin:write\n", path: "t", tableScopes: Self.scopes)
            Issue.record("an unknown scope was accepted")
        } catch {
            #expect(error.path == "t" && error.line == 1 && error.problem.contains("drinkshop.admin:write"))
            #expect(!error.description.contains("patAAAAAAAAAA"))
        }
    }
}
