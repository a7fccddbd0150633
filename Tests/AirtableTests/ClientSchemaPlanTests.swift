import Airtable
import AirtableFormula
import AirtableHTTP
import Testing

@Suite struct ClientSchemaPlanTests {
    private let wanted = [
        TableSpec(name: "Drink", fields: [FieldSpec(name: "name", type: .singleLineText),
                                          FieldSpec(name: "medium", type: .number, options: ["precision": 0]),
                                          FieldSpec(name: "soldOut", type: .checkbox),
                                          FieldSpec(name: "rank", type: .number)]),
        TableSpec(name: "OrderDrink", fields: [FieldSpec(name: "ref", type: .singleLineText)]),
        TableSpec(name: "User", fields: [FieldSpec(name: "name", type: .singleLineText)]),
    ]

    private func reading(_ tables: JSONValue) throws -> SchemaReading {
        try SchemaReading(json: ["tables": tables])
    }

    @Test func clashesAreReportedInsteadOfCreated() throws {
        let base = try reading([
            ["id": "tblA", "name": "Drink", "fields": [
                ["id": "fld1", "name": "name", "type": "formula"],
                ["id": "fld2", "name": "Medium", "type": "number"],
            ]],
            ["id": "tblB", "name": "orderdrink", "fields": [["id": "fld3", "name": "ref", "type": "singleLineText"]]],
        ])
        let plan = SchemaPlan(wanted: wanted, reading: base)
        #expect(plan.conflicts == [
            "field Drink.name is formula; it should be singleLineText",
            "field Drink.Medium should be named \"medium\" (names are case-sensitive)",
            "table \"orderdrink\" should be named \"OrderDrink\" (names are case-sensitive)",
        ])
        #expect(plan.missingItems == ["table User", "field Drink.soldOut (checkbox)", "field Drink.rank (number)"])
        #expect(!plan.isComplete)
    }

    @Test func fieldsGetTheOptionsTheMetadataAPIRequires() {
        #expect(SchemaPlan.creatable(FieldSpec(name: "soldOut", type: .checkbox)).options
            == ["icon": "check", "color": "greenBright"])
        #expect(SchemaPlan.creatable(FieldSpec(name: "rank", type: .number)).options == ["precision": 0])
        let kept = FieldSpec(name: "price", type: .number, options: ["precision": 2])
        #expect(SchemaPlan.creatable(kept) == kept)
        let text = FieldSpec(name: "name", type: .singleLineText)
        #expect(SchemaPlan.creatable(text) == text)
    }

    @Test func aCompleteBaseNeedsNothing() throws {
        let fields: JSONValue = [["id": "f1", "name": "name", "type": "singleLineText"],
                                 ["id": "f2", "name": "medium", "type": "number"],
                                 ["id": "f3", "name": "soldOut", "type": "checkbox"],
                                 ["id": "f4", "name": "rank", "type": "number"],
                                 ["id": "f5", "name": "ref", "type": "singleLineText"],
                                 ["id": "f6", "name": "extra", "type": "multipleRecordLinks"]]
        let base = try reading([["id": "t1", "name": "Drink", "fields": fields],
                                ["id": "t2", "name": "OrderDrink", "fields": fields],
                                ["id": "t3", "name": "User", "fields": fields]])
        let plan = SchemaPlan(wanted: wanted, reading: base)
        #expect(plan.isComplete && plan.conflicts.isEmpty)
        #expect(SchemaInstructions.text(for: plan).isEmpty)
    }
}
