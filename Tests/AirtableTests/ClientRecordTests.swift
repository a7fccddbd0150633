import Airtable
import AirtableHTTP
import Foundation
import Testing

@Suite struct ClientRecordTests {
    private let base = "https://api.airtable.com/v0/appTESTBASE000001"

    @Test func createsGoInBatchesOfTenAndComeBackInOrder() async throws {
        let transport = StubTransport { request, _ in ClientFixture.echoWrites(request) }
        let client = ClientFixture.client(transport)
        let fields: [Fields] = (1...23).map { ["name": .string("drink \($0)"), "medium": .int($0)] }
        let created = try await client.createRecords(in: "Drink", fields, options: WriteOptions(typecast: true))
        #expect(created.map { $0.fields["name"]?.stringValue } == fields.map { $0["name"]?.stringValue })
        #expect(transport.requests.map(\.method) == ["POST", "POST", "POST"])
        #expect(transport.requests.map { ClientFixture.body($0)?["records"]?.arrayValue?.count } == [10, 10, 3])
        let last = try #require(transport.requests.last)
        #expect(last.url == "\(base)/Drink")
        #expect(last.bodyText == #"{"records":[{"fields":{"medium":21,"name":"drink 21"}},{"fields":{"medium":22,"#
            + #""name":"drink 22"}},{"fields":{"medium":23,"name":"drink 23"}}],"typecast":true}"#)
    }

    @Test func updatesPatchOrReplaceWithPut() async throws {
        let transport = StubTransport { request, _ in ClientFixture.echoWrites(request) }
        let client = ClientFixture.client(transport)
        let update = RecordUpdate(id: "recAAAAAAAAAAAAA1", fields: ["soldOut": true, "large": nil])
        _ = try await client.updateRecords(in: "Drink", [update], replace: false, options: WriteOptions())
        _ = try await client.updateRecords(in: "Drink", [update], replace: true,
                                           options: WriteOptions(returnFieldsByFieldId: true))
        #expect(transport.requests.map(\.method) == ["PATCH", "PUT"])
        #expect(transport.requests[0].bodyText
            == #"{"records":[{"fields":{"large":null,"soldOut":true},"id":"recAAAAAAAAAAAAA1"}]}"#)
        #expect(transport.requests[1].bodyText == #"{"records":[{"fields":{"large":null,"soldOut":true},"#
            + #""id":"recAAAAAAAAAAAAA1"}],"returnFieldsByFieldId":true}"#)
    }

