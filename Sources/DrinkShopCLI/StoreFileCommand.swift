import Foundation
import LocalBase

/// The commands that work on the store file itself rather than on the shop: `init` (make a new store in
/// a chosen place), `check` (SQLite's integrity check, reported in words; `check --books` is the shop's books
/// check, `BooksCommand`) and `recover` (copy every readable record of a damaged store into a new file).
enum StoreFileCommand: String {
    case initialize = "init"
    case check
    case recover

    func run(path: String, words: [String], environment: [String: String]) async -> Int32 {
        do {
            switch self {
            case .initialize:
                guard words.isEmpty else { throw UsageError("init takes no words: drinkshop init --db PATH") }
                return try await initialize(path: path, environment: environment)
            case .check:
                guard words.isEmpty else { throw UsageError("check takes no words: drinkshop check --db PATH (or the books: drinkshop check --books [DATE])") }
                return try await check(path: path)
            case .recover:
                return try await recover(path: path, words: words)
            }
        } catch {
            DrinkShopCLI.printError("drinkshop: \(error)")
            return 1
        }
    }

    private func initialize(path: String, environment: [String: String]) async throws -> Int32 {
        if FileManager.default.fileExists(atPath: path),
           ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) > 0 {
            _ = try await EmbeddedStore.open(path: path, mayCreate: false, environment: environment, notes: say)
            say("\(path) is already a store; nothing was changed")
            return 0
        }
        _ = try await EmbeddedStore.open(path: path, mayCreate: true, environment: environment, notes: say)
        return 0
    }

    private func check(path: String) async throws -> Int32 {
        let problems = try await offThePool { () throws -> [String] in
            try LocalBase.integrityProblems(ofFileAt: path, thorough: true)
        }.flatMap { $0.split(separator: "\n").map(String.init) }.filter { !$0.hasPrefix("*** in database") }
        guard !problems.isEmpty else {
            say("The store \(path) is sound: SQLite's integrity check found no problems.")
            return 0
        }
        say("The store \(path) is damaged: SQLite's integrity check found \(problems.count) problem(s):")
        for problem in problems { say("  \(problem)") }
        say("Nothing was written to it. To copy every readable order into a new store, run:\n"
            + "  drinkshop recover --db \(path) --into NEW.sqlite")
        return 1
    }

    private func recover(path: String, words: [String]) async throws -> Int32 {
        var into: String?
        var index = 0
        while index < words.count {
            if words[index] == "--into", index + 1 < words.count {
                into = words[index + 1]
                index += 2
            } else if words[index].hasPrefix("--into=") {
                into = String(words[index].dropFirst("--into=".count))
                index += 1
            } else {
                throw UsageError("recover takes --into NEW.sqlite, not \"\(words[index].prefix(40))\"")
            }
        }
        guard let into, !into.isEmpty else {
            throw UsageError("recover needs a new file to copy into: drinkshop recover --db \(path) --into NEW.sqlite")
        }
        guard FileManager.default.fileExists(atPath: path) else { throw UsageError("there is no store at \(path)") }
        let report = try await offThePool { () throws -> BaseRecoveryReport in
            try LocalBase.recover(from: path, into: into)
        }
        say("Copied \(report.recordsCopied) records (drinks, orders, promotions and the rest) from \(path) into \(into).")
        if report.recordsLost > 0 || !report.tablesLost.isEmpty {
            say("\(report.recordsLost) records could not be read and are not in the copy"
                + (report.tablesLost.isEmpty ? "." : "; \(report.tablesLost.count) table(s) could not be read at all."))
        } else {
            say("Every record the file still lists could be read.")
        }
        if !report.damagedCells.isEmpty {
            say("\(report.damagedCells.count) cell(s) were damaged in the file; their records are in the copy with "
                + "these cells left empty (table, record, field):")
            for cell in report.damagedCells {
                say("  \(cell.table)  \(cell.record)  \(cell.field ?? "every field of the record")")
            }
        }
        say("The damaged file was not changed. Check the copy with `drinkshop check --db \(into)`, then use it "
            + "with --db \(into) (or move it in place of the damaged file).")
        return 0
    }

    private func say(_ text: String) {
        Console.say(text)
    }
}

/// Runs blocking work (SQLite on a file) on a thread of its own, never on the cooperative pool.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
