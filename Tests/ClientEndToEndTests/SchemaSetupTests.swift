import Airtable
import AirtableFormula
import AirtableHTTP
@testable import DrinkShop
import Foundation
import Testing

/// `setup` against the server's metadata routes: creates what a base lacks when the token may, and
/// otherwise says exactly what to create by hand. Records are never touched.
@Suite struct SchemaSetupTests {
    @Test func anEmptyBaseGetsEveryTableAndFieldTheShopNeeds() async throws {
        try await ServerHarness.with { server in
            let client = try server.client()
            let before = SchemaPlan(wanted: ShopSchema.tables, reading: try await client.readSchema())
            #expect(before.missingItems == ShopSchema.tables.map { "table \($0.name)" })

            let result = await before.apply(to: client)
            #expect(result.failure == nil)
            #expect(result.created == ShopSchema.tables.map { "table \($0.name)" })
            #expect(result.remaining.isComplete)

            let after = SchemaPlan(wanted: ShopSchema.tables, reading: try await client.readSchema())
            #expect(after.isComplete && after.conflicts.isEmpty)
            #expect(try await Shop(store: client).missingSchema().isEmpty)
            let soldOut = try #require(try await server.base.schema().table("Drink")?.field("soldOut"))
            #expect(soldOut.options == ["icon": "check", "color": "greenBright"])
            for table in ShopSchema.tables {
                #expect(try await server.base.allRecords(in: table.name).isEmpty)
            }
        }
    }

    @Test func missingFieldsAreAddedToExistingTables() async throws {
        try await ServerHarness.with { server in
            _ = try await server.base.createTable(TableSpec(name: "Drink", fields: [
                FieldSpec(name: "name", type: .singleLineText), FieldSpec(name: "medium", type: .singleLineText),
            ]))
            _ = try await server.base.createRecord(in: "Drink", ["name": "熟成紅茶", "medium": "35"])
            let client = try server.client()
            let plan = SchemaPlan(wanted: [ShopSchema.drink], reading: try await client.readSchema())
            #expect(plan.missingTables.isEmpty)
            #expect(plan.missingFields.first?.fields.map(\.name)
                == ["englishName", "description", "category", "large", "image", "hotAvailable", "soldOut", "contains"])
            #expect(plan.conflicts == ["field Drink.medium is singleLineText; it should be number"])

            let result = await plan.apply(to: client)
            #expect(result.failure == nil)
            #expect(result.created.count == 8)
            let records = try await server.base.allRecords(in: "Drink")
            #expect(records.map(\.fields) == [["name": "熟成紅茶", "medium": "35"]])
        }
    }

    @Test func aTokenThatMayNotChangeTheSchemaGetsStepsToFollowByHand() async throws {
        try await ServerHarness.with { server in
            let readOnly = try server.client(token: server.readOnlyToken)
            let plan = SchemaPlan(wanted: ShopSchema.tables, reading: try await readOnly.readSchema())
            let result = await plan.apply(to: readOnly)
            #expect(result.wasRefused)
            #expect(result.created.isEmpty)
            #expect(result.remaining == plan)
            #expect(try await server.base.schema().tables.isEmpty)

            let steps = SchemaInstructions.text(for: result.remaining)
            #expect(steps.contains("Create table \"Drink\" (The menu) with these fields:\n"
                + "  - \"name\": Single line text [singleLineText] (the primary field: rename the table's first field to this)\n"))
            #expect(steps.contains("  - \"category\": Single select [singleSelect], options: 季節限定, 單品茶, 調茶, 雲蓋, 歐蕾\n"))
            #expect(steps.contains("  - \"medium\": Number, integer [number] — NT$ for a 中杯\n"))
            #expect(steps.contains("  - \"hotAvailable\": Checkbox [checkbox] — Can be served 溫 or 熱\n"))
            #expect(steps.contains("  - \"startsAt\": Date with time, 24-hour, local time zone [dateTime]\n"))
            #expect(steps.contains("Create table \"PickupTicket\""))
            for table in ShopSchema.tables {
                for field in table.fields { #expect(steps.contains("\"\(field.name)\": "), "\(table.name).\(field.name)") }
            }
        }
    }
}
