import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing

@Suite struct UpsertTests {
    private func upsert(_ base: LocalBase, _ records: [UpsertRecord], on fields: [String] = ["name"],
                        replace: Bool = false) async throws(AirtableError) -> UpsertResult {
        try await base.upsertRecords(in: "Orders", records, mergeOn: fields, replace: replace, options: WriteOptions())
    }

    @Test func createsUpdatesAndReportsWhichInRequestOrder() async throws {
        let (base, _) = try await makeOrdersBase()
        let existing = try await base.createRecord(in: "Orders", ["name": "紅茶", "qty": 1, "size": "中杯"])
        let result = try await upsert(base, [
            UpsertRecord(fields: ["name": "綠茶", "qty": 5]),
            UpsertRecord(fields: ["name": "紅茶", "qty": 2]),
        ])
        #expect(result.records.count == 2)
        #expect(result.records[0].fields["name"] == "綠茶")
        #expect(result.records[1].id == existing.id)
        #expect(result.createdRecords == [result.records[0].id])
        #expect(result.updatedRecords == [existing.id])
        // PATCH-style: the update merged.
        #expect(result.records[1].fields["size"] == "中杯")
        #expect(result.records[1].fields["qty"] == 2)
        #expect(try await base.allRecords(in: "Orders").count == 2)
    }

    @Test func replaceClearsTheMatchedRecordsOtherFields() async throws {
        let (base, _) = try await makeOrdersBase()
        _ = try await base.createRecord(in: "Orders", ["name": "紅茶", "qty": 1, "size": "中杯"])
        let result = try await upsert(base, [UpsertRecord(fields: ["name": "紅茶", "qty": 9])], replace: true)
        #expect(result.records[0].fields["size"] == nil)
        #expect(result.records[0].fields["qty"] == 9)
    }

    @Test func runningTheSameUpsertTwiceChangesNothing() async throws {
        let (base, _) = try await makeOrdersBase()
        let records = (1...12).map { UpsertRecord(fields: ["name": .string("drink \($0)"), "day": "2026-11-29", "qty": .int($0)]) }
        let first = try await upsert(base, records, on: ["name", "day"])
        let second = try await upsert(base, records, on: ["name", "day"])
        #expect(first.createdRecords.count == 12)
        #expect(second.createdRecords.isEmpty)
        #expect(second.updatedRecords == first.createdRecords)
        #expect(try await base.allRecords(in: "Orders").count == 12)
    }

    @Test func moreThanOneMatchFailsTheWholeRequest() async throws {
        let (base, _) = try await makeOrdersBase()
        _ = try await base.createRecords(in: "Orders", [["name": "紅茶"], ["name": "紅茶"]], options: WriteOptions())
        let error = await apiError {
            try await upsert(base, [UpsertRecord(fields: ["name": "綠茶"]), UpsertRecord(fields: ["name": "紅茶", "qty": 3])])
        }
        #expect(error?.status == 422)
        #expect(error?.message?.contains("record 2 matches 2 records on fieldsToMergeOn (\"name\")") == true)
        let all = try await base.allRecords(in: "Orders")
        #expect(all.count == 2)  // 綠茶 was not created
        #expect(all.allSatisfy { $0.fields["qty"] == nil })
    }

    @Test func aRecordWithoutIdMustCarryEveryMergeField() async throws {
        let (base, _) = try await makeOrdersBase()
        let error = await apiError {
            try await upsert(base, [UpsertRecord(fields: ["name": "a", "day": "2026-11-29"]), UpsertRecord(fields: ["name": "b"])],
                             on: ["name", "day"])
        }
        #expect(error?.status == 422)
        #expect(error?.message?.contains("record 2 has no id and no value for the merge field \"day\"") == true)
        #expect(try await base.allRecords(in: "Orders").isEmpty)
    }

