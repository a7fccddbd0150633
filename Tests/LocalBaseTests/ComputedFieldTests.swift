import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing
import TestSupport

/// Formula, rollup, lookup, count, button, createdBy and lastModifiedBy fields: made through the
/// create-field route, computed when read, refused on write.
@Suite struct ComputedFieldTests {
    /// Drinks, and orders linking to them with every computed type over the link.
    private func makeShop() async throws -> (LocalBase, drinks: TableSchema, orders: TableSchema) {
        let base = try LocalBase.inMemory()
        let drinks = try await base.createTable(TableSpec(name: "Drinks", fields: [
            FieldSpec(name: "name", type: .singleLineText),
            FieldSpec(name: "price", type: .currency, options: ["precision": 0, "symbol": "NT$"]),
        ]))
        _ = try await base.createTable(TableSpec(name: "Orders", fields: [
            FieldSpec(name: "who", type: .singleLineText),
            FieldSpec(name: "cups", type: .number, options: ["precision": 0]),
            FieldSpec(name: "drinks", type: .multipleRecordLinks, options: ["linkedTableId": .string(drinks.id)]),
        ]))
        let price = try #require(drinks.field("price")).id
        let specs: [FieldSpec] = [
            FieldSpec(name: "label", type: .formula, options: ["formula": "{who} & ' x' & cups"]),
            FieldSpec(name: "prices", type: .multipleLookupValues,
                      options: ["recordLinkFieldId": "drinks", "fieldIdInLinkedTable": .string(price)]),
            FieldSpec(name: "total", type: .rollup, options: ["recordLinkFieldId": "drinks",
                                                             "fieldIdInLinkedTable": .string(price), "formula": "SUM(values)"]),
            FieldSpec(name: "bill", type: .formula, options: ["formula": "{total} * {cups}"]),
            FieldSpec(name: "count", type: .count, options: ["recordLinkFieldId": "drinks"]),
            FieldSpec(name: "nan", type: .formula, options: ["formula": "0 / 0"]),
            FieldSpec(name: "broken", type: .formula, options: ["formula": "ERROR()"]),
            FieldSpec(name: "open", type: .button, options: ["label": "Open", "url": "'https://x.example/' & RECORD_ID()"]),
            FieldSpec(name: "madeBy", type: .createdBy),
            FieldSpec(name: "changedBy", type: .lastModifiedBy),
        ]
        for spec in specs { _ = try await base.createField(in: "Orders", spec) }
        let orders = try #require(try await base.schema().table("Orders"))
        return (base, drinks, orders)
    }

    @Test func formulasAreStoredWithFieldIDsAndReportTheirResult() async throws {
        let (base, _, orders) = try await makeShop()
        let who = try #require(orders.field("who")).id
        let cups = try #require(orders.field("cups")).id
        let label = try #require(orders.field("label"))
        #expect(label.options?["formula"]?.stringValue == "{\(who)} & ' x' & {\(cups)}")
        #expect(label.options?["referencedFieldIds"] == [.string(who), .string(cups)])
        #expect(label.options?["isValid"] == true)
        #expect(label.options?["result"]?["type"] == "singleLineText")
        #expect(orders.field("bill")?.options?["result"]?["type"] == "number")
        #expect(orders.field("prices")?.options?["result"]?["type"] == "currency")
        // A rollup's aggregation and a button's label are kept, but never shown by the metadata API.
        let total = try #require(orders.field("total"))
        #expect(total.options?["formula"] == "SUM(values)")
        #expect(total.json["options"]?["formula"] == nil)
        #expect(total.json["options"]?["recordLinkFieldId"] != nil)
        #expect(orders.field("open")?.json["options"] == nil)

        // Renaming a field the formula reads leaves it working.
        _ = try await base.updateField(in: "Orders", field: "who", SchemaChange(name: "customer"))
        let record = try await base.createRecord(in: "Orders", ["customer": "Amy", "cups": 2])
        #expect(record.fields["label"] == "Amy x2")
    }

