import Airtable
import AirtableFormula
import CivilDate
import DrinkShopCore
import EInvoice
import Foundation

/// Voids, allowances, the Ministry's files and the period's blank numbers.
extension InvoiceDesk {
    // MARK: - Files

    /// Writes the files `invoice` still lacks (F0401; F0501 once voided; G0401 once an allowance) into Turnkey's
    /// folder, each unless the folder has it already (waiting, sent or refused), then records them on the invoice.
    /// - Returns: the names written or found; none when no Turnkey folder is set.
    @discardableResult
    func writeFiles(of invoice: IssuedInvoice, setup: InvoiceSetup) async throws(TillError) -> [String] {
        guard let folder = setup.turnkey else { return [] }
        // The record before its file, on the disk too: a file Turnkey uploads is never of an invoice a power cut
        // could take back (and number again).
        do { try await commits.durable() } catch { throw .shop(error) }
        let einvoice: EInvoice
        do { einvoice = try invoice.invoice(seller: setup.seller) } catch { throw .einvoice(error) }
        var cells = Fields()
        var names: [String] = []
        func put(_ document: MIGDocument, _ field: EInvoiceField) async throws(TillError) {
            do { try await folder.writeOnce(document) } catch { throw .einvoice(.einvoice(error)) }
            cells[field] = .string(document.fileName)
            names.append(document.fileName)
        }
        if invoice.issueFile == nil { try await put(einvoice.f0401, .issueFile) }
        if invoice.state == .voided, invoice.voidFile == nil, let moment = invoice.voided {
            let document: MIGDocument
            do { document = try einvoice.f0501(at: moment, reason: invoice.voidReason ?? "作廢") } catch { throw .einvoice(.einvoice(error)) }
            try await put(document, .voidFile)
        }
        if invoice.state == .allowance, invoice.allowanceFile == nil {
            try await put(try Self.allowance(of: invoice, invoice: einvoice).g0401, .allowanceFile)
        }
        guard !cells.isEmpty, !invoice.id.isEmpty else { return names }
        do {
            _ = try await store.updateRecords(in: ShopSchema.einvoiceTable, [RecordUpdate(id: invoice.id, fields: cells)], replace: false,
                                              options: WriteOptions(typecast: true))
        } catch {
            throw .shop(.store(error))
        }
        return names
    }

    /// The allowance of a whole invoice: everything paid given back, one item.
    static func allowance(of issued: IssuedInvoice, invoice: EInvoice) throws(TillError) -> InvoiceAllowance {
        guard let number = issued.allowanceNumber, let moment = issued.allowanceMoment else {
            throw .einvoice(.storedInvoice("\(issued.number.printed): an allowance without its number or moment"))
        }
        do {
            return try InvoiceAllowance(number: number, issued: moment, invoice: invoice,
                                        lines: [SaleLine(description: "全單退貨 #\(issued.pickupNumber)", quantity: 1,
                                                         amount: issued.amounts.totalAmount)])
        } catch {
            throw .einvoice(.einvoice(error))
        }
    }

    // MARK: - Voids and allowances

    /// What became of an order's invoice when its money went back.
    public struct Settled: Sendable {
        public let invoice: IssuedInvoice
        public let settlement: ReturnSettlement
    }

