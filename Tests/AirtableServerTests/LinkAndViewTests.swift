import Airtable
import AirtableFormula
import LocalBase
import Testing
@testable import AirtableServer

/// Linked records with their inverse fields, collaborator and barcode cells, and owner-defined views.
@Suite struct LinkAndViewTests {
    /// Contact ⟷ Address through a link field created by the API; returns the two tables' names.
    static func linkedTables(_ api: APIHarness) async throws {
        let meta = "/v0/meta/bases/\(api.base.baseID)/tables"
        let address = await api.send("POST", meta, json: ["name": "Address", "fields": [["name": "Street", "type": "singleLineText"]]])
        #expect(address.status == 200, "\(address)")
        let addressID = try #require(address.json["id"]?.stringValue)
        let contact = await api.send("POST", meta, json: ["name": "Contact", "fields": [
            ["name": "Name", "type": "singleLineText"],
            ["name": "Address", "type": "multipleRecordLinks", "options": ["linkedTableId": .string(addressID)]],
            ["name": "Friends", "type": "multipleRecordLinks", "options": ["linkedTableId": "Contact"]],
            ["name": "Owner", "type": "singleCollaborator"],
            ["name": "Watchers", "type": "multipleCollaborators"],
            ["name": "Code", "type": "barcode"],
        ]])
        #expect(contact.status == 200, "\(contact)")
    }

    @Test func aLinkGetsItsInverseFieldAndBothStayInStep() async throws {
        let api = try await APIHarness()
        try await Self.linkedTables(api)
        let schema = try await api.base.schema()
        let contact = try #require(schema.table("Contact"))
        let address = try #require(schema.table("Address"))
        let link = try #require(contact.field("Address"))
        let inverse = try #require(address.field("Contact"))
        #expect(link.options?["inverseLinkFieldId"]?.stringValue == inverse.id)
        #expect(inverse.options?["inverseLinkFieldId"]?.stringValue == link.id)
        #expect(inverse.options?["linkedTableId"]?.stringValue == contact.id)
        #expect(contact.field("Friends")?.options?["inverseLinkFieldId"] == nil)
        #expect(link.options?["prefersSingleRecordLink"] == false)

        let streets = await api.send("POST", api.path("Address"), json: ["records": [
            ["fields": ["Street": "1 Tea Road"]], ["fields": ["Street": "2 Milk Lane"]]]])
        let (road, lane) = (streets.ids[0], streets.ids[1])
        let amy = await api.send("POST", api.path("Contact"), json: ["fields": ["Name": "Amy", "Address": [.string(road)]]])
        let amyID = try #require(amy.json["id"]?.stringValue)
        #expect(await api.get(api.path("Address", "/\(road)")).json["fields"]?["Contact"] == [.string(amyID)])

        // Moving the link moves the inverse; writing the inverse side moves the link.
        _ = await api.send("PATCH", api.path("Contact", "/\(amyID)"), json: ["fields": ["Address": [.string(lane)]]])
        #expect(await api.get(api.path("Address", "/\(road)")).json["fields"]?["Contact"] == nil)
        #expect(await api.get(api.path("Address", "/\(lane)")).json["fields"]?["Contact"] == [.string(amyID)])
        _ = await api.send("PATCH", api.path("Address", "/\(road)"), json: ["fields": ["Contact": [.string(amyID)]]])
        #expect(await api.get(api.path("Contact", "/\(amyID)")).json["fields"]?["Address"] == [.string(lane), .string(road)])

        // A formula over a link sees the linked records' primary values.
        let found = await api.get(api.path("Contact", "?filterByFormula=" + formEncoded("FIND('Milk', ARRAYJOIN({Address}))")))
        #expect(found.ids == [amyID])

        // As text, a link shows its records' primary values.
        let text = await api.get(api.path("Contact", "/\(amyID)?cellFormat=string&timeZone=utc&userLocale=en"))
        #expect(text.json["fields"]?["Address"] == "2 Milk Lane, 1 Tea Road", "\(text)")

        // Deleting either side clears the other.
        _ = await api.send("DELETE", api.path("Address", "/\(lane)"))
        #expect(await api.get(api.path("Contact", "/\(amyID)")).json["fields"]?["Address"] == [.string(road)])
        _ = await api.send("DELETE", api.path("Contact", "/\(amyID)"))
        #expect(await api.get(api.path("Address", "/\(road)")).json["fields"]?["Contact"] == nil)
    }

