import Airtable
import AirtableFormula
import DrinkShopCore
import EInvoice
import Foundation

/// Issuing over the API (a real Airtable base, `drinkshop serve`): the counter's own book.
extension InvoiceDesk {
    /// `issueInvoice` over the API: the order's live invoice if it has one (one read), else the next number of this
    /// counter's book (kept in its notes before it is used), then the record, written by an upsert on its number so a
    /// retried write never makes two.
    func issueOverTheAPI(_ draft: InvoiceDraft) async throws(TillError) -> Issued {
        let live: [Record]
        do {
            live = try await store.allRecords(in: ShopSchema.einvoiceTable, query: Self.liveQuery(orderRef: draft.stored.orderRef))
        } catch {
            throw .shop(.store(error))
        }
        if let record = live.first {
            do { return .existing(try IssuedInvoice(record: record)) } catch { throw .einvoice(error) }
        }
        let holder = await holderName()
        let (number, book) = try await takeOwnNumber(period: draft.period, holder: holder)
        var invoice = draft.invoice(number: number, book: book, holder: holder)
        invoice.id = try await record(invoice)
        if book.number(after: number) == nil { await claimNextBook(period: draft.period, holder: holder, replacing: book.key) }
        return .issued(invoice)
    }

    /// Claims this counter's next book as soon as its book is used up, while the store answers, so an outage that
    /// follows finds numbers in hand (`issuingWhileAway`) rather than an empty book. The claim the next payment would
    /// make, made one payment earlier; best effort: a failure (or no book left) leaves it to the next payment.
    private func claimNextBook(period: InvoicePeriod, holder: String, replacing used: String) async {
        guard let notes, let next = try? await claimBook(period: period, holder: holder) else { return }
        try? await notes.replaceInvoiceBook(next.key, replacing: used)
    }

    /// Writes a new invoice's record; returns its id. On a server that keeps the number unique, a create (one that
    /// finds its number taken is this counter's own earlier write whose answer was lost, when the record is for the
    /// same order); elsewhere an upsert on the number, so a retried write never makes two.
    func record(_ invoice: IssuedInvoice) async throws(TillError) -> String {
        let table = ShopSchema.einvoiceTable
        let options = WriteOptions(typecast: true)
        do throws(AirtableError) {
            guard store.keepsUnique(EInvoiceField.number.rawValue, in: table) else {
                return try await store.upsertRecords(in: table, [UpsertRecord(fields: invoice.cells)],
                                                     mergeOn: [EInvoiceField.number.rawValue], replace: false, options: options)
                    .records.first?.id ?? ""
            }
            do throws(AirtableError) {
                return try await store.createRecords(in: table, [invoice.cells], options: options).first?.id ?? ""
            } catch where error.isDuplicateKey {
                let found = try await store.allRecords(in: table, query: ListQuery(
                    filterByFormula: (FormulaExpression.field(EInvoiceField.number) == .text(invoice.number.text)).description))
                guard let mine = found.first(where: { $0.fields[EInvoiceField.orderRef]?.stringValue == invoice.orderRef }) else {
                    throw error
                }
                return mine.id
            }
        } catch {
            throw .shop(.store(error))
        }
    }

    /// The name this counter's books are held under: its letter (or its own code) over the API.
    func holderName() async -> String {
        guard let notes else { return InvoiceNumbering.sharedHolder }
        return "counter " + (await notes.counterCode())
    }

    /// Whether this counter can number an invoice of `period` now: its book has a number left (no request), or a
    /// book of the period is free to claim (two reads).
    func numbersLeftOverTheAPI(period: InvoicePeriod) async throws(TillError) -> Bool {
        if let own = await notes?.invoiceBook(), Self.number(after: own.last, inBook: own.book, of: period) != nil { return true }
        return try await freeBook(period: period) != nil
    }

    /// Whether a number of `period` can be issued on the embedded store: a shared book with numbers left, or a free
    /// book.
    func numbersLeftOnTheStore(period: InvoicePeriod) async throws(TillError) -> Bool {
        let books: [Record]
        do { books = try await store.allRecords(in: ShopSchema.invoiceBookTable, query: InvoiceNumbering.booksQuery(period)) } catch {
            throw .shop(.store(error))
        }
        for record in books where record.fields[InvoiceBookField.holder]?.stringValue == InvoiceNumbering.sharedHolder {
            guard let book = InvoiceNumbering.book(of: record) else { continue }
            let last: [Record]
            do {
                last = try await store.listRecords(in: ShopSchema.einvoiceTable,
                                                   query: InvoiceNumbering.lastIssuedQuery(book: book.key)).records
            } catch {
                throw .shop(.store(error))
            }
            let number = last.first.flatMap { try? InvoiceNumber(parsing: $0.fields[EInvoiceField.number]?.stringValue ?? "") }
            if book.number(after: number) != nil { return true }
        }
        return try await freeBook(period: period) != nil
    }

    /// The first book of `period` nobody has claimed, in import order.
    private func freeBook(period: InvoicePeriod) async throws(TillError) -> InvoiceBook? {
        let (ranges, books) = try await rangesAndBooks(of: period)
        let claimed = Set(books.compactMap { $0.fields[InvoiceBookField.key]?.stringValue })
        return InvoiceNumbering.firstFree(in: InvoiceNumbering.ranges(from: ranges), claimed: claimed)
    }