    /// Settles the live invoice of an order whose money was all given back (a void, a cancel of a paid order): a
    /// void (F0501) up to the invoice period's last day for voids, an allowance (G0401) of the whole after it; in
    /// staff words in the audit trail, and the file written.
    func settleReturn(of stored: StoredOrder, reason: String, by staff: String) async throws(TillError) -> [Settled] {
        guard let setup = try await setup() else { return [] }
        let live = try await invoices(ofOrder: stored.orderRef).filter(\.isLive)
        var settled: [Settled] = []
        for var invoice in live {
            let now = clock.now()
            let moment = moment(of: now)
            let settlement = invoice.book.period.settlesReturn(on: moment.day)
            var cells = Fields()
            let detail: String
            switch settlement {
            case .void:
                invoice.state = .voided
                invoice.voided = moment
                invoice.voidReason = Self.reasonText(reason)
                invoice.voidedBy = staff
                cells = Fields([EInvoiceField.state: .string(IssuedInvoice.State.voided.rawValue),
                                .voidedAt: .string(AirtableTimestamp.format(now)), .voidedMoment: .string(moment.printed),
                                .voidReason: .string(invoice.voidReason ?? ""), .voidedBy: .string(staff)])
                detail = "invoice \(invoice.number.printed) voided (作廢, F0501): \(invoice.voidReason ?? "")"
            case .allowance:
                invoice.state = .allowance
                invoice.allowanceNumber = "AL" + invoice.number.text
                invoice.allowanceMoment = moment
                cells = Fields([EInvoiceField.state: .string(IssuedInvoice.State.allowance.rawValue),
                                .allowanceNumber: .string(invoice.allowanceNumber ?? ""), .allowanceMoment: .string(moment.printed),
                                .voidReason: .string(Self.reasonText(reason)), .voidedBy: .string(staff)])
                detail = "invoice \(invoice.number.printed) of \(invoice.book.period.code) past its void deadline: "
                    + "allowance \(invoice.allowanceNumber ?? "") of $\(invoice.amounts.totalAmount) (折讓, G0401)"
            }
            let entry = AuditEntry(at: now, by: staff, action: .void, subject: "#\(stored.order.pickupNumber)", detail: detail)
            let change = AuditedChange([.update(table: ShopSchema.einvoiceTable, id: invoice.id, cells)], to: store)
            do { _ = try await commits.write(change, trail: audit, entries: { _ in [entry] }) } catch { throw .shop(error) }
            _ = try? await writeFiles(of: invoice, setup: setup)
            settled.append(Settled(invoice: invoice, settlement: settlement))
        }
        return settled
    }

    /// A void's reason as MIG allows it: 1 to 20 characters.
    static func reasonText(_ reason: String) -> String {
        let cleaned = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        return cleaned.isEmpty ? "作廢" : String(cleaned.prefix(20))
    }

    // MARK: - Status

    /// What `einvoice status` shows.
    public struct FilesStatus: Sendable {
        /// Files written now for invoices recorded without them (a crash between the two).
        public let repaired: [String]
        /// Invoices whose files could still not be written, with why.
        public let unwritten: [String]
        /// Files waiting in Turnkey's `SRC` folders, with when each was written.
        public let waiting: [(name: String, at: Date)]
        /// Files Turnkey refused (in `ERR`).
        public let refused: [String]
        /// Waiting files of B2C invoices within a day of the 2-day upload limit (or past it).
        public let nearLimit: [String]
        /// Whether a Turnkey folder is set.
        public let hasFolder: Bool
        /// Invoices this counter issued while the store was away whose orders still wait in its outbox: recorded,
        /// and their files written, only once the order is sent (`Counter.invoiceFiles` fills it in).
        public var keptHere: [KeptInvoice] = []
        /// The store could not be reached: only `keptHere` is known (the files of the invoices it holds are not listed).
        public var storeAway = false
    }

    /// An invoice issued while the store was away, kept in this counter's outbox with its order.
    public struct KeptInvoice: Sendable, Equatable {
        public let number: String
        /// The order it was kept under (`#A-P1`).
        public let order: String
        public let issuedAt: Date

        /// Whether it is within a day of the 2-day upload limit (or past it): its file is not even written yet.
        public func nearsLimit(now: Date) -> Bool { now.timeIntervalSince(issuedAt) > 24 * 3600 }
    }

    /// Writes the files missing for this period's and the last period's invoices, then lists Turnkey's folders.
    func filesStatus() async throws(TillError) -> FilesStatus {
        guard let setup = try await setup() else { throw .einvoice(.notSetUp) }
        let period = try currentPeriod()
        let previous = period.previous
        var repaired: [String] = []
        var unwritten: [String] = []
        for invoice in try await invoices(period: previous) + invoices(period: period) where Self.lacksFile(invoice) {
            guard setup.turnkey != nil else {
                unwritten.append("\(invoice.number.printed) (#\(invoice.pickupNumber)): no Turnkey folder set")
                continue
            }
            do { repaired += try await writeFiles(of: invoice, setup: setup) } catch {
                unwritten.append("\(invoice.number.printed) (#\(invoice.pickupNumber)): \(error)")
            }
        }
        guard let folder = setup.turnkey else {
            return FilesStatus(repaired: repaired, unwritten: unwritten, waiting: [], refused: [], nearLimit: [], hasFolder: false)
        }
        let (waiting, refused) = await folder.listing()
        // B2C: uploaded within 2 days counted from the day after issue; warned from a day before.
        let now = clock.now()
        let nearLimit = waiting.filter { $0.name.hasPrefix("F0401_") && now.timeIntervalSince($0.at) > 24 * 3600 }.map(\.name)
        return FilesStatus(repaired: repaired, unwritten: unwritten, waiting: waiting, refused: refused, nearLimit: nearLimit,
                           hasFolder: true)
    }

