import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The letter a counter puts before the P numbers of the orders it keeps while the store is away (`A-P1`,
/// `B-P1`), so two counters never hand out the same kept number. Each counter (each outbox) claims one the
/// first time it reaches the store, and keeps it in its outbox's notes for good.
///
/// A letter is claimed in the shop's `CounterLetter` table by the rule pickup numbers use, which never trusts
/// a real Airtable base's upserts: a plain create of the next number's record, then a read of that number's
/// records; the claim holds only when its record is the strictly earliest-created one (`PickupNumbers.outcome`).
/// One that gives way withdraws its record and tries a later number. Number 1 is `A`, 2 is `B`…; `I`, `O` and
/// `P` are left out (they read as 1, 0 and the P of the number), then two letters (`AA`).
///
/// A counter that has no letter yet when it keeps an order (it has not reached the store since it was
/// installed or upgraded, or the base lacks the table until `drinkshop setup`) uses a code of its own instead,
/// made once at random and kept the same way: a letter, a digit and a letter (`K7Q-P1`). The digit keeps it
/// apart from every claimed letter; two such codes are the same only once in 23 × 10 × 23 = 5,290 counters.
struct CounterLetters: Sendable {
    let store: any RecordStore
    static let table = ShopSchema.counterLetterTable
    /// Tries before giving up for now (the counter keeps using its own code and claims again next time).
    static let maximumAttempts = 20
    static let alphabet = Array("ABCDEFGHJKLMNQRSTUVWXYZ")

    /// Claims the next free letter for the counter whose outbox is at `counter`.
    /// - Returns: the letter, or nil when every try gave way (a crowd of counters claiming at once).
    func claim(for counter: String) async throws(ShopError) -> String? {
        var candidate = try await highest() + 1
        for attempt in 0..<Self.maximumAttempts {
            let fields = Fields([CounterLetterField.letter: .string(Self.letter(candidate)), .number: .int(candidate),
                                 .counter: .string(counter)])
            let created: [Record]
            do { created = try await store.createRecords(in: Self.table, [fields], options: WriteOptions()) } catch {
                throw .store(error)
            }
            guard let mine = created.first else { throw .store(.decoding("creating a counter letter answered no record")) }
            let rivals = try await claims(of: candidate)
            if PickupNumbers.outcome(of: mine, number: candidate, among: rivals) == .held { return Self.letter(candidate) }
            // Given way (an older claim, or one of the same instant): withdrawn, so it blocks no one; one that cannot
            // be withdrawn only leaves a letter unused. The next try skips a random few, so two counters that tied
            // do not tie again.
            _ = try? await store.deleteRecords(in: Self.table, ids: [mine.id])
            candidate += 1 + Int.random(in: 0...min(attempt, 3))
            try? await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * min(attempt + 1, 10)))))
        }
        return nil
    }

    /// `A` for 1, `B` for 2… (`alphabet`), then `AA`, `AB`…: bijective base 23.
    static func letter(_ number: Int) -> String {
        var rest = max(number, 1)
        var letters: [Character] = []
        while rest > 0 {
            rest -= 1
            letters.insert(alphabet[rest % alphabet.count], at: 0)
            rest /= alphabet.count
        }
        return String(letters)
    }

    /// A counter's own code while it has no letter: a letter, a digit, a letter (`K7Q`).
    static func fallback(using random: inout some RandomNumberGenerator) -> String {
        let digit = Character(String(Int.random(in: 0...9, using: &random)))
        return String([alphabet.randomElement(using: &random) ?? "X", digit, alphabet.randomElement(using: &random) ?? "X"])
    }

    /// `text` when it is a counter's letter or code as staff type it (one to three of A-Z and 0-9, a letter
    /// first: `OrderNumber(parsing:)` reads it back), else nil: a cell or note written by hand is not trusted.
    static func code(_ text: String?) -> String? {
        guard let text, (1...OrderNumber.longestCounter).contains(text.unicodeScalars.count),
              let first = text.unicodeScalars.first, ("A"..."Z").contains(first),
              text.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) else { return nil }
        return text
    }

    /// The highest number claimed so far, or 0.
    private func highest() async throws(ShopError) -> Int {
        do {
            let page = try await store.listRecords(in: Self.table, query: ListQuery(
                sort: [SortKey(field: CounterLetterField.number.rawValue, direction: .descending)],
                fields: [CounterLetterField.number.rawValue], pageSize: 1, maxRecords: 1))
            return page.records.first?.fields[CounterLetterField.number]?.intValue ?? 0
        } catch {
            throw .store(error)
        }
    }

    /// Every claim of `number`.
    private func claims(of number: Int) async throws(ShopError) -> [Record] {
        do {
            return try await store.allRecords(in: Self.table, query: ListQuery(
                filterByFormula: (FormulaExpression.field(CounterLetterField.number) == .int(number)).description,
                fields: [CounterLetterField.number.rawValue]))
        } catch {
            throw .store(error)
        }
    }
}
