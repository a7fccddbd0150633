import Airtable
import AirtableFormula
import Foundation

extension LocalBase {
    /// The check a counter runs at every start, whose cost does not grow with the days a store holds.
    ///
    /// A file of at most `pageBudget` pages (8 MB at SQLite's 4 KB pages) gets SQLite's `quick_check` of
    /// every page, as before. A bigger one gets: SQLite's header figures (the freelist within the file),
    /// the schema, and `quick_check` of every table (with its indexes) of at most `rowBudget` records,
    /// which is every table but the few that hold every day's records (orders, payments, tickets once a
    /// store is some weeks old). Those are left to SQLite's own checks of each page it reads: a write that
    /// meets a damaged page of theirs fails with SQLITE_CORRUPT inside its transaction, so nothing of it
    /// is committed (`cell_size_check` is on, so those checks are the strict ones), and `drinkshop check`
    /// still reads every page. What a start and its first writes rely on without reading it first is
    /// the header, the schema and the freelist: the first two are checked every time, the freelist only by
    /// its count against the file's size (this SQLite has no `sqlite_dbpage` to walk it without a
    /// whole-file check).
    public func startProblems(pageBudget: Int64 = 2_048, rowBudget: Int64 = 20_000, limit: Int = 20)
        async throws(AirtableError) -> [String]
    {
        try await perform { context in
            try Self.boundedCheck(of: context.file.connection, pageBudget: pageBudget, rowBudget: rowBudget, limit: limit)
        }
    }

    static func boundedCheck(of connection: SQLiteConnection, pageBudget: Int64, rowBudget: Int64, limit: Int) throws
        -> [String]
    {
        do {
            let pages = try connection.integerValue("PRAGMA page_count") ?? 0
            guard pages > pageBudget else { return try checkPages(of: connection, thorough: false, limit: limit) }
            var findings: [String] = []
            let free = try connection.integerValue("PRAGMA freelist_count") ?? 0
            if free < 0 || free >= pages { findings.append("the freelist claims \(free) of \(pages) pages") }
            var big = Set<String>()
            try connection.query("SELECT name, seq FROM sqlite_sequence") { row in
                if row.int64(1) > rowBudget, let name = row.text(0) { big.insert(name) }
            }
            var tables: [String] = []
            try connection.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { row in
                if let name = row.text(0), !big.contains(name) { tables.append(name) }
            }
            for table in ["sqlite_master"] + tables where findings.count < limit {
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                do {
                    try connection.query("PRAGMA quick_check(\(quoted))") { row in
                        let text = row.text(0) ?? ""
                        if text != "ok" { findings.append(text) }
                    }
                } catch let error as SQLiteError where error.isDamageFoundByCheck {
                    return [error.message]
                }
            }
            return Array(findings.prefix(limit))
        } catch let error as SQLiteError where error.isDamage {
            return [error.message]
        }
    }
}