    @Test func badLinksAreRefusedAndChangeNothing() async throws {
        let api = try await APIHarness()
        try await Self.linkedTables(api)
        let orders = try await api.seedOrders(1)
        let other = await api.send("POST", api.path("Contact"), json: ["fields": ["Name": "Bo", "Address": [.string(orders[0])]]])
        #expect(other.status == 422 && other.errorType == "ROW_DOES_NOT_EXIST", "\(other)")
        let malformed = await api.send("POST", api.path("Contact"), json: ["fields": ["Address": ["not an id"]]])
        #expect(malformed.errorType == "INVALID_RECORD_ID", "\(malformed)")
        #expect(await api.send("POST", api.path("Contact"), json: ["fields": ["Address": "recAAAAAAAAAAAAAA"]]).status == 422)
        #expect(await api.get(api.path("Contact")).ids.isEmpty)
        // typecast links by the primary field's value, and makes the record when none has it.
        let typed = await api.send("POST", api.path("Contact"), json: ["fields": ["Name": "Cy", "Address": "3 Boba Way"], "typecast": true])
        #expect(typed.status == 200, "\(typed)")
        let made = await api.get(api.path("Address"))
        #expect(made.records.first?["fields"]?["Street"] == "3 Boba Way")
    }

    @Test func selfLinksCollaboratorsAndBarcodes() async throws {
        let api = try await APIHarness()
        try await Self.linkedTables(api)
        let owner = try #require(try await api.base.collaborators().first)
        let amy = await api.send("POST", api.path("Contact"), json: ["fields": [
            "Name": "Amy", "Owner": ["id": .string(owner.id)], "Watchers": [["email": .string(owner.email)]],
            "Code": ["text": "4710088", "type": "ean13"],
        ]])
        #expect(amy.status == 200, "\(amy)")
        #expect(amy.json["fields"]?["Owner"] == owner.json)
        #expect(amy.json["fields"]?["Watchers"] == [owner.json])
        #expect(amy.json["fields"]?["Code"] == ["text": "4710088", "type": "ean13"])
        let amyID = try #require(amy.json["id"]?.stringValue)
        let bo = await api.send("POST", api.path("Contact"), json: ["fields": ["Name": "Bo", "Friends": [.string(amyID)]]])
        let boID = try #require(bo.json["id"]?.stringValue)
        _ = await api.send("DELETE", api.path("Contact", "/\(amyID)"))
        #expect(await api.get(api.path("Contact", "/\(boID)")).json["fields"]?["Friends"] == nil)
        _ = await api.send("POST", api.path("Contact"), json: ["fields": ["Name": "Cy", "Code": ["text": "0001"]]])
        let byCode = await api.get(api.path("Contact", "?sort%5B0%5D%5Bfield%5D=Code&sort%5B0%5D%5Bdirection%5D=desc"))
        #expect(byCode.records.compactMap { $0["fields"]?["Name"]?.stringValue } == ["Cy", "Bo"])
        let stranger = await api.send("POST", api.path("Contact"), json: ["fields": ["Owner": ["id": "usrNOBODY00000000"]]])
        #expect(stranger.errorType == "INVALID_VALUE_FOR_COLUMN", "\(stranger)")
        #expect(await api.send("POST", api.path("Contact"), json: ["fields": ["Code": "123"]]).status == 422)
    }

    @Test func viewsFilterSortAndHideAsDefined() async throws {
        let api = try await APIHarness()
        _ = try await api.seedOrders(5)
        try await api.base.defineViews([ViewDefinition(
            table: "OrderDrink", name: "Dear ones", filterByFormula: "{price} >= 37",
            sort: [SortKey(field: "price", direction: .descending)], hiddenFields: ["imageUrl", "ref"])])
        let listed = await api.get(api.path("OrderDrink", "?view=Dear+ones"))
        #expect(listed.records.compactMap { $0["fields"]?["price"]?.intValue } == [39, 38, 37])
        let resorted = await api.get(api.path("OrderDrink", "?view=Dear+ones&sort%5B0%5D%5Bfield%5D=price"))
        #expect(resorted.records.compactMap { $0["fields"]?["price"]?.intValue } == [37, 38, 39])
        let filtered = await api.get(api.path("OrderDrink", "?view=Dear+ones&filterByFormula=" + formEncoded("{price} < 39")))
        #expect(filtered.records.count == 2)

        let tables = await api.get("/v0/meta/bases/\(api.base.baseID)/tables?include=visibleFieldIds")
        let order = try #require(tables.json["tables"]?.arrayValue?.first { $0["name"] == "OrderDrink" })
        let view = try #require(order["views"]?.arrayValue?.first { $0["name"] == "Dear ones" })
        #expect(view["visibleFieldIds"]?.arrayValue?.count == 10)
        #expect(view["filterByFormula"] == nil && view["sort"] == nil)
        #expect(await api.get(api.path("OrderDrink", "?view=Nope")).errorType == "VIEW_NAME_NOT_FOUND")
        #expect(await api.get(api.path("OrderDrink", "?view=viwAAAAAAAAAAAAAA")).errorType == "VIEW_ID_NOT_FOUND")
        // A bad definition changes nothing.
        await #expect(throws: AirtableError.self) {
            try await api.base.defineViews([ViewDefinition(table: "OrderDrink", name: "x", hiddenFields: ["nope"])])
        }
        #expect(try await api.base.schema().table("OrderDrink")?.views.count == 2)
    }
}
