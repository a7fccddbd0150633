import Airtable
import AirtableFormula
import Foundation
import Testing
@testable import AirtableServer

/// Get, create and update (reference §3–§5.2): response shapes, request order, typecast, and the rule
/// that a request answered with an error changes nothing.
@Suite struct WriteRouteTests {
    @Test func getReturnsTheBareRecordWithoutEmptyCells() async throws {
        let api = try await APIHarness()
        let created = await api.send("POST", api.path(), json: ["fields": [
            "drinkName": "熟成紅茶", "orderName": "", "addOns": [], "paid": false, "price": 35, "imageUrl": nil,
        ]])
        let id = try #require(created.json["id"]?.stringValue)
        let reply = await api.get(api.path("OrderDrink", "/\(id)"))
        #expect(reply.json.objectValue?.keys.sorted() == ["createdTime", "fields", "id"])
        #expect(reply.json["fields"] == ["drinkName": "熟成紅茶", "price": 35])
        let created_ = try #require(reply.json["createdTime"]?.stringValue)
        // Exactly YYYY-MM-DDTHH:MM:SS.sssZ, the clock's time.
        #expect(created_ == "2026-11-18T11:06:40.250Z")
        #expect(created_.utf8.count == 24)
        // An empty record still has its `fields` object.
        let empty = await api.send("POST", api.path(), json: ["fields": [:]])
        #expect(empty.json["fields"] == [:])
        // get takes only the read options: pyairtable forwarding `fields` is refused, as by Airtable.
        let fields = await api.get(api.path("OrderDrink", "/\(id)?fields%5B%5D=price"))
        #expect(fields.status == 422)
        #expect(fields.errorType == "INVALID_REQUEST_UNKNOWN")
        #expect(fields.errorMessage?.contains("fields[]") == true)
    }

    @Test func createsOneRecordBareOrABatchInRequestOrder() async throws {
        let api = try await APIHarness()
        let single = await api.send("POST", api.path(), json: ["fields": kebukeLine(), "typecast": false,
                                                               "returnFieldsByFieldId": false])
        #expect(single.status == 200)
        #expect(single.json["records"] == nil)
        #expect(single.json["fields"] == kebukeLine())
        let names = (1...10).map { "guest \($0)" }
        let batch = await api.send("POST", api.path(), json: [
            "records": .array(names.map { ["fields": kebukeLine(name: $0)] }), "typecast": nil,
        ])
        #expect(batch.status == 200)
        #expect(batch.records.compactMap { $0["fields"]?["orderName"]?.stringValue } == names)
        #expect(Set(batch.ids).count == 10 && batch.ids.allSatisfy { AirtableID.isValid($0, prefix: "rec") })
        let stored = try await api.orders()
        #expect(stored.count == 11)
        #expect(stored[batch.ids[3]]?["orderName"] == "guest 4")
    }

