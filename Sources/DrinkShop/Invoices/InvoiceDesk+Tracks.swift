import Airtable
import AirtableFormula
import DrinkShopCore
import EInvoice
import Foundation

/// The period's tracks (字軌): ranges imported as the platform hands them out (typed, or its E0501 配號 file), and
/// what `einvoice tracks` shows of them.
extension InvoiceDesk {
    /// Imports a period's range as the platform handed it out: this period's or the next (a shop takes the next
    /// period's numbers before it starts), overlapping no range imported before; audited.
    func importRange(_ range: TrackRange, by staff: String) async throws(TillError) {
        _ = try await importRanges([range], from: nil, by: staff)
    }

    /// Imports the ranges of the platform's E0501 配號 file (`file` names it in the audit trail): all of them or none.
    /// A range imported before, exactly as the file has it, is left as it is (importing one file twice changes
    /// nothing); one that overlaps a range imported before refuses the file. The numbers must be the shop's own: the
    /// seller must be set, and every range's `Ban` must be its 統一編號. - Returns: the ranges imported now, and those
    /// that were in already.
    func importAllocations(_ allocations: [TrackAllocation], file: String, by staff: String) async throws(TillError)
        -> (imported: [TrackRange], alreadyIn: [TrackRange])
    {
        guard let seller = try await setup()?.seller else { throw .einvoice(.notSetUp) }
        for allocation in allocations where allocation.businessNumber != seller.businessNumber {
            throw .einvoice(.anotherSellersNumbers(range: allocation.range.description, file: allocation.businessNumber,
                                                   shop: seller.businessNumber))
        }
        return try await importRanges(allocations.map(\.range), from: file, by: staff)
    }

    /// Imports `ranges` (each the current period's or the next, overlapping none imported before) in one audited
    /// change; an exact range from a file (`file` non-nil) already in is skipped, typed again it is refused.
    private func importRanges(_ ranges: [TrackRange], from file: String?, by staff: String) async throws(TillError)
        -> (imported: [TrackRange], alreadyIn: [TrackRange])
    {
        let today = moment(of: clock.now()).day
        let current: InvoicePeriod
        do { current = try InvoicePeriod(containing: today) } catch { throw .einvoice(.einvoice(error)) }
        var existing: [InvoicePeriod: [TrackRange]] = [:]
        var imported: [TrackRange] = [], alreadyIn: [TrackRange] = []
        for range in ranges {
            guard range.period == current || range.period == current.next else {
                throw .einvoice(.periodNotOpen(period: range.period.code, today: moment(of: clock.now()).printed.prefix(10).description))
            }
            if existing[range.period] == nil {
                do {
                    existing[range.period] = InvoiceNumbering.ranges(from: try await store.allRecords(
                        in: ShopSchema.invoiceTrackTable, query: InvoiceNumbering.rangesQuery(range.period)))
                } catch {
                    throw .shop(.store(error))
                }
            }
            if existing[range.period, default: []].contains(range) {
                guard file != nil else { throw .einvoice(.alreadyImported(range.description)) }
                alreadyIn.append(range)
                continue
            }
            for other in existing[range.period, default: []] + imported where other.track == range.track && other.period == range.period {
                if other.firstSerial <= range.lastSerial && range.firstSerial <= other.lastSerial {
                    throw .einvoice(.overlaps(new: range.description, existing: other.description))
                }
            }
            imported.append(range)
        }
        guard !imported.isEmpty else { return ([], alreadyIn) }
        let now = clock.now()
        // One write of up to ten ranges (a request Airtable takes whole or not at all): a file of any usual size is
        // imported all or none over the API too.
        let cells = imported.map { range in
            Fields([
                InvoiceTrackField.key: .string(range.period.code + range.track.letters + String(format: "%08d-%08d", range.firstSerial, range.lastSerial)),
                .period: .string(range.period.code), .track: .string(range.track.letters), .first: .int(range.firstSerial),
                .last: .int(range.lastSerial), .importedBy: .string(staff), .importedAt: .string(AirtableTimestamp.format(now)),
            ])
        }
        let creates = stride(from: 0, to: cells.count, by: 10).map { start in
            RecordWrite.upsert(table: ShopSchema.invoiceTrackTable, Array(cells[start..<min(start + 10, cells.count)]),
                               mergeOn: [InvoiceTrackField.key.rawValue])
        }
        let entries = imported.map { range in
            AuditEntry(at: now, by: staff, action: .invoiceSetup, subject: "track \(range.track.letters)",
                       detail: "imported \(range)" + (file.map { " from E0501 file \($0)" } ?? ""))
        }
        let change = AuditedChange(creates, to: store,
                                   undo: { written in written.map { .delete(table: ShopSchema.invoiceTrackTable, ids: [$0.id]) } })
        do { _ = try await commits.write(change, trail: audit, entries: { _ in entries }) } catch { throw .shop(error) }
        return (imported, alreadyIn)
    }

    /// What `einvoice tracks` shows: each imported range with its books, who holds each and how many numbers
    /// each has issued.
    public struct TrackView: Sendable {
        public struct Book: Sendable {
            public let book: InvoiceBook
            /// Who took it (nil: nobody yet).
            public let holder: String?
            /// Numbers issued from it.
            public let issued: Int
            /// Blank numbers reported for it after the period.
            public let blanks: String?
        }
        public let range: TrackRange
        public let books: [Book]
        /// Numbers not issued yet: those left in held books and every number of the books nobody holds.
        public var left: Int { books.reduce(0) { $0 + (InvoiceBook.size - $1.issued) } }
    }

    /// The ranges of `period` (nil: the current one) with their books.
    public func tracks(period asked: InvoicePeriod? = nil) async throws(TillError) -> (period: InvoicePeriod, ranges: [TrackView]) {
        let period: InvoicePeriod
        if let asked { period = asked } else { period = try currentPeriod() }
        return try await tracks(period: period, issued: try await invoices(period: period))
    }

    /// The ranges of `period` with their books, counted from `issued` (every invoice of the period).
    func tracks(period: InvoicePeriod, issued: [IssuedInvoice]) async throws(TillError) -> (period: InvoicePeriod, ranges: [TrackView]) {
        let (ranges, books) = try await rangesAndBooks(of: period)
        let countByBook = Dictionary(grouping: issued, by: { $0.book.key }).mapValues(\.count)
        let bookByKey = Dictionary(books.compactMap { record in record.fields[InvoiceBookField.key]?.stringValue.map { ($0, record) } }) { a, _ in a }
        let views = InvoiceNumbering.ranges(from: ranges).map { range in
            TrackView(range: range, books: range.books.map { book in
                let key = book.key
                let record = bookByKey[key]
                return TrackView.Book(book: book, holder: record?.fields[InvoiceBookField.holder]?.stringValue,
                                      issued: countByBook[key] ?? 0, blanks: record?.fields[InvoiceBookField.blanks]?.stringValue)
            })
        }
        return (period, views)
    }

    /// The imported ranges of `period` and the books claimed from them.
    func rangesAndBooks(of period: InvoicePeriod) async throws(TillError) -> (ranges: [Record], books: [Record]) {
        do {
            return (try await store.allRecords(in: ShopSchema.invoiceTrackTable, query: InvoiceNumbering.rangesQuery(period)),
                    try await store.allRecords(in: ShopSchema.invoiceBookTable, query: InvoiceNumbering.booksQuery(period)))
        } catch {
            throw .shop(.store(error))
        }
    }
}
