import Airtable
import Foundation
@testable import LocalBase
import Testing

/// A cell whose JSON was damaged on disk (its page still sound) is found by the check, by SQLite's result code
/// alone (an index over the cells' JSON cannot be worked out), rather than failing it.
@Suite struct DamagedCellTests {
    /// A base whose one record's cell lost the closing quote of `marker`, with an index over the cells' JSON.
    static func baseWithADamagedCell(at path: String) async throws {
        let marker = "ZZMARKERZZ"
        do {
            let base = try LocalBase(path: path)
            _ = try await base.createTable(TableSpec(name: "Orders", fields: [FieldSpec(name: "name", type: .singleLineText),
                                                                              FieldSpec(name: "n", type: .number)]))
            _ = try await base.createRecord(in: "Orders", ["name": .string(marker), "n": 1])
            _ = try await base.createRecord(in: "Orders", ["name": "sound", "n": 2])
            _ = try await base.listRecords(in: "Orders", query: ListQuery(filterByFormula: "{n}=1"))
            #expect(try await base.indexNames(of: "Orders").contains { $0.hasPrefix("index_") })
            try await base.checkpoint()
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let quoted = Data("\(marker)\"".utf8)
        let found = try #require(bytes.range(of: quoted))
        bytes[found.upperBound - 1] = 0x01  // the string no longer ends: not JSON any more
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test func theCheckReportsItInsteadOfFailing() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        try await Self.baseWithADamagedCell(at: path)
        #expect(!(try LocalBase.integrityProblems(ofFileAt: path)).isEmpty)
    }
}
