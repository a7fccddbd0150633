import Airtable
import AirtableFormula
import Testing
@testable import AirtableServer

/// Upsert through `performUpsert` (reference §5.3) and delete, one record or a batch (§6).
@Suite struct UpsertDeleteRouteTests {
    private func upsert(_ api: APIHarness, _ records: [JSONValue], on fields: [JSONValue] = ["ref"],
                        method: String = "PATCH", typecast: Bool = false) async -> Reply {
        await api.send(method, api.path(), json: ["records": .array(records), "typecast": .bool(typecast),
                                                  "returnFieldsByFieldId": false,
                                                  "performUpsert": ["fieldsToMergeOn": .array(fields)]])
    }

    @Test func createsAndUpdatesInRequestOrderAndSaysWhich() async throws {
        let api = try await APIHarness()
        let first = await upsert(api, [["fields": ["ref": "A1", "price": 35]], ["fields": ["ref": "A2", "price": 40]]])
        #expect(first.status == 200, "\(first)")
        #expect(first.json["createdRecords"]?.arrayValue?.compactMap(\.stringValue) == first.ids)
        #expect(first.json["updatedRecords"] == [])
        let a1 = first.ids[0]
        // A2 updated, A3 created, A1 updated by id (merge fields ignored): records in request order.
        let second = await upsert(api, [["fields": ["ref": "A3", "price": 1]], ["fields": ["ref": "A2", "price": 41]],
                                        ["id": .string(a1), "fields": ["price": 36]]])
        #expect(second.records.compactMap { $0["fields"]?["ref"]?.stringValue } == ["A3", "A2", "A1"])
        #expect(second.json["createdRecords"] == [.string(second.ids[0])])
        #expect(second.json["updatedRecords"]?.arrayValue?.compactMap(\.stringValue).sorted() == [first.ids[1], a1].sorted())
        #expect(second.ids[1] == first.ids[1])
        let stored = try await api.orders()
        #expect(stored.count == 3)
        #expect(stored[a1]?["price"] == 36)
        #expect(stored[first.ids[1]]?["price"] == 41)
    }

    @Test func putUpsertReplacesTheMatchedRecords() async throws {
        let api = try await APIHarness()
        let created = await upsert(api, [["fields": ["ref": "B1", "price": 35, "orderName": "Amy"]]])
        let replaced = await upsert(api, [["fields": ["ref": "B1", "numberOfCups": 2]]], method: "PUT")
        #expect(replaced.json["updatedRecords"] == [.string(created.ids[0])])
        #expect(replaced.records.first?["fields"] == ["ref": "B1", "numberOfCups": 2])
        // Matching by several fields, by field id.
        let refID = try #require(try await api.base.schema().table("OrderDrink")?.field("ref")?.id)
        let both = await upsert(api, [["fields": ["ref": "B1", "numberOfCups": 2, "price": 9]]],
                                on: [.string(refID), "numberOfCups"])
        #expect(both.json["updatedRecords"] == [.string(created.ids[0])])
    }

