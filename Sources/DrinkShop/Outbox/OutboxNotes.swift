import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// Small facts a one-shot `drinkshop` process leaves for the next one on this machine, kept beside the
/// menu copy in the outbox's `MenuSnapshot` table (a row per note, its `table` cell `#name`, its
/// `records` cell the JSON): when the menu copy was last confirmed against the store, and the next
/// pickup number worth trying today. A note that cannot be read or written is simply not used: it only
/// saves requests.
extension Outbox {
    /// When the kept menu and promotions were last read from the store (they are then trusted for the
    /// catalog's lifetime, as a running counter trusts its own copy).
    func menuConfirmedAt() async -> Date? {
        guard let seconds = await note("menuConfirmedAt")?.numberValue else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    func setMenuConfirmed(at date: Date) async {
        await setNote("menuConfirmedAt", .number(date.timeIntervalSince1970))
    }

    /// The next pickup number worth trying on `day`, if a process of this machine claimed one less than
    /// `within` seconds before `now` (a hint; the store decides).
    func pickupHint(day: BusinessDay, at now: Date, within: TimeInterval) async -> Int? {
        guard let note = await note("pickupHint")?.objectValue, note["day"]?.stringValue == day.description,
              let at = note["at"]?.numberValue, now.timeIntervalSince1970 >= at,
              now.timeIntervalSince1970 - at < within else { return nil }
        return note["next"]?.intValue
    }

    func setPickupHint(_ next: Int, day: BusinessDay, at now: Date) async {
        await setNote("pickupHint", .object(["day": .string(day.description), "next": .int(next),
                                             "at": .number(now.timeIntervalSince1970)]))
    }

    /// The shop's settings (the `Setting` table, by key) as a process of this machine read them less than
    /// `within` seconds before `now`.
    func keptSettings(at now: Date, within: TimeInterval) async -> [String: String]? {
        guard let note = await note("settings")?.objectValue, let at = note["at"]?.numberValue,
              now.timeIntervalSince1970 >= at, now.timeIntervalSince1970 - at < within,
              let values = note["values"]?.objectValue else { return nil }
        return values.compactMapValues(\.stringValue)
    }

    func keepSettings(_ settings: [String: String], at now: Date) async {
        await setNote("settings", .object(["at": .number(now.timeIntervalSince1970),
                                           "values": .object(settings.mapValues { .string($0) })]))
    }

    /// Whether any staff member has a PIN, as a process of this machine read it less than `within` seconds
    /// before `now`.
    func keptPinsEnabled(at now: Date, within: TimeInterval) async -> Bool? {
        guard let note = await note("pins")?.objectValue, let at = note["at"]?.numberValue,
              now.timeIntervalSince1970 >= at, now.timeIntervalSince1970 - at < within,
              case .bool(let enabled)? = note["enabled"] else { return nil }
        return enabled
    }

    func keepPinsEnabled(_ enabled: Bool, at now: Date) async {
        await setNote("pins", .object(["at": .number(now.timeIntervalSince1970), "enabled": .bool(enabled)]))
    }

    /// Whether the shift was open when this counter last saw the drawer while the store answered (nil: never seen):
    /// cash taken while the store is away goes into it.
    func keptShiftOpen() async -> Bool? {
        guard case .bool(let open)? = await note("shift")?.objectValue?["open"] else { return nil }
        return open
    }

    func keepShiftOpen(_ open: Bool, at now: Date) async {
        await setNote("shift", .object(["at": .number(now.timeIntervalSince1970), "open": .bool(open)]))
    }

    /// The letter this counter claimed for its kept orders (`CounterLetters`), once it has one.
    func counterLetter() async -> String? {
        // Once known it never changes: the REPL asks before every prompt.
        if let known = knownLetter.withLock({ $0 }) { return known }
        let letter = CounterLetters.code(await note("counterLetter")?.stringValue)
        knownLetter.withLock { $0 = letter }
        return letter
    }

    func setCounterLetter(_ letter: String) async {
        await setNote("counterLetter", .string(letter))
        knownLetter.withLock { $0 = letter }
    }

    /// What this counter puts before a kept order's P number: its letter, else a code of its own, made the first
    /// time it is needed and kept (`CounterLetters.fallback`).
    func counterCode() async -> String {
        if let letter = await counterLetter() { return letter }
        if let own = CounterLetters.code(await note("counterCode")?.stringValue) { return own }
        var random = SystemRandomNumberGenerator()
        let own = CounterLetters.fallback(using: &random)
        await setNote("counterCode", .string(own))
        return own
    }

    /// The book of invoice numbers this counter issues from over the API, and the last number it took (nil: none
    /// yet); see `InvoiceNumbering`.
    func invoiceBook() async -> (book: String, last: String?)? {
        guard let note = await note("invoiceBook")?.objectValue, let book = note["book"]?.stringValue else { return nil }
        return (book, note["last"]?.stringValue)
    }

    /// Takes the next number of the counter's invoice book (`next` gives it from the book and its last number, nil
    /// when the book is used up), written to the note in the same commit of this machine's outbox as it is read:
    /// two processes of this machine never take one number, and a number is kept before it is used.
    /// - Returns: the book and the number; nil when the note holds no book or `next` gave none.
    func takeInvoiceNumber(_ next: @escaping @Sendable (_ book: String, _ last: String?) -> String?) async throws(ShopError)
        -> (book: String, number: String)?
    {
        try await changeInvoiceNote { note in
            guard let book = note?["book"]?.stringValue, let number = next(book, note?["last"]?.stringValue) else { return (nil, nil) }
            return (["book": .string(book), "last": .string(number)], (book, number))
        }
    }

    /// Makes `book` (just claimed, nothing taken from it) the counter's invoice book, unless another process of this
    /// machine replaced `replacing` (the book it found used up) meanwhile: its book is then used, and this one is
    /// left (its numbers are reported blank after the period).
    func replaceInvoiceBook(_ book: String, replacing: String?) async throws(ShopError) {
        _ = try await changeInvoiceNote { note -> ([String: JSONValue]?, Bool?) in
            guard note?["book"]?.stringValue == replacing else { return (nil, nil) }
            return (["book": .string(book)], true)
        }
    }

    /// Reads the invoice note and writes what `change` makes of it (nil: nothing), as one step of the outbox's
    /// store (`CommitStrategy.readAndWrite`: one commit of its local base).
    private func changeInvoiceNote<T: Sendable>(
        _ change: @escaping @Sendable ([String: JSONValue]?) -> (note: [String: JSONValue]?, result: T?)
    ) async throws(ShopError) -> T? {
        let name = Self.invoiceNoteName
        let formula = (FormulaExpression.field(MenuSnapshotField.table) == .text(name)).description
        let table = Outbox.menuTable
        do throws(AirtableError) {
            var id = try await store.listRecords(in: table, query: ListQuery(filterByFormula: formula, pageSize: 1)).records.first?.id
            if id == nil {
                // The note's record, made once (an upsert: two processes making it at once make one).
                id = try await store.upsertRecords(in: table, [UpsertRecord(fields: Fields([MenuSnapshotField.table: .string(name)]))],
                                                   mergeOn: [MenuSnapshotField.table.rawValue], replace: false,
                                                   options: WriteOptions()).records.first?.id
            }
            guard let id else { throw AirtableError.decoding("the outbox's invoice note could not be made") }
            return try await commitStrategy(over: store).readAndWrite(in: table, id: id) { record in
                let text = record.fields[MenuSnapshotField.records]?.stringValue
                let (note, result) = change(text.flatMap { try? JSONParser.parse($0) }?.objectValue)
                return (note.map { Fields([MenuSnapshotField.records: .string(JSONWriter.string(.object($0)))]) }, result)
            }
        } catch {
            throw .store(error)
        }
    }

    /// The invoice note's row (`#invoiceBook`): its `records` cell holds the book and its last number taken.
    static let invoiceNoteName = "#invoiceBook"
    static let invoiceNoteQuery = ListQuery(
        filterByFormula: (FormulaExpression.field(MenuSnapshotField.table) == .text(invoiceNoteName)).description, pageSize: 1)

    /// The book and last number an invoice note's row holds; nil when it holds no book.
    static func invoiceNote(_ record: Record) -> (book: String, last: String?)? {
        guard let text = record.fields[MenuSnapshotField.records]?.stringValue,
              let note = (try? JSONParser.parse(text))?.objectValue, let book = note["book"]?.stringValue else { return nil }
        return (book, note["last"]?.stringValue)
    }

    static func invoiceNoteCells(book: String, last: String) -> Fields {
        Fields([MenuSnapshotField.records: .string(JSONWriter.string(.object(["book": .string(book), "last": .string(last)])))])
    }

    private func note(_ name: String) async -> JSONValue? {
        let formula = (FormulaExpression.field(MenuSnapshotField.table) == .text("#" + name)).description
        guard let found = try? await store.listRecords(in: Outbox.menuTable, query: ListQuery(filterByFormula: formula, pageSize: 1)),
              let text = found.records.first?.fields[MenuSnapshotField.records]?.stringValue else { return nil }
        return try? JSONParser.parse(text)
    }

    private func setNote(_ name: String, _ value: JSONValue) async {
        let fields = Fields([MenuSnapshotField.table: .string("#" + name), .records: .string(JSONWriter.string(value))])
        _ = try? await store.upsertRecords(in: Outbox.menuTable, [UpsertRecord(fields: fields)],
                                           mergeOn: [MenuSnapshotField.table.rawValue], replace: false, options: WriteOptions())
    }
}