    @Test func recordsWithIdsArePlainUpdates() async throws {
        let (base, _) = try await makeOrdersBase()
        let existing = try await base.createRecord(in: "Orders", ["name": "紅茶"])
        // With an id, the merge fields are not needed and not matched on.
        let result = try await upsert(base, [UpsertRecord(id: existing.id, fields: ["qty": 4])])
        #expect(result.updatedRecords == [existing.id])
        #expect(result.records[0].fields["qty"] == 4)
        let ghost = "rec" + String(repeating: "z", count: 14)
        let error = await apiError { try await upsert(base, [UpsertRecord(fields: ["name": "新"]), UpsertRecord(id: ghost, fields: [:])]) }
        #expect(error == .rowDoesNotExist(ghost))
        #expect(try await base.allRecords(in: "Orders").count == 1)
    }

    @Test func mergeFieldsAreChecked() async throws {
        let (base, _) = try await makeOrdersBase()
        let record = UpsertRecord(fields: ["name": "a"])
        #expect(await apiError { try await upsert(base, [record], on: ["nope"]) } == .unknownFieldName("nope"))
        let computed = await apiError { try await upsert(base, [record], on: ["number"]) }
        #expect(computed?.message?.contains("cannot be in fieldsToMergeOn") == true)
        let checkbox = await apiError { try await upsert(base, [record], on: ["paid"]) }
        #expect(checkbox?.message?.contains("is of type checkbox") == true)
        let none = await apiError { try await upsert(base, [record], on: []) }
        #expect(none?.message?.contains("1 to 3 fields") == true)
        let four = await apiError { try await upsert(base, [record], on: ["name", "qty", "day", "size"]) }
        #expect(four?.message?.contains("1 to 3 fields") == true)
    }

    @Test func matchesOnNumbersSelectsAndMultipleSelects() async throws {
        let (base, _) = try await makeOrdersBase()
        let a = try await base.createRecord(in: "Orders", ["qty": 2, "size": "大杯", "addOns": ["加白玉", "加水玉"]])
        let result = try await upsert(base, [UpsertRecord(fields: ["qty": 2, "size": "大杯", "addOns": ["加水玉", "加白玉"], "name": "x"])],
                                      on: ["qty", "size", "addOns"])
        #expect(result.updatedRecords == [a.id])
        let other = try await upsert(base, [UpsertRecord(fields: ["qty": 2, "size": "中杯", "addOns": ["加白玉"]])],
                                     on: ["qty", "size"])
        #expect(other.createdRecords.count == 1)
    }

    @Test func typecastUpsertCreatesOptionsAndMatchesConvertedValues() async throws {
        let (base, table) = try await makeOrdersBase()
        let existing = try await base.createRecord(in: "Orders", ["qty": 12, "name": "x"])
        let result = try await base.upsertRecords(in: "Orders", [UpsertRecord(fields: ["qty": "12", "size": "特大杯"])],
                                                  mergeOn: ["qty"], replace: false, options: WriteOptions(typecast: true))
        #expect(result.updatedRecords == [existing.id])
        #expect(result.records[0].fields["size"] == "特大杯")
        #expect(try await base.schema().table(table.id)?.field("size")?.choices.last == "特大杯")
    }

    @Test func returnsFieldsByIdWhenAsked() async throws {
        let (base, table) = try await makeOrdersBase()
        let nameID = try #require(table.field("name")?.id)
        let result = try await base.upsertRecords(in: "Orders", [UpsertRecord(fields: [nameID: "a"])], mergeOn: [nameID],
                                                  replace: false, options: WriteOptions(returnFieldsByFieldId: true))
        #expect(result.records[0].fields[nameID] == "a")
    }

    @Test func nullMergeValueMatchesNothing() async throws {
        let (base, _) = try await makeOrdersBase()
        _ = try await base.createRecord(in: "Orders", ["qty": 1])
        let result = try await upsert(base, [UpsertRecord(fields: ["name": nil, "qty": 1])])
        #expect(result.createdRecords.count == 1)
    }
}
