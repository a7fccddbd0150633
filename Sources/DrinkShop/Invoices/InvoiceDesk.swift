import Airtable
import AirtableFormula
import CivilDate
import DrinkShopCore
import EInvoice
import Foundation
import Synchronization

/// The till's 統一發票: the seller and the numbers, an invoice for every order paid in full, voids and
/// allowances, and the Ministry's files in Turnkey's folder. Issuing is chosen by the shop's `CommitStrategy`
/// (`issueInvoice`): one commit on the embedded store, the counter's own book over the API (`InvoiceNumbering`).
///
/// An invoice's record is written first (its file not yet written), then its file, then the record says the file
/// is there: a crash between leaves a record without its file, which the next `einvoice status` (or the
/// counter's start) writes, unless Turnkey's folder has it already (in `SRC`, `BAK` or `ERR`): a document is
/// never written twice. `check --books` names any that is still missing.
public final class InvoiceDesk: Sendable {
    let store: any RecordStore
    let commits: any CommitStrategy
    let clock: ShopClock
    let settings: ShopSettings
    let audit: AuditTrail
    let extras: OrderExtras
    let notes: Outbox?
    /// The book this process last issued from on the embedded store (tried first).
    let sharedHint = Mutex<String?>(nil)

    init(store: any RecordStore, commits: any CommitStrategy, clock: ShopClock, settings: ShopSettings, audit: AuditTrail,
         extras: OrderExtras, notes: Outbox?) {
        self.store = store
        self.commits = commits
        self.clock = clock
        self.settings = settings
        self.audit = audit
        self.extras = extras
        self.notes = notes
    }

    // MARK: - Setup

    /// The shop's e-invoice setup; nil when no seller is set (no invoice is issued).
    public func setup() async throws(TillError) -> InvoiceSetup? {
        let known: [String: String]
        if let reading = settings.reading.current.settings { known = reading } else {
            do { known = try await settings.stored() } catch { throw .shop(error) }
        }
        do { return try InvoiceSetup.read(known) } catch { throw .einvoice(error) }
    }

    /// Sets the seller (and Turnkey's folder), for every counter; audited, the QR key never written out.
    func setSeller(_ setup: InvoiceSetup, by staff: String) async throws(TillError) {
        do { try await settings.writeAudited(setup.settings, by: staff) } catch { throw .shop(error) }
    }

    // MARK: - Issuing

    /// What issuing for a paid order gave.
    public enum Issued: Sendable {
        /// A new invoice.
        case issued(IssuedInvoice)
        /// The order has a live invoice already (issued by another counter, or before a crash).
        case existing(IssuedInvoice)
        /// No invoice is due: no seller is set, or the order's total is NT$0.
        case none
    }

    /// Refuses, before any money is taken, a payment whose invoice could not be numbered: no seller set is no
    /// refusal (no invoice is due); no number left in the period is (`InvoiceDeskError.noNumbers`).
    func checkNumbersLeft() async throws(TillError) {
        guard try await setup() != nil else { return }
        let period = try currentPeriod()
        if try await commits.invoiceNumbersLeft(period: period, desk: self) { return }
        throw .einvoice(.noNumbers(period: period.code, printed: period.printed))
    }

    /// Issues the invoice of an order paid in full (`money.due` 0), as its invoice details say: recorded, then
    /// its file written. An order that has a live invoice keeps it.
    func issue(for stored: StoredOrder, money: OrderPayments, by staff: String) async throws(TillError) -> Issued {
        guard let setup = try await setup() else { return .none }
        guard money.due == 0 else {
            throw .einvoice(.notPaid(order: stored.number?.description ?? "#\(stored.order.pickupNumber)", due: money.due))
        }
        // One read of the order's till record gives the bill and the invoice details both.
        let (charges, extra) = try await extras.priced(stored)
        guard let draft = try draft(for: stored, charges: charges, details: extra.invoice, by: staff) else { return .none }
        let outcome = try await commits.issueInvoice(draft, desk: self)
        switch outcome {
        case .issued(let invoice):
            _ = try? await writeFiles(of: invoice, setup: setup)
        case .existing(let invoice) where invoice.issueFile == nil:
            // Recorded by an earlier try whose answer was lost (a server killed while it wrote the record), so its
            // file was never written: written now, once (`writeFiles` never writes one Turnkey already has).
            _ = try? await writeFiles(of: invoice, setup: setup)
        default:
            break
        }
        return outcome
    }

