@testable import DrinkShop
import DrinkShopCore
import Foundation
@testable import ShopREPL
import Testing

/// The export's files written a day at a time: one byte-order mark and header each, every part's rows
/// in order, and nothing in place until the whole export is written.
@Suite struct TillFilesTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "tillfiles-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func table(_ rows: [[String]]) -> CSVTable { CSVTable(header: ["pickupNumber", "note"], rows: rows) }

    @Test func partsWrittenInTurnMakeTheFileTheWholeTableMakes() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = TillFileWriter(base: dir + "/month.csv")
        try files.append(table([["1", "a, b"]]), table([]), table([["1", "x"]]))
        try files.append(table([["2", "=1+1"]]), table([["2", "y"]]), table([]))
        let written = try files.finish()
        #expect(written == ["orders", "lines", "payments"].map { "\(dir)/month-\($0).csv" })
        let whole = [table([["1", "a, b"], ["2", "=1+1"]]), table([["2", "y"]]), table([["1", "x"]])]
        for (path, expected) in zip(written, whole) {
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected.bytes))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == 3)  // no part file left
    }

    @Test func anAbandonedExportLeavesTheEarlierFilesAsTheyWere() throws {
        let dir = try folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let earlier = try TillFiles.write((table([["9", "old"]]), table([]), table([])), base: dir + "/day")
        let before = try earlier.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let files = TillFileWriter(base: dir + "/day.csv")
        try files.append(table([["1", "new"]]), table([]), table([]))
        files.abandon()
        #expect(try earlier.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == earlier.map { ($0 as NSString).lastPathComponent }.sorted())
    }
}
