import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing

@Suite struct SchemaTests {
    @Test func newTableHasIdsPrimaryFieldAndOneGridView() async throws {
        let (base, table) = try await makeOrdersBase()
        #expect(AirtableID.isValid(base.baseID, prefix: "app"))
        #expect(AirtableID.isValid(table.id, prefix: "tbl"))
        #expect(table.fields.allSatisfy { AirtableID.isValid($0.id, prefix: "fld") })
        #expect(table.primaryFieldId == table.fields[0].id)
        #expect(table.views.count == 1)
        #expect(table.views.first?.name == "Grid view")
        #expect(table.views.first.map { AirtableID.isValid($0.id, prefix: "viw") } == true)
        let size = try #require(table.field("size"))
        #expect(size.choices == ["中杯", "大杯"])
        let choiceIDs = size.options?["choices"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(choiceIDs.count == 2 && choiceIDs.allSatisfy { AirtableID.isValid($0, prefix: "sel") })
    }

    @Test func schemaListsEveryTableWithItsFields() async throws {
        let (base, orders) = try await makeOrdersBase()
        let drinks = try await base.createTable(TableSpec(name: "Drink", fields: [FieldSpec(name: "name", type: .singleLineText)]))
        let schema = try await base.schema()
        #expect(schema.tables.map(\.name) == ["Orders", "Drink"])
        #expect(schema.table(orders.id) == orders)
        #expect(schema.table("Drink") == drinks)
        // Airtable's metadata JSON round-trips.
        #expect(try BaseSchema(json: schema.json) == schema)
    }

    @Test func createFieldAddsToTheTableByNameOrId() async throws {
        let (base, table) = try await makeOrdersBase()
        let field = try await base.createField(in: table.id, FieldSpec(name: "ref", type: .singleLineText))
        let byName = try await base.createField(in: "Orders", .singleSelect("status", ["placed", "ready"]))
        let schema = try await base.schema()
        #expect(schema.table("Orders")?.field("ref") == field)
        #expect(schema.table("Orders")?.field("status")?.choices == ["placed", "ready"])
        #expect(byName.type == .singleSelect)
        let record = try await base.createRecord(in: "Orders", ["ref": "A-1", "status": "ready"])
        #expect(record.fields["ref"] == "A-1")
    }

    @Test func duplicateNamesAreRefusedIgnoringCase() async throws {
        let (base, _) = try await makeOrdersBase()
        let table = await apiError { try await base.createTable(TableSpec(name: "orders", fields: orderFields)) }
        #expect(table?.status == 422)
        #expect(table?.message?.contains("a table named \"Orders\" already exists") == true)
        let field = await apiError { try await base.createField(in: "Orders", FieldSpec(name: "QTY", type: .number)) }
        #expect(field?.message?.contains("a field named \"qty\" already exists in table \"Orders\"") == true)
        let twice = await apiError {
            try await base.createTable(TableSpec(name: "T", fields: [FieldSpec(name: "a", type: .number),
                                                                     FieldSpec(name: "A", type: .number)]))
        }
        #expect(twice?.type == "INVALID_REQUEST_UNKNOWN")
        // Nothing of the refused table was kept.
        #expect(try await base.schema().table("T") == nil)
    }

    @Test func badSpecsAreRefusedWithTheReason() async throws {
        let base = try LocalBase.inMemory()
        let cases: [(TableSpec, String)] = [
            (TableSpec(name: " ", fields: [FieldSpec(name: "a", type: .number)]), "needs a name that is not blank"),
            (TableSpec(name: "T", fields: []), "needs at least one field"),
            (TableSpec(name: "T", fields: [FieldSpec(name: "done", type: .checkbox)]), "cannot be of type checkbox"),
            (TableSpec(name: "T", fields: [FieldSpec(name: "", type: .number)]), "a field needs a name"),
            (TableSpec(name: "T", fields: [FieldSpec(name: "a", type: .singleSelect, options: ["choices": "x"])]),
             "the choices of field \"a\" must be an array"),
            (TableSpec(name: "T", fields: [.singleSelect("a", ["x", "x"])]), "lists the choice \"x\" twice"),
            (TableSpec(name: "T", fields: [.singleSelect("a", ["x", ""])]), "choice 2 of field \"a\" needs a name"),
            (TableSpec(name: "T", fields: [FieldSpec(name: "a", type: .number, options: ["precision": 12])]),
             "precision of field \"a\""),
            (TableSpec(name: "T", fields: [FieldSpec(name: "a", type: .dateTime, options: ["timeZone": "Mars/Base"])]),
             "time zone of field \"a\""),
            (TableSpec(name: "T", fields: [FieldSpec(name: "a", type: .number, options: [1, 2])]),
             "options of field \"a\" must be an object"),
        ]
        for (spec, wording) in cases {
            let error = await apiError { try await base.createTable(spec) }
            #expect(error?.status == 422, "\(spec)")
            #expect(error?.message?.contains(wording) == true, "\(String(describing: error?.message)) lacks \(wording)")
        }
        #expect(try await base.schema().tables.isEmpty)
    }

    @Test func unknownTableIsModelNotFound() async throws {
        let (base, _) = try await makeOrdersBase()
        let expected = APIError.modelNotFound
        #expect(await apiError { try await base.listRecords(in: "Nope", query: ListQuery()) } == expected)
        #expect(await apiError { try await base.createRecord(in: "order", ["name": "x"]) } == expected)
        // An exact name wins, else one table whose name matches ignoring case (Airtable's names are unique so).
        #expect(try await base.createRecord(in: "ORDERS", ["name": "x"]).fields["name"] == "x")
        #expect(await apiError { try await base.createField(in: "Nope", FieldSpec(name: "x", type: .number)) } == expected)
        #expect(await apiError { try await base.deleteRecords(in: "tblAAAAAAAAAAAAAA", ids: []) } == expected)
    }
}
