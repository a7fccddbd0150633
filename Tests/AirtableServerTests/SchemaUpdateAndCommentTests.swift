import Airtable
import Testing
@testable import AirtableServer

/// Table names matched as Airtable does, the update-table/update-field routes, and record comments.
@Suite struct SchemaUpdateAndCommentTests {
    @Test func tableNamesMatchIgnoringCaseWhenNoNameMatchesExactly() async throws {
        let api = try await APIHarness()
        _ = try await api.seedOrders(2)
        #expect(await api.get(api.path("orderdrink")).ids.count == 2)
        #expect(await api.get(api.path("ORDERDRINK")).ids.count == 2)
        #expect(await api.get(api.path("OrderDrinks")).errorType == "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")
    }

    @Test func tablesAndFieldsAreRenamedAndDescribed() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(1)
        let meta = "/v0/meta/bases/\(api.base.baseID)/tables"
        let table = await api.send("PATCH", "\(meta)/OrderDrink", json: ["name": "Orders", "description": "every cup"])
        #expect(table.status == 200, "\(table)")
        #expect(table.json["name"] == "Orders" && table.json["description"] == "every cup")
        #expect(table.json["fields"]?.arrayValue?.count == 12)
        let field = await api.send("PATCH", "\(meta)/Orders/fields/orderName", json: ["name": "customer"])
        #expect(field.status == 200, "\(field)")
        #expect(field.json["name"] == "customer" && field.json["type"] == "singleLineText")
        // The cells follow the field: they are keyed by id.
        let record = await api.get(api.path("Orders", "/\(ids[0])"))
        #expect(record.json["fields"]?["customer"] == "guest 0")
        #expect(await api.get(api.path("OrderDrink")).errorType == "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")
    }

    @Test func badSchemaUpdatesGetAirtablesErrorsAndChangeNothing() async throws {
        let api = try await APIHarness()
        let meta = "/v0/meta/bases/\(api.base.baseID)/tables"
        let before = try await api.base.schema()
        #expect(await api.send("PATCH", "\(meta)/OrderDrink", json: ["name": "drink"]).errorType == "DUPLICATE_TABLE_NAME")
        #expect(await api.send("PATCH", "\(meta)/OrderDrink/fields/price", json: ["name": "SIZE"]).errorType
            == "DUPLICATE_OR_EMPTY_FIELD_NAME")
        #expect(await api.send("PATCH", "\(meta)/OrderDrink", json: [:]).errorType == "INVALID_REQUEST_UNKNOWN")
        #expect(await api.send("PATCH", "\(meta)/OrderDrink/fields/price", json: ["type": "currency"]).status == 422)
        #expect(await api.send("PATCH", "\(meta)/OrderDrink", json: ["name": " "]).status == 422)
        #expect(await api.send("PATCH", "\(meta)/Nope", json: ["name": "x"]).status == 403)
        #expect(await api.send("PATCH", "\(meta)/OrderDrink/fields/fldNope", json: ["name": "x"]).status == 403)
        #expect(await api.send("PATCH", "\(meta)/OrderDrink", json: ["name": "x"], token: APIHarness.reader).status == 403)
        #expect(try await api.base.schema() == before)
    }

    @Test func commentsAreAddedListedEditedCountedAndDeleted() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(2)
        let whoami = try #require(await api.get("/v0/meta/whoami").json["id"]?.stringValue)
        let comments = api.path("OrderDrink", "/\(ids[0])/comments")
        let added = await api.send("POST", comments, json: ["text": .string("for @[\(whoami)], no ice")])
        #expect(added.status == 200, "\(added)")
        #expect(added.json["author"]?["id"]?.stringValue == whoami)
        #expect(added.json["mentioned"]?[whoami]?["type"] == "user")
        #expect(added.json["lastUpdatedTime"] == JSONValue.null)
        let commentID = try #require(added.json["id"]?.stringValue)
        #expect(AirtableID.isValid(commentID, prefix: "com"))
        _ = await api.send("POST", comments, json: ["text": "second"])

        let listed = await api.get(comments)
        #expect(listed.json["comments"]?.arrayValue?.compactMap { $0["text"]?.stringValue }
            == ["second", "for @[\(whoami)], no ice"])
        #expect(listed.json["offset"] == JSONValue.null)
        let paged = await api.get(comments + "?pageSize=1")
        #expect(paged.json["comments"]?.arrayValue?.count == 1 && paged.json["offset"]?.stringValue == commentID)

        let counts = await api.get(api.path("OrderDrink", "?recordMetadata%5B%5D=commentCount"))
        let byID = Dictionary(uniqueKeysWithValues: counts.records.map { ($0["id"]?.stringValue ?? "", $0["commentCount"]) })
        #expect(byID[ids[0]] == 2 && byID[ids[1]] == 0)

        let edited = await api.send("PATCH", comments + "/\(commentID)", json: ["text": "Never mind!"])
        #expect(edited.json["text"] == "Never mind!" && edited.json["mentioned"] == nil)
        #expect(edited.json["lastUpdatedTime"]?.stringValue != nil)
        let deleted = await api.send("DELETE", comments + "/\(commentID)")
        #expect(deleted.json == JSONValue.object(["id": .string(commentID), "deleted": .bool(true)]))
        #expect(await api.get(comments).json["comments"]?.arrayValue?.count == 1)
        #expect(await api.send("DELETE", comments + "/\(commentID)").status == 403)
    }

    @Test func badCommentsAreRefused() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(1)
        let comments = api.path("OrderDrink", "/\(ids[0])/comments")
        #expect(await api.send("POST", comments, json: ["text": "  "]).status == 422)
        #expect(await api.send("POST", comments, json: ["message": "hi"]).status == 422)
        #expect(await api.send("POST", comments, json: ["text": "hi"], token: APIHarness.reader).status == 403)
        #expect(await api.send("POST", api.path("OrderDrink", "/recAAAAAAAAAAAAAA/comments"), json: ["text": "x"]).status
            == 403)
        #expect(await api.get(comments + "?pageSize=0").errorType == "INVALID_PAGE_SIZE_ARGUMENT")
        #expect(await api.get(comments + "?offset=comNOPE").errorType == "INVALID_OFFSET_VALUE")
        #expect(await api.get(comments).json["comments"] == [])
    }
}
