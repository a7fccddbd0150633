import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing

/// `keepRecords`: records copied from another base keep their ids, creation times and cells.
@Suite struct KeepRecordsTests {
    @Test func copiesKeepTheirIdsCreationTimesAndCellsAndACopyAgainReplacesIt() async throws {
        let (base, table) = try await makeOrdersBase()
        let computed = Set(table.fields.filter(\.type.isComputed).map(\.name))
        let created = Date(timeIntervalSince1970: 1_795_000_000.25)
        let record = Record(id: "rec" + String(repeating: "A", count: 14), createdTime: created,
                            fields: ["name": "紅茶", "qty": 2, "size": "特大杯", "madeElsewhere": "kept"])
        #expect(try await base.keepRecords(in: "Orders", [record]) == 1)
        let stored = try await base.getRecord(in: "Orders", id: record.id, options: ReadOptions())
        #expect(stored.createdTime == created)
        // A choice the other base had is kept as it was; a field this table lacked was added for it.
        #expect(stored.fields.filter { !computed.contains($0.key) } == record.fields)
        #expect(stored.fields["created"]?.stringValue == "2026-11-18T11:06:40.250Z")
        #expect(try await base.schema().table("Orders")?.field("madeElsewhere")?.type == .multilineText)
        // The creation time filters as the other base's did.
        let before = try await base.allRecords(in: "Orders", query: ListQuery(
            filterByFormula: "IS_BEFORE(CREATED_TIME(), '2026-11-20T00:00:00.000Z')"))
        #expect(before.map(\.id) == [record.id])

        var changed = record
        changed.fields["qty"] = 3
        changed.fields["madeElsewhere"] = nil
        #expect(try await base.keepRecords(in: "Orders", [changed]) == 0)
        let all = try await base.allRecords(in: "Orders")
        #expect(all.count == 1)
        #expect(all.first?.fields.filter { !computed.contains($0.key) } == changed.fields)
        #expect(all.first?.createdTime == created)
    }

    @Test func anIdThatIsNotARecordIdIsRefusedAndNothingIsKept() async throws {
        let (base, _) = try await makeOrdersBase()
        let good = Record(id: "rec" + String(repeating: "B", count: 14), createdTime: Date(), fields: ["name": "綠茶"])
        let bad = Record(id: "nope", createdTime: Date(), fields: ["name": "紅茶"])
        await #expect(throws: AirtableError.self) { try await base.keepRecords(in: "Orders", [good, bad]) }
        #expect(try await base.allRecords(in: "Orders").isEmpty)
    }
}
