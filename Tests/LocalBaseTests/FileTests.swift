import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing

@Suite struct FileTests {
    @Test func writesSurviveClosingAndReopening() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let baseID: String
        let ids: [String]
        do {
            let base = try LocalBase(path: path)
            baseID = base.baseID
            _ = try await base.createTable(TableSpec(name: "Orders", fields: orderFields))
            ids = try await base.createRecords(in: "Orders", [["name": "紅茶", "qty": 1], ["name": "綠茶", "size": "大杯"]],
                                               options: WriteOptions()).map(\.id)
            _ = try await base.updateRecord(in: "Orders", id: ids[0], ["qty": 5])
        }
        let reopened = try LocalBase(path: path)
        #expect(reopened.baseID == baseID)
        #expect(try await reopened.schema().table("Orders")?.fields.count == orderFields.count)
        let records = try await reopened.allRecords(in: "Orders")
        #expect(records.map(\.id) == ids)
        #expect(records[0].fields["qty"] == 5)
        #expect(records[1].fields["size"] == "大杯")
        let next = try await reopened.createRecord(in: "Orders", ["name": "x"])
        #expect(next.fields["number"] == 3)
    }

    @Test func usesWriteAheadLogging() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let base = try LocalBase(path: path)
        _ = try await base.createTable(TableSpec(name: "T", fields: [FieldSpec(name: "a", type: .number)]))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test func aFileThatIsNotABaseIsRefusedClearly() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        try Data("this is a shopping list, not a database".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try LocalBase(path: path)
        } throws: { error in
            // Named by its problem, and in words about the file alone.
            (error as? AirtableError) == .localFile(LocalFileFailure(path: path, problem: .damaged))
                && "\(error)" == "the store \(path) is damaged and was not changed"
        }
        let missingDirectory = "/nonexistent-\(UUID().uuidString)/base.sqlite"
        #expect(throws: AirtableError.self) { _ = try LocalBase(path: missingDirectory) }
    }

    @Test func twoInstancesOnOneFileWriteAtOnce() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let first = try LocalBase(path: path)
        _ = try await first.createTable(TableSpec(name: "Orders", fields: orderFields))
        let second = try LocalBase(path: path)  // a second connection, as a second counter would have
        #expect(second.baseID == first.baseID)

        let perCounter = 40
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (counter, base) in [("A", first), ("B", second)] {
                group.addTask {
                    for n in 1...perCounter {
                        if n % 2 == 0 {
                            _ = try await base.createRecord(in: "Orders", ["name": .string("\(counter)\(n)")])
                        } else {
                            _ = try await base.createRecords(in: "Orders", [["name": .string("\(counter)\(n)")]],
                                                             options: WriteOptions(typecast: true))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let records = try await first.allRecords(in: "Orders")
        #expect(records.count == 2 * perCounter)  // nothing lost
        let numbers = records.compactMap { $0.fields["number"]?.intValue }
        #expect(Set(numbers).count == numbers.count)  // autoNumbers unique...
        #expect(numbers == numbers.sorted())  // ...and increasing in creation order
        #expect(Set(records.map(\.id)).count == records.count)
        // Each instance sees the other's writes.
        #expect(try await second.allRecords(in: "Orders").count == 2 * perCounter)
    }

    @Test func schemaChangesBySomeoneElseAreSeen() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let first = try LocalBase(path: path)
        let second = try LocalBase(path: path)
        _ = try await first.createTable(TableSpec(name: "Orders", fields: [FieldSpec(name: "name", type: .singleLineText)]))
        _ = try await second.createRecord(in: "Orders", ["name": "a"])  // second learns of the table
        _ = try await first.createField(in: "Orders", .singleSelect("size", ["M"]))
        let record = try await second.createRecord(in: "Orders", ["name": "b", "size": "M"])
        #expect(record.fields["size"] == "M")
        // Typecast adding an option in one instance is seen by the other.
        _ = try await first.createRecords(in: "Orders", [["size": "L"]], options: WriteOptions(typecast: true))
        #expect(try await second.schema().table("Orders")?.field("size")?.choices == ["M", "L"])
    }
}