    @Test func computedValuesFollowTheCellsAndTheLinkedRecords() async throws {
        let (base, _, _) = try await makeShop()
        let black = try await base.createRecord(in: "Drinks", ["name": "熟成紅茶", "price": 30])
        let milk = try await base.createRecord(in: "Drinks", ["name": "熟成歐蕾", "price": 55])
        let order = try await base.createRecord(in: "Orders", ["who": "Amy", "cups": 2,
                                                               "drinks": [.string(black.id), .string(milk.id)]])
        let owner = try #require(try await base.collaborators().first)
        #expect(order.fields["label"] == "Amy x2")
        #expect(order.fields["prices"] == [30, 55])
        #expect(order.fields["total"] == 85)
        #expect(order.fields["bill"] == 170)
        #expect(order.fields["count"] == 2)
        #expect(order.fields["nan"] == ["specialValue": "NaN"])
        #expect(order.fields["broken"] == ["error": "#ERROR!"])
        #expect(order.fields["open"] == ["label": "Open", "url": .string("https://x.example/\(order.id)")])
        #expect(order.fields["madeBy"] == owner.json)
        #expect(order.fields["changedBy"] == owner.json)

        _ = try await base.updateRecord(in: "Drinks", id: milk.id, ["price": 60])
        var again = try await base.getRecord(in: "Orders", id: order.id, options: ReadOptions())
        #expect(again.fields["prices"] == [30, 60])
        #expect(again.fields["bill"] == 180)
        try await base.deleteRecords(in: "Drinks", ids: [black.id])
        again = try await base.getRecord(in: "Orders", id: order.id, options: ReadOptions())
        #expect(again.fields["count"] == 1)
        #expect(again.fields["total"] == 60)
        _ = try await base.updateRecord(in: "Orders", id: order.id, ["drinks": []])
        again = try await base.getRecord(in: "Orders", id: order.id, options: ReadOptions())
        #expect(again.fields["count"] == 0)
        #expect(again.fields["prices"] == nil)
        #expect(again.fields["total"] == 0)
    }

    @Test func aLinkToItsOwnTableLooksUpAndRollsUpAsThePyairtableSuiteExpects() async throws {
        let base = try LocalBase.inMemory()
        _ = try await base.createTable(TableSpec(name: "Things", fields: [
            FieldSpec(name: "name", type: .singleLineText), FieldSpec(name: "n", type: .autoNumber),
        ]))
        let specs: [FieldSpec] = [
            FieldSpec(name: "self", type: .multipleRecordLinks, options: ["linkedTableId": "Things"]),
            FieldSpec(name: "int", type: .formula, options: ["formula": "n * 10"]),
            FieldSpec(name: "error", type: .formula, options: ["formula": "ERROR()"]),
            FieldSpec(name: "lookupInt", type: .multipleLookupValues, options: ["recordLinkFieldId": "self", "fieldIdInLinkedTable": "int"]),
            FieldSpec(name: "lookupError", type: .multipleLookupValues,
                      options: ["recordLinkFieldId": "self", "fieldIdInLinkedTable": "error"]),
            FieldSpec(name: "rollupError", type: .rollup,
                      options: ["recordLinkFieldId": "self", "fieldIdInLinkedTable": "error", "formula": "SUM(values)"]),
            FieldSpec(name: "links", type: .count, options: ["recordLinkFieldId": "self"]),
        ]
        for spec in specs { _ = try await base.createField(in: "Things", spec) }
        let made = try await base.createRecord(in: "Things", ["name": "a"])
        #expect(made.fields["lookupInt"] == nil)
        #expect(made.fields["links"] == 0)
        let linked = try await base.updateRecord(in: "Things", id: made.id, ["self": [.string(made.id)]])
        #expect(linked.fields["int"] == 10)
        #expect(linked.fields["lookupInt"] == [10])
        #expect(linked.fields["lookupError"] == [["error": "#ERROR!"]])
        #expect(linked.fields["rollupError"] == ["error": "#ERROR!"])
        #expect(linked.fields["links"] == 1)
    }

    @Test func writingAComputedFieldIsAirtablesErrorAndWritesNothing() async throws {
        let (base, _, _) = try await makeShop()
        let cases: [(String, JSONValue)] = [("label", "x"), ("total", 1), ("prices", [1]), ("count", 2),
                                            ("open", ["label": "x"]), ("madeBy", .null), ("changedBy", "x")]
        for (name, value) in cases {
            let error = await apiError { try await base.createRecords(in: "Orders", [["who": "z"], ["who": "y", name: value]],
                                                                      options: WriteOptions()) }
            #expect(error?.status == 422)
            #expect(error?.type == "INVALID_VALUE_FOR_COLUMN")
            #expect(error?.message == "Field \"\(name)\" cannot accept a value because the field is computed")
        }
        #expect(try await base.allRecords(in: "Orders").isEmpty)
    }

