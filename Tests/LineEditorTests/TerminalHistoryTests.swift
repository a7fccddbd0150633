import Foundation
import Testing
@testable import LineEditor

@Suite struct TerminalHistoryTests {
    /// A fresh folder for one test, removed afterwards by the caller.
    private func temporaryFolder() -> String {
        NSTemporaryDirectory() + "drinkshop-history-\(UUID().uuidString)"
    }

    @Test func skipsBlankLinesAndConsecutiveDuplicates() {
        var history = LineHistory()
        #expect(changed(history.add("menu")))
        #expect(!changed(history.add("menu")))
        #expect(!changed(history.add("   ")))
        #expect(!changed(history.add("")))
        #expect(changed(history.add("orders")))
        #expect(changed(history.add("menu")))
        #expect(!changed(history.add("a\nb")))
        #expect(history.entries == ["menu", "orders", "menu"])
    }

    @Test func aLineOfDigitsAloneIsNeverKept() {
        var history = LineHistory()
        for line in ["1357", " 2468 ", "１３５７", "24680135"] {
            let kept = history.add(line)
            #expect(!kept, "\(line)")
        }
        let payKept = history.add("pay #12 cash 500")
        let redeemKept = history.add("redeem #3 2")
        #expect(payKept && redeemKept)
        #expect(history.entries == ["pay #12 cash 500", "redeem #3 2"])
    }

    @Test func dropsTheOldestPastTheLimit() {
        var history = LineHistory(limit: 2)
        for line in ["a", "b", "c"] { history.add(line) }
        #expect(history.entries == ["b", "c"])
    }

    @Test func fileRoundTrip() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = HistoryFile(path: folder + "/nested/history")
        #expect(try file.load().entries == [])
        try file.append("order 白玉歐蕾 大杯 半糖 少冰")
        try file.append("orders")
        #expect(try file.load().entries == ["order 白玉歐蕾 大杯 半糖 少冰", "orders"])
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func loadingCutsAnOverlongFileBack() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/history"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (1...5).map { "line \($0)\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
        let history = try HistoryFile(path: path, limit: 3).load()
        #expect(history.entries == ["line 3", "line 4", "line 5"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "line 3\nline 4\nline 5\n")
    }

    @Test func aLongSessionCutsTheFileBackAtTwiceTheLimit() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = HistoryFile(path: folder + "/history", limit: 3)
        var kept = KeptHistory(file: file, limit: 3)
        for number in 1...5 { kept.record("order \(number)") }
        #expect(try String(contentsOfFile: file.path, encoding: .utf8).split(separator: "\n").count == 5)
        kept.record("order 6")
        #expect(try String(contentsOfFile: file.path, encoding: .utf8) == "order 4\norder 5\norder 6\n")
        #expect(kept.problem == nil)
    }

    @Test func aSecretLineIsNeverKeptAndOneAnEarlierVersionKeptIsDroppedFromTheFile() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = HistoryFile(path: folder + "/history")
        // As an earlier version left it: a PIN typed on a login line, kept.
        try file.append("orders")
        try file.append("login Boss 4321")
        let secret: @Sendable (String) -> Bool = { $0.contains("4321") || $0.contains("8642") }
        var kept = KeptHistory(file: file, limit: 10, isSecret: secret)
        #expect(kept.history.entries == ["orders"])
        kept.record("login Boss 8642")
        kept.record("menu")
        #expect(kept.history.entries == ["orders", "menu"])
        let text = try String(contentsOfFile: file.path, encoding: .utf8)
        #expect(text == "orders\nmenu\n")
        #expect(kept.problem == nil)
    }

    @Test func anUnreadableFileIsReportedWithItsPath() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A folder where the file should be: neither readable as text nor appendable.
        try FileManager.default.createDirectory(atPath: folder + "/history", withIntermediateDirectories: true)
        let file = HistoryFile(path: folder + "/history")
        #expect(throws: HistoryFileError.self) { try file.append("menu") }
        do {
            try file.append("menu")
        } catch {
            // The file and what was being done, in the words the counter shows.
            #expect(error.path == folder + "/history" && error.action == "append to")
            #expect(error.description == "cannot append to the history file \(folder)/history: \(error.reason)")
        }
        let kept = KeptHistory(file: file, limit: 10)
        #expect(kept.problem != nil)
        #expect(kept.history.entries.isEmpty)
    }
}