    static func lacksFile(_ invoice: IssuedInvoice) -> Bool {
        invoice.issueFile == nil || (invoice.state == .voided && invoice.voidFile == nil)
            || (invoice.state == .allowance && invoice.allowanceFile == nil)
    }

    // MARK: - Blank numbers

    /// The E0402 files a period's books were reported in, when every one of them was (`reportBlanks` notes each
    /// book, taken or not); nil while any book is not, or there is none.
    static func blankFiles(of bookRecords: [Record]) -> [String]? {
        let files = bookRecords.map { $0.fields[InvoiceBookField.blankFile]?.stringValue ?? "" }
        guard !files.isEmpty, !files.contains("") else { return nil }
        return Array(Set(files)).sorted()
    }

    /// Reports `period`'s blank numbers (E0402), once it is over: every number of every imported book not issued,
    /// per track, written into Turnkey's folder and recorded on the books (books nobody took are recorded too).
    /// - Returns: the reports written.
    func reportBlanks(period: InvoicePeriod, by staff: String) async throws(TillError) -> [BlankNumbers] {
        guard let setup = try await setup() else { throw .einvoice(.notSetUp) }
        guard let folder = setup.turnkey else { throw .einvoice(.noTurnkeyFolder) }
        guard moment(of: clock.now()).day > period.lastDay else { throw .einvoice(.periodNotOver(period: period.code)) }
        let rangeRecords: [Record], bookRecords: [Record]
        do {
            rangeRecords = try await store.allRecords(in: ShopSchema.invoiceTrackTable, query: InvoiceNumbering.rangesQuery(period))
            bookRecords = try await store.allRecords(in: ShopSchema.invoiceBookTable, query: InvoiceNumbering.booksQuery(period))
        } catch {
            throw .shop(.store(error))
        }
        // Reported once: afterwards the period's invoices may be moved to an archive this counter cannot read, and
        // a second report would call their numbers blank.
        let reported = Self.blankFiles(of: bookRecords)
        if let reported { throw .einvoice(.blanksReported(period: period.code, files: reported)) }
        let books = InvoiceNumbering.ranges(from: rangeRecords).flatMap(\.books)
        let issued = Set(try await invoices(period: period).map(\.number))
        let reports = BlankNumbers.reports(seller: setup.seller, period: period, books: books, issued: issued)
        var recordByKey: [String: Record] = [:]
        for record in bookRecords { if let key = record.fields[InvoiceBookField.key]?.stringValue { recordByKey[key] = record } }
        var writes: [RecordWrite] = []
        do { try await commits.durable() } catch { throw .shop(error) }
        for report in reports {
            let document = report.e0402
            do { try await folder.writeOnce(document) } catch { throw .einvoice(.einvoice(error)) }
            for book in books where book.track == report.track {
                let runs = book.blankRuns(used: issued)
                let text = runs.isEmpty ? "none" : runs.map { "\(String(format: "%08d", $0.lowerBound))-\(String(format: "%08d", $0.upperBound))" }
                    .joined(separator: ",")
                var cells = Fields([InvoiceBookField.blanks: .string(text), .blankFile: .string(document.fileName)])
                if let record = recordByKey[book.key] {
                    writes.append(.update(table: ShopSchema.invoiceBookTable, id: record.id, cells))
                } else {
                    cells = cells.merging(InvoiceNumbering.bookCells(book, holder: "", at: clock.now())) { mine, _ in mine }
                    cells[InvoiceBookField.holder] = .string("")
                    writes.append(.create(table: ShopSchema.invoiceBookTable, cells))
                }
            }
        }
        let entry = AuditEntry(at: clock.now(), by: staff, action: .invoiceSetup, subject: "period \(period.code)",
                               detail: "blank numbers reported (E0402): " + (reports.isEmpty ? "none" : reports.map {
                                   "\($0.track.letters) \($0.runs.reduce(0) { $0 + $1.count })"
                               }.joined(separator: ", ")))
        do { _ = try await commits.write(AuditedChange(writes, to: store), trail: audit, entries: { _ in [entry] }) } catch {
            throw .shop(error)
        }
        return reports
    }
}
