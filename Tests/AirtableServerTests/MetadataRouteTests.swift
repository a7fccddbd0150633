import Airtable
import AirtableFormula
import Testing
@testable import AirtableServer

/// The metadata routes pyairtable's `table.schema()` and `Table.id` use, with every field's options as
/// complete as Airtable reports them (pyairtable's models require them).
@Suite struct MetadataRouteTests {
    /// The options pyairtable's pydantic model of each type requires (pyairtable/models/schema.py).
    static let requiredOptions: [String: [String]] = [
        "singleSelect": ["choices"], "multipleSelects": ["choices"], "checkbox": ["color", "icon"],
        "number": ["precision"], "percent": ["precision"], "currency": ["precision", "symbol"],
        "date": ["dateFormat"], "dateTime": ["timeZone", "dateFormat", "timeFormat"], "duration": ["durationFormat"],
        "multipleAttachments": ["isReversed"], "rating": ["color", "icon", "max"], "lastModifiedTime": ["isValid"],
        "multipleRecordLinks": ["linkedTableId", "isReversed", "prefersSingleRecordLink"],
    ]

    @Test func tablesListEveryFieldWithCompleteOptionsAndVisibleFieldIds() async throws {
        let api = try await APIHarness()
        // One field of every type, created through the API with no options at all.
        // Every type with no options at all, but a link, which must name the table it links to, and the
        // computed types that must name what they compute (ComputedFieldTests makes those).
        let needOptions: Set<FieldType> = [.formula, .rollup, .multipleLookupValues, .count]
        let fields: [JSONValue] = FieldType.allCases.filter { !needOptions.contains($0) }.map { type -> JSONValue in
            guard type == .multipleRecordLinks else { return ["name": .string("f \(type.rawValue)"), "type": .string(type.rawValue)] }
            return ["name": "f link", "type": "multipleRecordLinks", "options": ["linkedTableId": "Drink"]]
        }
        let created = await api.send("POST", "/v0/meta/bases/\(api.base.baseID)/tables",
                                     json: ["name": "Every type", "description": "one of each", "fields": .array(fields)])
        #expect(created.status == 200, "\(created)")
        #expect(created.json["primaryFieldId"] == created.json["fields"]?.arrayValue?.first?["id"])

        let reply = await api.get("/v0/meta/bases/\(api.base.baseID)/tables?include=visibleFieldIds")
        let tables = try #require(reply.json["tables"]?.arrayValue)
        #expect(tables.compactMap { $0["name"]?.stringValue } == ["Drink", "OrderDrink", "Every type"])
        for table in tables {
            let fieldIDs = table["fields"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
            #expect(table["id"]?.stringValue.map { AirtableID.isValid($0, prefix: "tbl") } == true)
            #expect(table["primaryFieldId"]?.stringValue == fieldIDs.first)
            let view = try #require(table["views"]?.arrayValue?.first)
            #expect(view["type"] == "grid" && view["name"] == "Grid view")
            #expect(view["visibleFieldIds"]?.arrayValue?.compactMap(\.stringValue) == fieldIDs)
            for field in table["fields"]?.arrayValue ?? [] {
                let type = field["type"]?.stringValue ?? ""
                for option in Self.requiredOptions[type] ?? [] {
                    #expect(field["options"]?[option] != nil, "\(field["name"] ?? "") (\(type)) lacks \(option)")
                }
            }
        }
        let every = try #require(tables.last?["fields"]?.arrayValue)
        func options(_ type: FieldType) -> JSONValue? { every.first { $0["type"]?.stringValue == type.rawValue }?["options"] }
        #expect(options(.checkbox) == ["color": "greenBright", "icon": "check"])
        #expect(options(.currency) == ["precision": 2, "symbol": "$"])
        #expect(options(.dateTime) == ["timeZone": "utc", "dateFormat": ["name": "iso", "format": "YYYY-MM-DD"],
                                       "timeFormat": ["name": "24hour", "format": "HH:mm"]])
        #expect(options(.lastModifiedTime)?["result"]?["type"] == "dateTime")
        #expect(options(.autoNumber) == nil && options(.createdTime) == nil && options(.singleLineText) == nil)
        // Without `include` the views carry no field list.
        let plain = await api.get("/v0/meta/bases/\(api.base.baseID)/tables")
        #expect(plain.json["tables"]?.arrayValue?.first?["views"]?.arrayValue?.first?["visibleFieldIds"] == nil)
    }

    @Test func givenOptionsAreKeptCheckedAndCompleted() async throws {
        let api = try await APIHarness()
        let field = await api.send("POST", "/v0/meta/bases/\(api.base.baseID)/tables/OrderDrink/fields", json: [
            "name": "due", "type": "date", "options": ["dateFormat": ["name": "european"]],
        ])
        #expect(field.status == 200, "\(field)")
        #expect(field.json["options"] == ["dateFormat": ["name": "european", "format": "D/M/YYYY"]])
        let byFormat = await api.send("POST", "/v0/meta/bases/\(api.base.baseID)/tables/OrderDrink/fields", json: [
            "name": "at", "type": "dateTime", "options": ["timeZone": "Asia/Taipei", "timeFormat": ["format": "h:mma"]],
        ])
        #expect(byFormat.json["options"]?["timeFormat"] == ["name": "12hour", "format": "h:mma"])
        #expect(byFormat.json["options"]?["timeZone"] == "Asia/Taipei")
        let bad: [(JSONValue, String)] = [
            (["name": "x", "type": "date", "options": ["dateFormat": ["name": "martian"]]], "martian"),
            (["name": "x", "type": "date", "options": ["dateFormat": ["name": "iso", "format": "M/D/YYYY"]]], "M/D/YYYY"),
            (["name": "x", "type": "checkbox", "options": ["icon": 3]], "icon"),
            (["name": "x", "type": "duration", "options": ["durationFormat": "d"]], "durationFormat"),
            (["name": "x", "type": "formula"], "formula"),
            (["name": "", "type": "number"], "name"),
        ]
        for (body, detail) in bad {
            let reply = await api.send("POST", "/v0/meta/bases/\(api.base.baseID)/tables/OrderDrink/fields", json: body)
            #expect(reply.status == 422, "\(body): \(reply)")
            #expect(reply.errorMessage?.contains(detail) == true, "\(reply)")
        }
        let names = try #require(try await api.base.schema().table("OrderDrink")?.fields.map(\.name))
        #expect(names.suffix(2) == ["due", "at"])
    }

    @Test func basesAndUnknownBases() async throws {
        let api = try await APIHarness()
        let bases = await api.get("/v0/meta/bases", token: APIHarness.reader).json
        #expect(bases == ["bases": [["id": .string(api.base.baseID), "name": "Local base", "permissionLevel": "read"]]])
        let unknown = await api.get("/v0/meta/bases/appAAAAAAAAAAAAAA/tables")
        #expect(unknown.status == 403)
        #expect(unknown.errorType == "INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND")
        let include = await api.get("/v0/meta/bases/\(api.base.baseID)/tables?include=everything")
        #expect(include.status == 422)
    }
}
