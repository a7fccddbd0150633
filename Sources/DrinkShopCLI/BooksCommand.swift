import DrinkShop

/// `drinkshop check --books [DATE | --date DATE | --from DATE [--to DATE]]`: the books check (對帳) of the
/// business days given (today by default) on the store the other one-shot commands use. Prints each difference
/// and what to do, or the line saying the books balance; exits 0 when they balance, 1 when they do not, 2 when
/// the check could not be made. The checking is the shop's (`Shop.books`); this reads the words and prints.
struct BooksCommand: Equatable {
    var from = "today"
    var to = "today"

    /// Whether the words after `check` ask for the books check rather than the store file's.
    static func isRequested(_ words: [String]) -> Bool {
        words.contains { $0.lowercased() == "--books" }
    }

    /// Reads the words after `check`.
    static func parse(_ words: [String]) throws(UsageError) -> BooksCommand {
        let usage = "drinkshop check --books [DATE | --from DATE --to DATE]"
        var options: [String: String] = [:]
        var dates: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            let lowered = word.lowercased()
            index += 1
            if lowered == "--books" { continue }
            guard let option = ["--date", "--from", "--to"].first(where: { lowered == $0 || lowered.hasPrefix($0 + "=") }) else {
                guard !word.hasPrefix("-") else { throw UsageError("check --books does not take \(word.prefix(40)): \(usage)") }
                dates.append(word)
                continue
            }
            let value: String
            if lowered.count > option.count {
                value = String(word.dropFirst(option.count + 1))
            } else {
                guard index < words.count, !words[index].hasPrefix("--") else {
                    throw UsageError("\(option) needs a date, e.g. \(option) 2026-11-30: \(usage)")
                }
                value = words[index]
                index += 1
            }
            guard options[option] == nil else { throw UsageError("\(option) is given twice; give it once: \(usage)") }
            options[option] = value
        }
        guard dates.count <= 1 else { throw UsageError("one date, or --from DATE --to DATE for several days: \(usage)") }
        let given = dates.first ?? options["--date"]
        if let given {
            guard dates.count + (options["--date"] == nil ? 0 : 1) == 1, options["--from"] == nil, options["--to"] == nil else {
                throw UsageError("give either one date or --from DATE --to DATE, not both: \(usage)")
            }
            return BooksCommand(from: given, to: given)
        }
        if let from = options["--from"] { return BooksCommand(from: from, to: options["--to"] ?? "today") }
        if options["--to"] != nil { throw UsageError("--to needs --from: --from 2026-11-01 --to 2026-11-30") }
        return BooksCommand()
    }

    /// Checks the books of the days on `shop` and prints what it found. Returns the exit status.
    func run(_ shop: Shop, say: (String) -> Void, complain: (String) -> Void) async -> Int32 {
        let check: BooksCheck
        do {
            check = try await shop.books.check(try shop.till.period(from: from, to: to))
        } catch {
            complain("drinkshop: the books could not be checked: \(error)")
            return 2
        }
        say(check.summary)
        for (index, difference) in check.differences.enumerated() { say("  \(index + 1). \(difference)") }
        return check.balances ? 0 : 1
    }
}