    @Test func upsertsAreBatchedAndTheirResultsMergedInOrder() async throws {
        let transport = StubTransport { request, index in
            let items = ClientFixture.body(request)?["records"]?.arrayValue ?? []
            let records = items.enumerated().map { offset, item in
                ClientFixture.record(ClientFixture.id(index * 10 + offset), item["fields"]?.objectValue ?? [:])
            }
            let ids = records.compactMap { $0["id"] }
            // Even positions were new, odd ones matched an existing record.
            return ClientFixture.json(["records": .array(records),
                                       "createdRecords": .array(ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)),
                                       "updatedRecords": .array(ids.enumerated().filter { $0.offset % 2 == 1 }.map(\.element))])
        }
        let client = ClientFixture.client(transport)
        let lines = (1...12).map { UpsertRecord(fields: ["ref": .string("ord1-\($0)"), "price": .int($0 * 10)]) }
        let result = try await client.upsertRecords(in: "OrderDrink", lines, mergeOn: ["ref"], replace: false,
                                                    options: WriteOptions(typecast: true))
        #expect(result.records.map { $0.fields["ref"]?.stringValue } == lines.map { $0.fields["ref"]?.stringValue })
        #expect(result.createdRecords == [0, 2, 4, 6, 8, 10].map(ClientFixture.id))
        #expect(result.updatedRecords == [1, 3, 5, 7, 9, 11].map(ClientFixture.id))
        #expect(transport.requests.map(\.method) == ["PATCH", "PATCH"])
        let first = try #require(ClientFixture.body(transport.requests[0]))
        #expect(first["performUpsert"] == ["fieldsToMergeOn": ["ref"]])
        #expect(first["typecast"] == true)
        #expect(first["records"]?.arrayValue?.count == 10)
    }

    @Test func anUpsertTheAPIWouldRefuseIsRefusedBeforeAnythingIsSent() async throws {
        let transport = StubTransport { request, _ in ClientFixture.echoWrites(request) }
        let client = ClientFixture.client(transport)
        var lines = (1...15).map { UpsertRecord(fields: ["ref": .string("r\($0)")]) }
        lines[13] = UpsertRecord(fields: ["price": 50])
        await #expect(throws: AirtableError.api(.invalidRequest(
            "record 14 of the upsert has no value for the merge field \"ref\"; nothing was sent"))) {
            _ = try await client.upsertRecords(in: "OrderDrink", lines, mergeOn: ["ref"], replace: false,
                                               options: WriteOptions())
        }
        await #expect(throws: AirtableError.self) {
            _ = try await client.upsertRecords(in: "OrderDrink", [], mergeOn: ["a", "b", "c", "d"], replace: false,
                                               options: WriteOptions())
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func deletesGoInBatchesOfTenInTheQueryString() async throws {
        let transport = StubTransport { request, _ in
            let ids = request.url.split(separator: "?").last?.split(separator: "&").compactMap {
                $0.split(separator: "=").last.map(String.init)
            } ?? []
            return ClientFixture.json(["records": .array(ids.map { ["id": .string($0), "deleted": true] })])
        }
        let client = ClientFixture.client(transport)
        let ids = (1...12).map(ClientFixture.id)
        let deleted = try await client.deleteRecords(in: "OrderDrink", ids: ids)
        #expect(deleted == ids)
        #expect(transport.requests.map(\.method) == ["DELETE", "DELETE"])
        #expect(transport.requests[1].url == "\(base)/OrderDrink?records%5B%5D=rec00000000000011&records%5B%5D=rec00000000000012")
        #expect(transport.requests.allSatisfy { $0.body == nil })
    }

    @Test func emptyWritesSendNothing() async throws {
        let transport = StubTransport { request, _ in ClientFixture.echoWrites(request) }
        let client = ClientFixture.client(transport)
        #expect(try await client.createRecords(in: "Drink", [], options: WriteOptions()).isEmpty)
        #expect(try await client.updateRecords(in: "Drink", [], replace: false, options: WriteOptions()).isEmpty)
        #expect(try await client.deleteRecords(in: "Drink", ids: []).isEmpty)
        #expect(try await client.upsertRecords(in: "Drink", [], mergeOn: ["name"], replace: false,
                                               options: WriteOptions()).records.isEmpty)
        #expect(transport.requests.isEmpty)
    }

    @Test func recordsAreReadLoosely() async throws {
        let body = #"{"records":[{"id":"rec00000000000001","createdTime":"2024-06-15T10:30:00.000Z"},"#
            + #"{"id":"rec00000000000002","createdTime":"2024-06-15T10:30:00.000Z","fields":{"medium":55,"#
            + #""rating":4.5,"rollup":{"specialValue":"NaN"}},"commentCount":0}],"offset":"itrX/rec00000000000003"}"#
        let transport = StubTransport { _, _ in TransportResponse(status: 200, body: Array(body.utf8)) }
        let page = try await ClientFixture.client(transport).listRecords(in: "Drink", query: ListQuery())
        #expect(page.records.map(\.fields.count) == [0, 3])
        #expect(page.records[1].fields["medium"]?.intValue == 55)
        #expect(page.records[1].fields["rating"]?.numberValue == 4.5)
        #expect(page.records[1].fields["rollup"] == ["specialValue": "NaN"])
        #expect(page.offset == "itrX/rec00000000000003")
    }

    @Test func aResponseThatIsNotJSONIsADecodingErrorNamingTheRequest() async throws {
        let transport = StubTransport { _, _ in TransportResponse(status: 200, body: Array("<html>".utf8)) }
        await #expect {
            _ = try await ClientFixture.client(transport).listRecords(in: "Drink", query: ListQuery())
        } throws: { error in
            guard case .decoding(let detail)? = error as? AirtableError else { return false }
            return detail.contains("listing Drink") && detail.contains("not JSON")
        }
    }

    @Test func allRecordsFollowsOffsetsResendingTheQuery() async throws {
        let transport = StubTransport { request, index in
            let next: JSONValue? = index < 2 ? .string("itr\(index)/rec\(index)") : nil
            var page: [String: JSONValue] = ["records": [ClientFixture.record(ClientFixture.id(index))]]
            if let next { page["offset"] = next }
            return ClientFixture.json(.object(page))
        }
        let client = ClientFixture.client(transport)
        let records = try await client.allRecords(in: "Drink", query: ListQuery(filterByFormula: "{soldOut}"))
        #expect(records.map(\.id) == [0, 1, 2].map(ClientFixture.id))
        #expect(transport.requests.map(\.url) == [
            "\(base)/Drink?filterByFormula=%7BsoldOut%7D",
            "\(base)/Drink?filterByFormula=%7BsoldOut%7D&offset=itr0%2Frec0",
            "\(base)/Drink?filterByFormula=%7BsoldOut%7D&offset=itr1%2Frec1",
        ])
    }

    @Test func anExpiredCursorRestartsTheListingABoundedNumberOfTimes() async throws {
        let expired = ClientFixture.json(["error": ["type": "LIST_RECORDS_ITERATOR_NOT_AVAILABLE"]], status: 422)
        // Page 1, then an expired cursor; page 1 again, then page 2: the listing restarted once.
        let recovering = StubTransport { request, index in
            if index == 1 { return expired }
            if request.url.contains("offset=") { return ClientFixture.json(["records": [ClientFixture.record(ClientFixture.id(2))]]) }
            return ClientFixture.json(["records": [ClientFixture.record(ClientFixture.id(1))], "offset": "itrA/rec1"])
        }
        let records = try await ClientFixture.client(recovering).allRecords(in: "Drink")
        #expect(records.map(\.id) == [ClientFixture.id(1), ClientFixture.id(2)])
        #expect(recovering.requests.count == 4)

        let alwaysExpired = StubTransport { request, _ in
            request.url.contains("offset=") ? expired
                : ClientFixture.json(["records": [ClientFixture.record(ClientFixture.id(1))], "offset": "itrA/rec1"])
        }
        await #expect {
            _ = try await ClientFixture.client(alwaysExpired).allRecords(in: "Drink", restarts: 2)
        } throws: { error in
            (error as? AirtableError)?.apiError?.type == "LIST_RECORDS_ITERATOR_NOT_AVAILABLE"
        }
        #expect(alwaysExpired.requests.count == 6)
    }

    @Test func theSchemaSetsAsideFieldTypesThisProgramDoesNotModel() async throws {
        let schema: JSONValue = ["tables": [[
            "id": "tblDRINK000000001", "name": "Drink", "primaryFieldId": "fldNAME000000001",
            "fields": [
                ["id": "fldNAME000000001", "name": "name", "type": "singleLineText"],
                ["id": "fldLINK000000001", "name": "orders", "type": "aiText", "options": ["prompt": []]],
                ["id": "fldPRICE00000001", "name": "medium", "type": "number", "options": ["precision": 0]],
            ],
            "views": [["id": "viwGRID000000001", "name": "Grid view", "type": "grid"]],
        ]]]
        let transport = StubTransport { _, _ in ClientFixture.json(schema) }
        let reading = try await ClientFixture.client(transport).readSchema()
        #expect(reading.schema.table("Drink")?.fields.map(\.name) == ["name", "medium"])
        #expect(reading.unsupportedFields == [.init(table: "Drink", field: "orders", type: "aiText")])
        #expect(transport.requests.map(\.url) == ["https://api.airtable.com/v0/meta/bases/appTESTBASE000001/tables"])
    }

    @Test func tablesAndFieldsAreCreatedThroughTheMetadataAPI() async throws {
        let transport = StubTransport { request, _ in
            if request.url.hasSuffix("/fields") {
                return ClientFixture.json(["id": "fldNEW0000000001", "name": "soldOut", "type": "checkbox"])
            }
            return ClientFixture.json(["id": "tblNEW0000000001", "name": "Drink", "primaryFieldId": "fldA",
                                       "fields": [["id": "fldA", "name": "name", "type": "singleLineText"]]])
        }
        let client = ClientFixture.client(transport)
        let table = try await client.createTable(TableSpec(name: "Drink", fields: [FieldSpec(name: "name", type: .singleLineText)]))
        let field = try await client.createField(in: table.id, FieldSpec(name: "soldOut", type: .checkbox,
                                                                        options: ["icon": "check", "color": "greenBright"]))
        #expect(field.type == .checkbox)
        #expect(transport.requests.map(\.url) == [
            "https://api.airtable.com/v0/meta/bases/appTESTBASE000001/tables",
            "https://api.airtable.com/v0/meta/bases/appTESTBASE000001/tables/tblNEW0000000001/fields",
        ])
        #expect(transport.requests[0].bodyText == #"{"fields":[{"name":"name","type":"singleLineText"}],"name":"Drink"}"#)
        #expect(transport.requests[1].bodyText
            == #"{"name":"soldOut","options":{"color":"greenBright","icon":"check"},"type":"checkbox"}"#)
    }
}