    @Test func filtersAndSortsSeeComputedFields() async throws {
        let (base, _, _) = try await makeShop()
        let cheap = try await base.createRecord(in: "Drinks", ["name": "cheap", "price": 10])
        let dear = try await base.createRecord(in: "Drinks", ["name": "dear", "price": 100])
        _ = try await base.createRecord(in: "Orders", ["who": "a", "cups": 3, "drinks": [.string(cheap.id)]])
        _ = try await base.createRecord(in: "Orders", ["who": "b", "cups": 1, "drinks": [.string(dear.id)]])
        _ = try await base.createRecord(in: "Orders", ["who": "c", "cups": 1])
        func names(_ query: ListQuery) async throws -> [String] {
            try await base.allRecords(in: "Orders", query: query).compactMap { $0.fields["who"]?.stringValue }
        }
        #expect(try await names(ListQuery(filterByFormula: "{total} > 20")) == ["b"])
        #expect(try await names(ListQuery(filterByFormula: "AND({count} = 0, {label} = 'c x1')")) == ["c"])
        #expect(try await names(ListQuery(sort: [SortKey(field: "bill", direction: .descending)])) == ["b", "a", "c"])
        #expect(try await names(ListQuery(sort: [SortKey(field: "label", direction: .descending)])) == ["c", "b", "a"])
        let text = try await base.allRecords(in: "Orders", query: ListQuery(filterByFormula: "{who} = 'b'",
                                                                            cellFormat: .string, timeZone: "Asia/Taipei",
                                                                            userLocale: "zh-tw"))
        #expect(text.first?.fields["prices"] == "NT$100")
        #expect(text.first?.fields["broken"] == "#ERROR!")
        #expect(text.first?.fields["nan"] == "NaN")
        #expect(text.first?.fields["madeBy"] == "Base owner")
    }

    @Test func badDefinitionsAreRefusedAndChangeNothing() async throws {
        let (base, _, _) = try await makeShop()
        let before = try await base.schema()
        let bad: [FieldSpec] = [
            FieldSpec(name: "f", type: .formula),
            FieldSpec(name: "f", type: .formula, options: ["formula": "{nope} + 1"]),
            FieldSpec(name: "f", type: .formula, options: ["formula": "SUM("]),
            FieldSpec(name: "r", type: .rollup, options: ["recordLinkFieldId": "who", "fieldIdInLinkedTable": "price"]),
            FieldSpec(name: "r", type: .rollup, options: ["recordLinkFieldId": "drinks", "fieldIdInLinkedTable": "nope"]),
            FieldSpec(name: "r", type: .rollup, options: ["recordLinkFieldId": "drinks", "fieldIdInLinkedTable": "price",
                                                         "formula": "SUM({price})"]),
            FieldSpec(name: "l", type: .multipleLookupValues, options: ["fieldIdInLinkedTable": "price"]),
            FieldSpec(name: "c", type: .count, options: ["recordLinkFieldId": "fldNotThere000000"]),
            FieldSpec(name: "b", type: .button, options: ["label": 3]),
            FieldSpec(name: "b", type: .button, options: ["url": "{nope}"]),
        ]
        for spec in bad {
            let error = await apiError { try await base.createField(in: "Orders", spec) }
            #expect(error?.status == 422, "\(spec)")
            #expect(error?.message?.contains("\"\(spec.name)\"") == true, "\(error?.message ?? "no error")")
        }
        #expect(try await base.schema() == before)
    }

    @Test func aFileWithoutComputedFieldsOpensUnchangedAndCanGainThem() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        var id = ""
        do {
            let base = try LocalBase(path: path)
            _ = try await base.createTable(TableSpec(name: "Orders", fields: [
                FieldSpec(name: "name", type: .singleLineText), FieldSpec(name: "cups", type: .number),
            ]))
            id = try await base.createRecord(in: "Orders", ["name": "Amy", "cups": 2]).id
        }
        let base = try LocalBase(path: path)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try await base.allRecords(in: "Orders").map(\.fields) == [["name": "Amy", "cups": 2]])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        _ = try await base.createField(in: "Orders", FieldSpec(name: "double", type: .formula, options: ["formula": "cups * 2"]))
        let reopened = try LocalBase(path: path)
        let record = try await reopened.getRecord(in: "Orders", id: id, options: ReadOptions())
        #expect(record.fields == ["name": "Amy", "cups": 2, "double": 4])
    }
}
