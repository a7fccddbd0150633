import Airtable
import Foundation
@testable import LocalBase
import Testing

/// A cell whose JSON was damaged on disk (its page still sound) is found by the check, by SQLite's result code
/// alone (an index over the cells' JSON cannot be worked out), rather than failing it.
@Suite struct DamagedCellTests {
    /// A base whose one record's cell lost the closing quote of `marker`, with an index over the cells' JSON.
    /// - Returns: the id of the damaged record.
    @discardableResult
    static func baseWithADamagedCell(at path: String) async throws -> String {
        let marker = "ZZMARKERZZ"
        let damaged: String
        do {
            let base = try LocalBase(path: path)
            _ = try await base.createTable(TableSpec(name: "Orders", fields: [FieldSpec(name: "name", type: .singleLineText),
                                                                              FieldSpec(name: "n", type: .number)]))
            damaged = try await base.createRecord(in: "Orders", ["name": .string(marker), "n": 1]).id
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
        return damaged
    }

    @Test func theCheckReportsItInsteadOfFailing() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        try await Self.baseWithADamagedCell(at: path)
        #expect(!(try LocalBase.integrityProblems(ofFileAt: path)).isEmpty)
    }

    @Test func recoveryKeepsEveryRecordAndNamesTheDamagedCell() async throws {
        let path = temporaryBasePath()
        let copy = temporaryBasePath()
        defer {
            removeBase(at: path)
            removeBase(at: copy)
        }
        let damaged = try await Self.baseWithADamagedCell(at: path)
        let report = try LocalBase.recover(from: path, into: copy)
        #expect(report.recordsCopied == 2 && report.recordsLost == 0)
        #expect(report.damagedCells == [DamagedCell(table: "Orders", record: damaged, field: "name")])
        #expect(try LocalBase.integrityProblems(ofFileAt: copy).isEmpty)
        let records = try await LocalBase(path: copy).allRecords(in: "Orders")
        #expect(records.count == 2)
        // The damaged record keeps its other cells, only the damaged one is empty; the sound record is whole.
        #expect(records.first { $0.id == damaged }?.fields == ["n": 1])
        #expect(records.first { $0.id != damaged }?.fields == ["name": "sound", "n": 2])
    }

    @Test func salvageKeepsTheCellsItCanTellApart() {
        let sound = CellSalvage(#"{"fldAAAAAAAAAAAAAA":"a","fldBBBBBBBBBBBBBB":[1,2]}"#)
        #expect(sound.kept == ["fldAAAAAAAAAAAAAA": "a", "fldBBBBBBBBBBBBBB": [1, 2]] && sound.damagedFields.isEmpty)
        // A string that lost its closing quote, first and last.
        let first = CellSalvage("{\"fldAAAAAAAAAAAAAA\":\"a\u{01},\"fldBBBBBBBBBBBBBB\":2}")
        #expect(first.kept == ["fldBBBBBBBBBBBBBB": 2] && first.damagedFields == ["fldAAAAAAAAAAAAAA"])
        let last = CellSalvage("{\"fldAAAAAAAAAAAAAA\":1,\"fldBBBBBBBBBBBBBB\":{b\"}")
        #expect(last.kept == ["fldAAAAAAAAAAAAAA": 1] && last.damagedFields == ["fldBBBBBBBBBBBBBB"])
        // A quote in a sound string is escaped, so a key-like text inside it is not taken for a key.
        let quoted = CellSalvage(#"{"fldAAAAAAAAAAAAAA":"x\",\"fldCCCCCCCCCCCCCC\":1","fldBBBBBBBBBBBBBB":{"#)
        #expect(quoted.kept == ["fldAAAAAAAAAAAAAA": #"x","fldCCCCCCCCCCCCCC":1"#] && quoted.damagedFields == ["fldBBBBBBBBBBBBBB"])
        #expect(CellSalvage(#"["fldAAAAAAAAAAAAAA",1]"#).nothingReadable)
        #expect(CellSalvage("{garbage").nothingReadable)
    }
}
