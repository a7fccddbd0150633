import Airtable
import AirtableFormula
import DrinkShopCore
import EInvoice
import Foundation

/// Which number an invoice takes: from a book of 50 a counter holds, each book claimed once.
///
/// - On the embedded store every counter (each process on the one file, `drinkshop serve` among them) issues from
///   the store's shared book, `holder` ``InvoiceNumbering/sharedHolder``: the number is the book's last issued plus
///   one, found and recorded in the commit that records the invoice, so two processes never take one number and a
///   crash leaves the number and its invoice both or neither.
/// - Over the API (a real Airtable base, `drinkshop serve`) a counter claims a book of its own (the claim rule of
///   pickup numbers: a server that keeps the book's key unique refuses a second create; Airtable, which keeps
///   nothing unique, holds the claim of the strictly earliest-created record and the rest withdraw) and keeps the
///   book and its last number in its outbox's notes, so it issues from it with no request for the number and a
///   restart continues where it stopped.
/// Books are taken in the order their ranges were imported; a book is never taken twice, and its numbers not
/// issued are reported blank (E0402) after the period.
enum InvoiceNumbering {
    static let sharedHolder = "this store"

    /// The period's imported ranges, in import order.
    static func rangesQuery(_ period: InvoicePeriod) -> ListQuery {
        ListQuery(filterByFormula: (FormulaExpression.field(InvoiceTrackField.period) == .text(period.code)).description,
                  sort: [SortKey(field: InvoiceTrackField.importedAt.rawValue, direction: .ascending),
                         SortKey(field: InvoiceTrackField.key.rawValue, direction: .ascending)])
    }

    static func booksQuery(_ period: InvoicePeriod) -> ListQuery {
        ListQuery(filterByFormula: (FormulaExpression.field(InvoiceBookField.period) == .text(period.code)).description)
    }

    static func lastIssuedQuery(book key: String) -> ListQuery {
        ListQuery(filterByFormula: (FormulaExpression.field(EInvoiceField.book) == .text(key)).description,
                  sort: [SortKey(field: EInvoiceField.number.rawValue, direction: .descending)],
                  fields: [EInvoiceField.number.rawValue], pageSize: 1, maxRecords: 1)
    }

    static func ranges(from records: [Record]) -> [TrackRange] {
        records.compactMap { record in
            guard let period = try? InvoicePeriod(parsing: record.fields[InvoiceTrackField.period]?.stringValue ?? ""),
                  let track = try? InvoiceTrack(record.fields[InvoiceTrackField.track]?.stringValue ?? ""),
                  let first = record.fields[InvoiceTrackField.first]?.intValue,
                  let last = record.fields[InvoiceTrackField.last]?.intValue else { return nil }
            return try? TrackRange(period: period, track: track, firstSerial: first, lastSerial: last)
        }
    }

    static func book(of record: Record) -> InvoiceBook? {
        guard let period = try? InvoicePeriod(parsing: record.fields[InvoiceBookField.period]?.stringValue ?? ""),
              let track = try? InvoiceTrack(record.fields[InvoiceBookField.track]?.stringValue ?? ""),
              let first = record.fields[InvoiceBookField.first]?.intValue else { return nil }
        return try? InvoiceBook(period: period, track: track, firstSerial: first)
    }

    /// The first book of `ranges` (in import order) whose key is not in `claimed`.
    static func firstFree(in ranges: [TrackRange], claimed: Set<String>) -> InvoiceBook? {
        for range in ranges {
            for book in range.books where !claimed.contains(book.key) { return book }
        }
        return nil
    }

    static func bookCells(_ book: InvoiceBook, holder: String, at date: Date) -> Fields {
        Fields([InvoiceBookField.key: .string(book.key), .period: .string(book.period.code),
                .track: .string(book.track.letters), .first: .int(book.firstSerial), .holder: .string(holder),
                .claimedAt: .string(AirtableTimestamp.format(date))])
    }

    /// Inside a commit of the embedded store: the next number of the shared book (`hint` first, a book this
    /// process issued from last), claiming the next free book when the held ones are used up; nil when none is left.
    static func nextInCommit(_ transaction: any RecordTransaction, period: InvoicePeriod, hint: String?, at date: Date)
        throws(AirtableError) -> (number: InvoiceNumber, book: InvoiceBook)?
    {
        let bookRecords = try transaction.listRecords(in: ShopSchema.invoiceBookTable, query: booksQuery(period)).records
        let held = bookRecords.filter { $0.fields[InvoiceBookField.holder]?.stringValue == sharedHolder }
            .compactMap(book(of:)).sorted { (lhs, rhs) in
                let key = hint ?? ""
                if (lhs.key == key) != (rhs.key == key) { return lhs.key == key }
                return lhs < rhs
            }
        for book in held {
            let last = try transaction.listRecords(in: ShopSchema.einvoiceTable, query: lastIssuedQuery(book: book.key))
                .records.first.flatMap { try? InvoiceNumber(parsing: $0.fields[EInvoiceField.number]?.stringValue ?? "") }
            if let next = book.number(after: last) { return (next, book) }
        }
        let ranges = ranges(from: try transaction.listRecords(in: ShopSchema.invoiceTrackTable, query: rangesQuery(period)).records)
        let claimed = Set(bookRecords.compactMap { $0.fields[InvoiceBookField.key]?.stringValue })
        guard let book = firstFree(in: ranges, claimed: claimed), let first = book.number(after: nil) else { return nil }
        _ = try transaction.createRecords(in: ShopSchema.invoiceBookTable, [bookCells(book, holder: sharedHolder, at: date)],
                                          options: WriteOptions(typecast: true))
        return (first, book)
    }
}
