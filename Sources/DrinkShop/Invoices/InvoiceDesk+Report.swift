import Airtable
import CivilDate
import DrinkShopCore
import EInvoice
import Foundation

/// What `report` shows of the 統一發票 and the numbers a counter has left: the days' and the period's invoices as
/// they stand now, and the one rule that says fewer numbers are left than a day's sales.
extension InvoiceDesk {
    /// How many numbers the period has left against a day's sales (the invoices of today's orders).
    public struct NumbersLeft: Sendable, Equatable {
        public let period: InvoicePeriod
        /// Numbers this counter can still issue: every number of the books nobody took and what is left of the
        /// books this counter issues from (on the embedded store every counter's: the store's shared books).
        public let left: Int
        /// Invoices issued for today's orders: a day's sales.
        public let issuedToday: Int

        public init(period: InvoicePeriod, left: Int, issuedToday: Int) {
            self.period = period
            self.left = left
            self.issuedToday = issuedToday
        }

        /// Fewer numbers are left than a day's sales (at least one a day): time to import the next range.
        public var isLow: Bool { left < max(issuedToday, 1) }
    }

    /// A day's sales: the invoices of today's orders (what `einvoice tracks` and the low-numbers warning count).
    func issuedToday() async throws(TillError) -> Int {
        try await invoices(days: [clock.today]).count
    }

    /// The numbers left for the current period against a day's sales; nil when no seller is set (no request then
    /// beyond the settings this counter already holds). On the embedded store: the period's ranges and books, and
    /// the last number of each shared book; over the API: the ranges and books (the other counters' books count as
    /// used) and this counter's own book from its notes. Then today's invoices.
    func numbersLeft() async throws(TillError) -> NumbersLeft? {
        guard try await setup() != nil else { return nil }
        let period = try currentPeriod()
        let rangeRecords: [Record], bookRecords: [Record]
        do {
            rangeRecords = try await store.allRecords(in: ShopSchema.invoiceTrackTable, query: InvoiceNumbering.rangesQuery(period))
            bookRecords = try await store.allRecords(in: ShopSchema.invoiceBookTable, query: InvoiceNumbering.booksQuery(period))
        } catch {
            throw .shop(.store(error))
        }
        let holderByKey = Dictionary(bookRecords.compactMap { record in
            record.fields[InvoiceBookField.key]?.stringValue.map { ($0, record.fields[InvoiceBookField.holder]?.stringValue ?? "") }
        }) { first, _ in first }
        let own = await notes?.invoiceBook()
        var left = 0
        for book in InvoiceNumbering.ranges(from: rangeRecords).flatMap(\.books) {
            guard let holder = holderByKey[book.key] else {
                left += InvoiceBook.size
                continue
            }
            let last: InvoiceNumber?
            if holder == InvoiceNumbering.sharedHolder {
                do {
                    last = try await store.listRecords(in: ShopSchema.einvoiceTable, query: InvoiceNumbering.lastIssuedQuery(book: book.key))
                        .records.first.flatMap { try? InvoiceNumber(parsing: $0.fields[EInvoiceField.number]?.stringValue ?? "") }
                } catch {
                    throw .shop(.store(error))
                }
            } else if let own, own.book == book.key {
                last = own.last.flatMap { try? InvoiceNumber(parsing: $0) }
            } else {
                continue  // another counter's book, or one reported blank
            }
            left += last.map { book.lastSerial - $0.serial } ?? InvoiceBook.size
        }
        return NumbersLeft(period: period, left: left, issuedToday: try await issuedToday())
    }

    /// Invoices counted and their NT$ (the total of each, tax included).
    public struct Tally: Sendable, Equatable {
        public var count = 0
        public var amount = 0

        mutating func add(_ invoice: IssuedInvoice) {
            count += 1
            amount += invoice.amounts.totalAmount
        }
    }

    /// Invoices as they stand now: every one issued, those since voided (作廢) and those with an allowance (折讓)
    /// of their whole; what is left is net (issued − voided − allowances).
    public struct InvoiceTally: Sendable, Equatable {
        public var issued = Tally()
        public var voided = Tally()
        public var allowances = Tally()
        public var net: Tally {
            Tally(count: issued.count - voided.count - allowances.count, amount: issued.amount - voided.amount - allowances.amount)
        }

        init(_ invoices: [IssuedInvoice]) {
            for invoice in invoices {
                issued.add(invoice)
                switch invoice.state {
                case .issued: break
                case .voided: voided.add(invoice)
                case .allowance: allowances.add(invoice)
                }
            }
        }
    }

    /// What `report` shows of the invoices.
    public struct ReportSection: Sendable, Equatable {
        /// The invoices of the days' orders.
        public let days: InvoiceTally
        /// The period holding the last day reported, and its invoices.
        public let period: InvoicePeriod
        public let inPeriod: InvoiceTally
        /// Numbers of the period's imported ranges not issued: every number of the books nobody took and what is
        /// left of the books taken.
        public let left: Int
        /// Blank numbers reported (E0402 written) for the period's books.
        public let blanksReported: Int
        /// Numbers still to report blank: once the period is over, those left in books not yet reported.
        public let blanksToReport: Int
        /// Whether the period is over (its blank numbers are due).
        public let periodOver: Bool
    }

    /// The invoices of `days` and of the period holding the last of them; nil when no seller is set (then no
    /// request beyond the settings this counter already holds).
    func reportSection(days: [BusinessDay]) async throws(TillError) -> ReportSection? {
        guard try await setup() != nil, let last = days.max() else { return nil }
        let period: InvoicePeriod
        do { period = try InvoicePeriod(containing: YearMonthDay(daysSince1970: last.daysSince1970)) } catch {
            throw .einvoice(.einvoice(error))
        }
        let ofDays = try await invoices(days: days)
        let ofPeriod = try await invoices(period: period)
        let (_, ranges) = try await tracks(period: period, issued: ofPeriod)
        var reported = 0, toReport = 0
        let over = moment(of: clock.now()).day > period.lastDay
        for book in ranges.flatMap(\.books) {
            if let blanks = book.blanks {
                reported += Self.blankCount(blanks)
            } else if over {
                toReport += InvoiceBook.size - book.issued
            }
        }
        return ReportSection(days: InvoiceTally(ofDays), period: period, inPeriod: InvoiceTally(ofPeriod),
                             left: ranges.reduce(0) { $0 + $1.left }, blanksReported: reported, blanksToReport: toReport,
                             periodOver: over)
    }

    /// How many numbers a book's recorded blank runs hold (`none`, or `00000012-00000049,…`).
    static func blankCount(_ text: String) -> Int {
        text.split(separator: ",").reduce(0) { total, run in
            let ends = run.split(separator: "-").compactMap { Int($0) }
            guard ends.count == 2, ends[0] <= ends[1] else { return total }
            return total + ends[1] - ends[0] + 1
        }
    }
}