    /// The invoice of `stored`, paid in full by `charges.total`, as `details` say (nil: printed B2C; a company's
    /// 統一編號 shows the tax), dated now with a random code of its own, before it is numbered. Nil when the total is
    /// NT$0 (no invoice).
    func draft(for stored: StoredOrder, charges: OrderCharges, details: InvoiceDetails?, by staff: String) throws(TillError)
        -> InvoiceDraft?
    {
        guard charges.total > 0 else { return nil }
        let lines = Self.saleLines(of: stored.order, charges: charges)
        let content: InvoiceContent
        do {
            let recipient = try InvoiceRecipient(details: details)
            content = try InvoiceContent(lines: lines, paid: charges.total, showsTax: recipient.isBusiness)
        } catch {
            throw .einvoice(.einvoice(error))
        }
        let now = clock.now()
        let moment = moment(of: now)
        let period: InvoicePeriod
        do { period = try InvoicePeriod(containing: moment.day) } catch { throw .einvoice(.einvoice(error)) }
        var random = SystemRandomNumberGenerator()
        return InvoiceDraft(stored: stored, period: period, issuedAt: now, moment: moment, randomCode: RandomCode(using: &random),
                            details: details, content: content, lines: lines, issuedBy: staff)
    }

    /// An invoice about to be numbered.
    struct InvoiceDraft: Sendable {
        let stored: StoredOrder
        let period: InvoicePeriod
        let issuedAt: Date
        let moment: InvoiceMoment
        let randomCode: RandomCode
        let details: InvoiceDetails?
        let content: InvoiceContent
        let lines: [SaleLine]
        let issuedBy: String

        func invoice(number: InvoiceNumber, book: InvoiceBook, holder: String) -> IssuedInvoice {
            IssuedInvoice(number: number, book: book, holder: holder, orderRef: stored.orderRef,
                          pickupNumber: stored.order.pickupNumber, businessDay: stored.businessDay, issuedAt: issuedAt,
                          issued: moment, randomCode: randomCode, details: details, content: content, lines: lines,
                          issuedBy: issuedBy)
        }
    }

    /// The invoice's items: each drink line as the bill lists it, then the promotion, member benefits and
    /// adjustments, each apart (a discount is an item of its own with a negative amount): they add up to the bill.
    static func saleLines(of order: Order, charges: OrderCharges) -> [SaleLine] {
        var lines = order.lines.map { line in
            let extras = line.addOns.isEmpty ? "" : " +" + line.addOns.map(\.rawValue).joined(separator: "+")
            return SaleLine(description: "\(line.drinkName) \(line.size.rawValue)\(extras)", quantity: line.quantity, amount: line.lineTotal)
        }
        for bill in charges.billLines where bill.amount != 0 {
            switch bill.kind {
            case .promotion, .member, .adjustment: lines.append(SaleLine(description: bill.label, quantity: 1, amount: bill.amount))
            case .subtotal, .total: break
            }
        }
        return lines
    }

    /// `issueInvoice` on the embedded store: the number and the record in one commit, unless the order has a live
    /// invoice already.
    func issueInOneCommit(_ draft: InvoiceDraft, in atomic: any AtomicRecordStore) async throws(TillError) -> Issued {
        enum Outcome: Sendable { case issued(IssuedInvoice), existing(Record), noNumbers }
        let hint = sharedHint.withLock { $0 }
        let orderRef = draft.stored.orderRef
        let outcome: Outcome
        do {
            outcome = try await atomic.atomically { (transaction) throws(AirtableError) -> Outcome in
                if let live = try transaction.listRecords(in: ShopSchema.einvoiceTable, query: Self.liveQuery(orderRef: orderRef))
                    .records.first { return .existing(live) }
                guard let (number, book) = try InvoiceNumbering.nextInCommit(transaction, period: draft.period, hint: hint,
                                                                             at: draft.issuedAt) else { return .noNumbers }
                var invoice = draft.invoice(number: number, book: book, holder: InvoiceNumbering.sharedHolder)
                invoice.id = try transaction.createRecords(in: ShopSchema.einvoiceTable, [invoice.cells],
                                                           options: WriteOptions(typecast: true)).first?.id ?? ""
                return .issued(invoice)
            }
        } catch {
            throw .shop(.store(error))
        }
        switch outcome {
        case .issued(let invoice):
            sharedHint.withLock { $0 = invoice.book.key }
            return .issued(invoice)
        case .existing(let record):
            do { return .existing(try IssuedInvoice(record: record)) } catch { throw .einvoice(error) }
        case .noNumbers:
            throw .einvoice(.noNumbers(period: draft.period.code, printed: draft.period.printed))
        }
    }

