import Airtable
import Foundation
import LocalBase
import Synchronization
import Testing

@Suite("LAST_MODIFIED_TIME() in filters: what the gateway's freshness check asks")
struct LastModifiedFormulaTests {
    @Test("records changed after a moment are found; records only created before it are not")
    func changedSince() async throws {
        final class Now: Sendable { let value = Mutex(Date(timeIntervalSince1970: 1_795_000_000)) }
        let now = Now()
        let base = try LocalBase.inMemory(clock: { now.value.withLock { $0 } })
        _ = try await base.createTable(TableSpec(name: "Drink", fields: [FieldSpec(name: "name", type: .singleLineText)]))
        let created = try await base.createRecords(in: "Drink", [["name": "熟成紅茶"], ["name": "白玉歐蕾"]], options: WriteOptions())
        now.value.withLock { $0 = $0.addingTimeInterval(60) }
        let since = AirtableTimestamp.format(Date(timeIntervalSince1970: 1_795_000_030))
        let formula = "IS_AFTER(LAST_MODIFIED_TIME(), '\(since)')"
        #expect(try await base.allRecords(in: "Drink", query: ListQuery(filterByFormula: formula)).isEmpty)
        _ = try await base.updateRecords(in: "Drink", [RecordUpdate(id: created[1].id, fields: ["name": "白玉歐蕾 (新)"])],
                                         replace: false, options: WriteOptions())
        let changed = try await base.allRecords(in: "Drink", query: ListQuery(filterByFormula: formula))
        #expect(changed.map(\.id) == [created[1].id])
    }
}