    /// The next number of this counter's book of `period`, claiming a new book when it has none or it is used up;
    /// the number is kept in the counter's note (in the commit that reads it) before it is returned.
    func takeOwnNumber(period: InvoicePeriod, holder: String) async throws(TillError) -> (InvoiceNumber, InvoiceBook) {
        guard let notes else { throw .einvoice(.noNumbers(period: period.code, printed: period.printed)) }
        for _ in 0..<3 {
            let taken: (book: String, number: String)?
            do {
                taken = try await notes.takeInvoiceNumber { key, last in Self.number(after: last, inBook: key, of: period)?.number.text }
            } catch {
                throw .shop(error)
            }
            if let taken, let book = InvoiceBook(key: taken.book), let number = try? InvoiceNumber(parsing: taken.number) {
                return (number, book)
            }
            let replacing = await notes.invoiceBook()?.book
            let book = try await claimBook(period: period, holder: holder)
            do { try await notes.replaceInvoiceBook(book.key, replacing: replacing) } catch { throw .shop(error) }
        }
        throw .einvoice(.noNumbers(period: period.code, printed: period.printed))
    }

    /// The number after `last` (nil: the first) in the book keyed `key`, as this counter's note holds them; nil when the
    /// book is used up or not of `period`.
    static func number(after last: String?, inBook key: String, of period: InvoicePeriod) -> (number: InvoiceNumber, book: InvoiceBook)? {
        guard let book = InvoiceBook(key: key), book.period == period,
              let number = book.number(after: last.flatMap { try? InvoiceNumber(parsing: $0) }) else { return nil }
        return (number, book)
    }

    /// Claims the first free book of `period` for this counter: a create, then (where the server does not keep the
    /// key unique) a read of every claim of that book; the claim holds when it is the strictly earliest-created.
    /// Claims created in the same instant all give way, but a tie does not make the book taken: after a random pause
    /// the claimant lists again and tries the first free book, the same one unless a claim still stands on it. So two
    /// counters starting together do not use up the period's books between them (where creation times are coarse,
    /// every claim of one instant ties).
    private func claimBook(period: InvoicePeriod, holder: String) async throws(TillError) -> InvoiceBook {
        var refused: Set<String> = []
        for attempt in 0..<20 {
            let ranges: [Record], books: [Record]
            do {
                ranges = try await store.allRecords(in: ShopSchema.invoiceTrackTable, query: InvoiceNumbering.rangesQuery(period))
                books = try await store.allRecords(in: ShopSchema.invoiceBookTable, query: InvoiceNumbering.booksQuery(period))
            } catch {
                throw .shop(.store(error))
            }
            let claimed = Set(books.compactMap { $0.fields[InvoiceBookField.key]?.stringValue }).union(refused)
            guard let book = InvoiceNumbering.firstFree(in: InvoiceNumbering.ranges(from: ranges), claimed: claimed) else {
                throw .einvoice(.noNumbers(period: period.code, printed: period.printed))
            }
            switch try await claim(InvoiceNumbering.bookCells(book, holder: holder, at: clock.now()), of: book.key,
                                   field: InvoiceBookField.key.rawValue, in: ShopSchema.invoiceBookTable) {
            case .held: return book
            // Lost to an earlier claim: the book is taken. Tied (claims of the same instant): tried again while the
            // listing shows it free, since a claim still standing by then is listed and the book skipped.
            case .taken: refused.insert(book.key); continue
            case .tied: break
            }
            try? await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * min(attempt + 1, 10)))))
        }
        throw .einvoice(.noNumbers(period: period.code, printed: period.printed))
    }

    /// What a claim of a key came to (`claim(_:of:field:in:)`).
    enum KeyedClaim: Sendable { case held, taken, tied }

    /// Claims `key` by creating `cells` (which hold it in `keyField`) in `table`: held when a server that keeps the key
    /// unique took the record, or when it is the strictly earliest-created record of that key as read back; taken when
    /// the server refused it or an earlier record holds the key (or the read-back lacks it); tied when another record
    /// of the key was created in the same instant. A claim that does not hold is withdrawn, so it stands in no one's way
    /// (one that cannot be withdrawn is later than the claim that holds, or ties with one withdrawn too). The rule of
    /// pickup numbers (`PickupNumbers.outcome`), for invoice books and proofs' original prints.
    func claim(_ cells: Fields, of key: String, field keyField: String, in table: String) async throws(TillError) -> KeyedClaim {
        let created: [Record]
        do throws(AirtableError) {
            created = try await store.createRecords(in: table, [cells], options: WriteOptions(typecast: true))
        } catch where error.isDuplicateKey {
            return .taken
        } catch {
            throw .shop(.store(error))
        }
        guard let mine = created.first else { throw .shop(.store(.decoding("creating a claim in \(table) answered no record"))) }
        if store.keepsUnique(keyField, in: table) { return .held }
        let claims: [Record]
        do {
            claims = try await store.allRecords(in: table, query: ListQuery(
                filterByFormula: (FormulaExpression.field(keyField) == .text(key)).description))
        } catch {
            throw .shop(.store(error))
        }
        let others = claims.filter { $0.id != mine.id }
        let listed = claims.contains { $0.id == mine.id }
        if listed, !others.contains(where: { $0.createdTime <= mine.createdTime }) { return .held }
        _ = try? await store.deleteRecords(in: table, ids: [mine.id])
        return !listed || others.contains(where: { $0.createdTime < mine.createdTime }) ? .taken : .tied
    }
}