    @Test func badUpsertsAreRefusedAndChangeNothing() async throws {
        let api = try await APIHarness()
        _ = await upsert(api, [["fields": ["ref": "C1", "price": 1]], ["fields": ["ref": "C2", "price": 2]]])
        _ = try await api.base.createRecords(in: "OrderDrink", [["ref": "dup"], ["ref": "dup"]], options: WriteOptions())
        let before = try await api.orders()
        let cases: [([JSONValue], [JSONValue], String, String?)] = [
            ([["fields": ["ref": "C1", "price": 5]], ["fields": ["ref": "dup", "price": 5]]], ["ref"],
             "INVALID_REQUEST_UNKNOWN", "matches 2 records"),
            ([["fields": ["ref": "C9", "price": 5]], ["id": "recAAAAAAAAAAAAAA", "fields": ["price": 5]]], ["ref"],
             "ROW_DOES_NOT_EXIST", "Record ID recAAAAAAAAAAAAAA does not exist in this table"),
            ([["fields": ["ref": "C9"]], ["fields": ["price": 5]]], ["ref"], "INVALID_REQUEST_UNKNOWN", "merge field \"ref\""),
            ([["fields": ["ref": "C9"]]], ["nope"], "UNKNOWN_FIELD_NAME", nil),
            ([["fields": ["ref": "C9"]]], [], "INVALID_REQUEST_UNKNOWN", "fieldsToMergeOn"),
            ([["fields": ["ref": "C9"]]], ["ref", "price", "size", "ice"], "INVALID_REQUEST_UNKNOWN", "fieldsToMergeOn"),
            ([["fields": ["ref": "C9"]]], ["paid"], "INVALID_REQUEST_UNKNOWN", "checkbox"),
            ([["fields": ["ref": "C9", "size": "XL"]]], ["ref"], "INVALID_MULTIPLE_CHOICE_OPTIONS", nil),
            (Array(repeating: ["fields": ["ref": "C9"]], count: 11), ["ref"], "INVALID_RECORDS", nil),
        ]
        for (records, fields, type, message) in cases {
            let reply = await upsert(api, records, on: fields)
            #expect(reply.status == 422, "\(records) \(fields): \(reply)")
            #expect(reply.errorType == type, "\(records) \(fields): \(reply)")
            if let message { #expect(reply.errorMessage?.contains(message) == true, "\(reply)") }
        }
        let notArray = await api.send("PATCH", api.path(), json: ["records": [["fields": [:]]], "performUpsert": ["fieldsToMergeOn": "ref"]])
        #expect(notArray.errorType == "INVALID_REQUEST_UNKNOWN")
        #expect(try await api.orders() == before)
    }

    @Test func deletesOneRecordOrABatchInEverySpelling() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(8)
        let one = await api.send("DELETE", api.path("OrderDrink", "/\(ids[0])"))
        #expect(one.json == ["id": .string(ids[0]), "deleted": true])
        // pyairtable and airtable.js: records%5B%5D; curl -G: records[]; emulators: records; qs: records[N].
        for (spelling, chosen) in [("records%5B%5D=%@&records%5B%5D=%@", [1, 2]), ("records[]=%@", [3]),
                                   ("records=%@&records=%@", [4, 5]), ("records%5B0%5D=%@&records%5B1%5D=%@", [6, 7])] {
            var query = spelling
            for index in chosen {
                if let range = query.range(of: "%@") { query.replaceSubrange(range, with: ids[index]) }
            }
            let reply = await api.send("DELETE", api.path("OrderDrink", "?" + query))
            #expect(reply.status == 200, "\(spelling): \(reply)")
            #expect(reply.json == ["records": .array(chosen.map { ["id": .string(ids[$0]), "deleted": true] })])
        }
        #expect(try await api.orders().isEmpty)
    }

    @Test func aBatchDeleteWithOneBadIdDeletesNothing() async throws {
        let api = try await APIHarness()
        let ids = try await api.seedOrders(12)
        let missing = "recAAAAAAAAAAAAAA"
        let notFound = await api.send("DELETE", api.path("OrderDrink", "?records%5B%5D=\(ids[0])&records%5B%5D=\(missing)"))
        #expect(notFound.status == 404)
        #expect(notFound.json == ["error": ["type": "NOT_FOUND", "message": .string("Could not find a record with ID \"\(missing)\".")]])
        let malformed = await api.send("DELETE", api.path("OrderDrink", "?records%5B%5D=\(ids[0])&records%5B%5D=rec1"))
        #expect(malformed.status == 404)
        let eleven = ids.prefix(11).map { "records%5B%5D=\($0)" }.joined(separator: "&")
        let tooMany = await api.send("DELETE", api.path("OrderDrink", "?" + eleven))
        #expect(tooMany.status == 422)
        #expect(tooMany.errorType == "INVALID_RECORDS")
        let none = await api.send("DELETE", api.path())
        #expect(none.errorType == "INVALID_RECORDS")
        let twice = await api.send("DELETE", api.path("OrderDrink", "?records%5B%5D=\(ids[0])&records%5B%5D=\(ids[0])"))
        #expect(twice.status == 422)
        let other = await api.send("DELETE", api.path("OrderDrink", "?records%5B%5D=\(ids[0])&typecast=1"))
        #expect(other.errorMessage?.contains("typecast") == true)
        let unknownTable = await api.send("DELETE", api.path("Nope", "?records%5B%5D=\(ids[0])"))
        #expect(unknownTable.status == 403)
        #expect(try await api.orders().count == 12)
        // Deleting a record already deleted: the single route answers 403 like any unknown record.
        _ = await api.send("DELETE", api.path("OrderDrink", "/\(ids[0])"))
        #expect(await api.send("DELETE", api.path("OrderDrink", "/\(ids[0])")).errorType == "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")
    }
}