    @Test func badCreatesAreRefusedWholeWithAirtablesErrors() async throws {
        let api = try await APIHarness()
        let good: JSONValue = ["fields": kebukeLine()]
        let cases: [(JSONValue?, String?, Int, String, String?)] = [
            (["records": .array(Array(repeating: good, count: 11))], nil, 422, "INVALID_RECORDS", "up to 10 record objects"),
            (["records": []], nil, 422, "INVALID_RECORDS", nil),
            (["records": [good, ["field": ["price": 1]]]], nil, 422, "INVALID_RECORDS", nil),
            (["records": "all"], nil, 422, "INVALID_RECORDS", nil),
            ([:], nil, 422, "INVALID_REQUEST_MISSING_FIELDS", "Could not find field \"fields\" in the request body"),
            (nil, nil, 422, "INVALID_REQUEST_MISSING_FIELDS", nil),
            (["fields": "x"], nil, 422, "INVALID_REQUEST_UNKNOWN", "\"fields\" must be an object"),
            (["fields": [:], "records": [good]], nil, 422, "INVALID_REQUEST_UNKNOWN", "both"),
            (["records": [good, ["fields": ["nope": 1]]]], nil, 422, "UNKNOWN_FIELD_NAME", "Unknown field name: \"nope\""),
            (["records": [good, ["fields": ["price": "cheap"]]]], nil, 422, "INVALID_VALUE_FOR_COLUMN", "record 2"),
            (["records": [good, ["fields": ["size": "XL"]]]], nil, 422, "INVALID_MULTIPLE_CHOICE_OPTIONS",
             "Insufficient permissions to create new select option \"\"XL\"\""),
            (["records": [["id": "recAAAAAAAAAAAAAA", "fields": [:]]]], nil, 422, "INVALID_REQUEST_UNKNOWN", "id"),
            (["fields": [:], "typecast": "yes"], nil, 422, "INVALID_REQUEST_UNKNOWN", "typecast"),
            (["fields": [:], "colour": "red"], nil, 422, "INVALID_REQUEST_UNKNOWN", "colour"),
            (nil, "{\"fields\": {\"price\": 1,}}", 400, "INVALID_REQUEST_BODY", "line 1"),
            (nil, "[1, 2", 400, "INVALID_REQUEST_BODY", nil),
            (nil, "\"fields\"", 422, "INVALID_REQUEST_UNKNOWN", "JSON object"),
        ]
        for (json, text, status, type, message) in cases {
            let reply = await api.send("POST", api.path(), json: json, body: text)
            #expect(reply.status == status, "\(json.map { "\($0)" } ?? text ?? ""): \(reply)")
            #expect(reply.errorType == type, "\(json.map { "\($0)" } ?? text ?? ""): \(reply)")
            if let message { #expect(reply.errorMessage?.contains(message) == true, "\(reply)") }
        }
        #expect(try await api.orders().isEmpty)
        #expect(try await api.base.schema().table("OrderDrink")?.field("size")?.choices == ["中杯", "大杯"])
    }

    @Test func typecastConvertsValuesAndAddsSelectOptions() async throws {
        let api = try await APIHarness()
        let reply = await api.send("POST", api.path(), json: [
            "fields": ["size": "特大杯", "price": "150", "numberOfCups": "2", "paid": "yes", "addOns": "加白玉, 加椰果"],
            "typecast": true,
        ])
        #expect(reply.status == 200, "\(reply)")
        #expect(reply.json["fields"] == ["size": "特大杯", "price": 150, "numberOfCups": 2, "paid": true,
                                         "addOns": ["加白玉", "加椰果"]])
        let schema = await api.get("/v0/meta/bases/\(api.base.baseID)/tables").json
        let order = schema["tables"]?.arrayValue?.first { $0["name"] == "OrderDrink" }
        let size = order?["fields"]?.arrayValue?.first { $0["name"] == "size" }
        let choices = size?["options"]?["choices"]?.arrayValue ?? []
        #expect(choices.compactMap { $0["name"]?.stringValue } == ["中杯", "大杯", "特大杯"])
        #expect(choices.allSatisfy { $0["id"]?.stringValue.map { AirtableID.isValid($0, prefix: "sel") } == true })
    }

    @Test func patchMergesAndPutReplacesOneOrABatch() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(3)
        let patched = await api.send("PATCH", api.path("OrderDrink", "/\(ids[0])"),
                                     json: ["fields": ["price": 70, "orderName": nil], "typecast": false])
        #expect(patched.json["fields"] == ["drinkName": "熟成紅茶", "price": 70, "numberOfCups": 1, "size": "中杯"])
        let put = await api.send("PUT", api.path("OrderDrink", "/\(ids[1])"), json: ["fields": ["price": 2]])
        #expect(put.json["fields"] == ["price": 2])
        #expect(put.json["id"] == .string(ids[1]))

        // The KEBUKE app's batch PATCH, and a batch PUT, answered in request order.
        let batch = await api.send("PATCH", api.path(), json: ["records": [
            ["id": .string(ids[2]), "fields": ["size": "大杯", "addOns": [], "price": 80, "numberOfCups": 2]],
            ["id": .string(ids[0]), "fields": ["numberOfCups": 3]],
        ]])
        #expect(batch.ids == [ids[2], ids[0]])
        #expect(batch.records[0]["fields"]?["orderName"] == "guest 2")
        #expect(batch.records[0]["fields"]?["size"] == "大杯")
        let replaced = await api.send("PUT", api.path(), json: ["records": [["id": .string(ids[0]), "fields": ["price": 1]]]])
        #expect(replaced.records.first?["fields"] == ["price": 1])
        let stored = try await api.orders()
        #expect(stored[ids[0]] == ["price": 1])
        #expect(stored[ids[2]]?["numberOfCups"] == 2)
    }

    @Test func aBatchUpdateWithOneBadRecordChangesNoRecord() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(3)
        let before = try await api.orders()
        let missing = "recAAAAAAAAAAAAAA"
        let cases: [(JSONValue, Int, String, String?)] = [
            (["records": [["id": .string(ids[0]), "fields": ["price": 1]], ["id": .string(missing), "fields": ["price": 2]]]],
             422, "ROW_DOES_NOT_EXIST", "Record ID \(missing) does not exist in this table"),
            (["records": [["id": .string(ids[0]), "fields": ["price": 1]], ["id": .string(ids[1]), "fields": ["price": "x"]]]],
             422, "INVALID_VALUE_FOR_COLUMN", nil),
            (["records": [["id": .string(ids[0]), "fields": ["price": 1]], ["fields": ["price": 2]]]], 422, "INVALID_RECORDS", nil),
            (["records": .array(ids.map { ["id": .string($0), "fields": [:]] } + Array(repeating: ["id": .string(ids[0]), "fields": [:]], count: 8))],
             422, "INVALID_RECORDS", nil),
            (["fields": ["price": 1]], 422, "INVALID_REQUEST_UNKNOWN", "fields"),
            (["records": [["id": .string(ids[0]), "fields": ["price": 1], "createdTime": "x"]]], 422, "INVALID_REQUEST_UNKNOWN", "createdTime"),
        ]
        for method in ["PATCH", "PUT"] {
            for (body, status, type, message) in cases {
                let reply = await api.send(method, api.path(), json: body)
                #expect(reply.status == status, "\(method) \(body): \(reply)")
                #expect(reply.errorType == type, "\(method) \(body): \(reply)")
                if let message { #expect(reply.errorMessage?.contains(message) == true, "\(reply)") }
            }
        }
        let single = await api.send("PATCH", api.path("OrderDrink", "/\(ids[0])"), json: ["price": 1])
        #expect(single.errorType == "INVALID_REQUEST_UNKNOWN")
        let noFields = await api.send("PATCH", api.path("OrderDrink", "/\(ids[0])"), json: ["typecast": true])
        #expect(noFields.errorType == "INVALID_REQUEST_MISSING_FIELDS")
        #expect(try await api.orders() == before)
    }

    @Test func writesAnswerByFieldIdWhenAskedAndAcceptFieldIdsAsKeys() async throws {
        let api = try await APIHarness()
        let table = try #require(try await api.base.schema().table("OrderDrink"))
        let priceID = try #require(table.field("price")?.id)
        let reply = await api.send("POST", api.path(table.id), json: [
            "records": [["fields": .object([priceID: 55, "orderName": "Amy"])]], "returnFieldsByFieldId": true,
        ])
        let nameID = try #require(table.field("orderName")?.id)
        #expect(reply.records.first?["fields"] == .object([priceID: 55, nameID: "Amy"]))
        let id = try #require(reply.ids.first)
        let twice = await api.send("PATCH", api.path("OrderDrink", "/\(id)"), json: ["fields": .object([priceID: 1, "price": 2])])
        #expect(twice.status == 422)
        #expect(twice.errorMessage?.contains("given twice") == true)
        #expect(try await api.orders()[id]?["price"] == 55)
    }

    @Test func computedFieldsCannotBeWritten() async throws {
        let api = try await APIHarness()
        _ = try await api.base.createField(in: "OrderDrink", FieldSpec(name: "number", type: .autoNumber))
        let reply = await api.send("POST", api.path(), json: ["fields": ["number": 5]])
        #expect(reply.status == 422)
        #expect(reply.errorType == "INVALID_VALUE_FOR_COLUMN")
        #expect(reply.errorMessage == "Field \"number\" cannot accept a value because the field is computed")
        #expect(try await api.orders().isEmpty)
    }
}
