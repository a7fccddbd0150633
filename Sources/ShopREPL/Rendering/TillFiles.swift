import DrinkShop
import DrinkShopCore
import Foundation
import Glibc

/// Writes the export's three CSV files next to each other, each whole or not at all: `day.csv` →
/// `day-orders.csv`, `day-lines.csv`, `day-payments.csv`.
enum TillFiles {
    static func paths(base: String) -> [String] {
        let stem = base.lowercased().hasSuffix(".csv") ? String(base.dropLast(4)) : base
        return ["\(stem)-orders.csv", "\(stem)-lines.csv", "\(stem)-payments.csv"]
    }

    /// The three tables written at once.
    static func write(_ tables: (orders: CSVTable, lines: CSVTable, payments: CSVTable), base: String) throws -> [String] {
        let files = TillFileWriter(base: base)
        do {
            try files.append(tables.orders, tables.lines, tables.payments)
            return try files.finish()
        } catch {
            files.abandon()
            throw error
        }
    }
}

/// The export's files written a part at a time (a month is handed over a business day at a time), so
/// the text of a month is never held whole. Each file is written beside its final name and renamed
/// over it at `finish`, so a failed export leaves any earlier file of that name as it was.
final class TillFileWriter {
    private let paths: [String]
    private let temporary: [String]
    private var handles: [FileHandle] = []

    init(base: String) {
        paths = TillFiles.paths(base: base)
        let tag = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        temporary = paths.map { "\($0).part-\(tag)" }
    }

    /// Writes the tables' rows, after the byte-order mark and each table's header the first time.
    func append(_ orders: CSVTable, _ lines: CSVTable, _ payments: CSVTable) throws(TillError) {
        let tables = [orders, lines, payments]
        if handles.isEmpty {
            for (index, path) in temporary.enumerated() {
                guard FileManager.default.createFile(atPath: path, contents: nil),
                      let handle = FileHandle(forWritingAtPath: path)
                else { throw .exportNotWritten(path: paths[index], reason: String(cString: strerror(errno))) }
                handles.append(handle)
                // The byte-order mark first (a handle writes from the file's start), then the header.
                try write("\u{FEFF}" + tables[index].headerText, to: index)
            }
        }
        for (index, table) in tables.enumerated() where !table.rows.isEmpty {
            try write(table.rowsText, to: index)
        }
    }

    /// Closes the files and puts each in its place; returns their names.
    func finish() throws(TillError) -> [String] {
        // Every period has a day, so its tables were appended at least once; nothing to put in place otherwise.
        guard !handles.isEmpty else { throw .exportNotWritten(path: paths[0], reason: "the period has no day") }
        for (index, handle) in handles.enumerated() {
            do { try handle.close() } catch { throw .exportNotWritten(path: paths[index], reason: error.localizedDescription) }
        }
        handles = []
        for (index, path) in paths.enumerated() where rename(temporary[index], path) != 0 {
            throw .exportNotWritten(path: path, reason: String(cString: strerror(errno)))
        }
        return paths
    }

    /// Removes what was written (after a failure).
    func abandon() {
        for handle in handles { try? handle.close() }
        handles = []
        for path in temporary { try? FileManager.default.removeItem(atPath: path) }
    }

    private func write(_ text: String, to index: Int) throws(TillError) {
        do { try handles[index].write(contentsOf: Data(text.utf8)) } catch {
            throw .exportNotWritten(path: paths[index], reason: error.localizedDescription)
        }
    }
}