    static func liveQuery(orderRef: String) -> ListQuery {
        ListQuery(filterByFormula: FormulaExpression.and([
            FormulaExpression.field(EInvoiceField.orderRef) == .text(orderRef),
            FormulaExpression.field(EInvoiceField.state) == .text(IssuedInvoice.State.issued.rawValue),
        ]).description)
    }

    // MARK: - Reading

    /// Every invoice of an order (live, voided, with allowances), in issue order.
    public func invoices(ofOrder orderRef: String) async throws(TillError) -> [IssuedInvoice] {
        try await read(ListQuery(filterByFormula: (FormulaExpression.field(EInvoiceField.orderRef) == .text(orderRef)).description))
    }

    /// Every invoice of a period.
    public func invoices(period: InvoicePeriod) async throws(TillError) -> [IssuedInvoice] {
        try await read(ListQuery(filterByFormula: (FormulaExpression.field(EInvoiceField.period) == .text(period.code)).description))
    }

    /// Every invoice of the orders of business days `days`.
    public func invoices(days: [BusinessDay]) async throws(TillError) -> [IssuedInvoice] {
        guard !days.isEmpty else { return [] }
        let filter = FormulaExpression.or(days.map { FormulaExpression.field(EInvoiceField.orderDay) == .text($0.description) })
        return try await read(ListQuery(filterByFormula: filter.description))
    }

    /// Counts one more print of `invoice`'s proof before it is printed, and answers how many there were before it:
    /// 0 for the original, more for a reprint (補印). The original is claimed (`ProofPrint`, keyed by the invoice's
    /// number) by the shop's `CommitStrategy`: in the commit that counts the print on the embedded store, by the
    /// claim rule over the API (`claimFirstPrint`), so of counters printing one proof at the same instant, on one
    /// store or over `serve` or Airtable, exactly one prints the original. Counted before the print: a print that then
    /// fails leaves the next one a 補印, never two originals.
    func claimProofPrint(_ invoice: IssuedInvoice) async throws(TillError) -> Int {
        guard !invoice.id.isEmpty else { return invoice.proofPrints }
        do {
            return try await commits.countProofPrint(invoice, desk: self)
        } catch .shop(.store(let error)) where error.isMissingRecord {
            // Moved to the archive with its period (`DayArchiver.archiveReportedInvoices`): a 補印, counted nowhere.
            return max(1, invoice.proofPrints)
        }
    }

    private func read(_ query: ListQuery) async throws(TillError) -> [IssuedInvoice] {
        let records: [Record]
        do { records = try await store.allRecords(in: ShopSchema.einvoiceTable, query: query) } catch { throw .shop(.store(error)) }
        var result: [IssuedInvoice] = []
        for record in records {
            do { result.append(try IssuedInvoice(record: record)) } catch { throw .einvoice(error) }
        }
        return result.sorted { ($0.issuedAt, $0.number) < ($1.issuedAt, $1.number) }
    }

    // MARK: - Time

    /// The moment in the shop's time zone (Taiwan's, for a shop that issues invoices).
    func moment(of date: Date) -> InvoiceMoment {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = clock.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return InvoiceMoment(day: YearMonthDay(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1),
                             hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
    }

    func currentPeriod() throws(TillError) -> InvoicePeriod {
        do { return try InvoicePeriod(containing: moment(of: clock.now()).day) } catch { throw .einvoice(.einvoice(error)) }
    }
}
