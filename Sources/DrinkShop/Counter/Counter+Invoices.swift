import DrinkShopCore
import EInvoice
import Foundation

/// The e-invoice at the counter: a manager's setup (seller, ranges, blank numbers), anyone's look at the numbers
/// and files, and issuing by hand an invoice a crash left out.
extension Counter {
    /// Sets the seller: its 統一編號 (checked), name, address, QR key and Turnkey's folder, for every counter.
    public func setInvoiceSeller(_ setup: InvoiceSetup, by acting: Acting) async throws(TillError) {
        let who = try await authorize(.invoiceSetup, acting)
        try await invoices.setSeller(setup, by: who)
    }

    /// Imports a range of numbers for a period, as the platform handed it out.
    public func importInvoiceRange(_ range: TrackRange, by acting: Acting) async throws(TillError) {
        let who = try await authorize(.invoiceSetup, acting)
        try await invoices.importRange(range, by: who)
    }

    /// Imports the ranges of the platform's E0501 配號 file at `path` (a manager's action): all of them or none, each
    /// the shop's own (its `Ban` the seller's 統一編號); ranges imported before exactly as the file has them are left as
    /// they are. - Returns: the ranges imported now, and those already in.
    public func importInvoiceAllocationFile(at path: String, by acting: Acting) async throws(TillError)
        -> (imported: [TrackRange], alreadyIn: [TrackRange])
    {
        let who = try await authorize(.invoiceSetup, acting)
        // An E0501 file is a few kilobytes: anything past a megabyte is not one (and is not read into memory).
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size <= 1 << 20 else {
            throw .einvoice(.einvoice(.allocationFile(place: path, problem: "it is \(size / 1024) KB; an E0501 file is a few KB")))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let problem = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "there is no such file"
            throw .einvoice(.einvoice(.allocationFile(place: path, problem: problem)))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .einvoice(.einvoice(.allocationFile(place: path, problem: "it is not UTF-8 text, as MIG files are")))
        }
        let allocations: [TrackAllocation]
        do { allocations = try TrackAllocation.read(e0501: text) } catch { throw .einvoice(.einvoice(error)) }
        return try await invoices.importAllocations(allocations, file: (path as NSString).lastPathComponent, by: who)
    }

    /// The period's ranges and books, who holds each and what is left; and how many invoices today took, so a
    /// front can warn when fewer numbers are left than a day's sales.
    public func invoiceTracks(period: InvoicePeriod? = nil, by acting: Acting) async throws(TillError)
        -> (period: InvoicePeriod, ranges: [InvoiceDesk.TrackView], issuedToday: Int)
    {
        try await authorize(.takePayment, acting)
        let (period, ranges) = try await invoices.tracks(period: period)
        return (period, ranges, try await invoices.issuedToday())
    }

    /// The numbers this counter can still issue in the current period against a day's sales, for the warning every
    /// counter shows when they run low; nil when no seller is set.
    public func invoiceNumbersLeft() async throws(TillError) -> InvoiceDesk.NumbersLeft? {
        try await invoices.numbersLeft()
    }

    /// `report`'s invoices: those of `days` and of the period holding the last of them, the numbers left and the
    /// blank numbers; nil when no seller is set.
    public func invoiceReport(days: [BusinessDay]) async throws(TillError) -> InvoiceDesk.ReportSection? {
        try await invoices.reportSection(days: days)
    }

    /// Writes the files a crash left unwritten and lists what Turnkey has not picked up.
    public func invoiceFiles(by acting: Acting) async throws(TillError) -> InvoiceDesk.FilesStatus {
        try await authorize(.takePayment, acting)
        var status: InvoiceDesk.FilesStatus
        do {
            status = try await invoices.filesStatus()
        } catch {
            // The store is away: what this counter keeps is still told (its files are written once it is sent).
            guard case .shop(let cause) = error, delivery.outbox(after: cause, at: clock.now()) != nil else { throw error }
            status = InvoiceDesk.FilesStatus(repaired: [], unwritten: [], waiting: [], refused: [], nearLimit: [], hasFolder: false)
            status.storeAway = true
        }
        status.keptHere = try await invoicesKeptHere()
        return status
    }

    /// Reports a period's blank numbers (E0402), once it is over.
    public func reportBlankNumbers(period: InvoicePeriod, by acting: Acting) async throws(TillError) -> [BlankNumbers] {
        let who = try await authorize(.invoiceSetup, acting)
        return try await invoices.reportBlanks(period: period, by: who)
    }

    /// Issues the invoice of order `number`, paid in full, that has none (a crash between the payment and its
    /// invoice): a manager's action, since it numbers a sale after the fact.
    public func issueInvoice(_ number: OrderNumber, by acting: Acting) async throws(TillError) -> IssuedInvoice {
        let who = try await authorize(.invoiceSetup, acting)
        let stored = try await findToChange(number)
        let (issued, due) = try await issueIfPaid(stored, by: who)
        guard let issued else { throw .einvoice(.notPaid(order: number.description, due: due)) }
        switch issued {
        case .issued(let invoice): return invoice
        case .existing(let invoice): throw .einvoice(.alreadyInvoiced(order: number.description, number: invoice.number.printed))
        case .none:
            if try await invoices.setup() == nil { throw .einvoice(.notSetUp) }
            throw .einvoice(.notPaid(order: number.description, due: 0))
        }
    }

    /// Issues the invoice of an order found paid in full that has none (best effort: `check --books` names it
    /// otherwise, and `einvoice issue #N` issues it).
    func issueMissedInvoice(of stored: StoredOrder, by who: String) async {
        _ = try? await issueIfPaid(stored, by: who)
    }

    /// Issues `stored`'s invoice when the order stands (not cancelled) and is paid in full; nil, with what is due,
    /// when it is not. The one check before every invoice issued after its payment.
    private func issueIfPaid(_ stored: StoredOrder, by who: String) async throws(TillError)
        -> (issued: InvoiceDesk.Issued?, due: Int)
    {
        let money = try await till.moneyForChange(of: stored)
        guard money.due == 0, stored.order.status != .cancelled else { return (nil, money.due) }
        return (try await invoices.issue(for: stored, money: money, by: who), 0)
    }

    /// Issues the invoices this counter owes (orders it took full payment for whose invoice could not be issued
    /// then): each order is read again, so one cancelled, voided or invoiced meanwhile (`einvoice issue #N`, another
    /// counter) gets none; one that still cannot be issued stays owed. A counter that stops owing one leaves it to
    /// `check --books`, which names it.
    func issueOwedInvoices(by who: String) async -> [IssuedInvoice] {
        let owed = owedInvoices.withLock { $0 }
        var issued: [IssuedInvoice] = []
        for (ref, number) in owed.sorted(by: { $0.key < $1.key }) {
            do throws(TillError) {
                let stored = try await find(number)
                if stored.orderRef == ref, case .issued(let invoice)? = try await issueIfPaid(stored, by: who).issued {
                    issued.append(invoice)
                }
                _ = owedInvoices.withLock { $0.removeValue(forKey: ref) }
            } catch {
                // The store is still away, or no number is left: tried again at the next payment.
                continue
            }
        }
        return issued
    }

    /// The invoices of order `number` (live, voided, allowances), for the receipt and its preview.
    public func invoicesOf(_ stored: StoredOrder) async throws(TillError) -> [IssuedInvoice] {
        try await invoices.invoices(ofOrder: stored.orderRef)
    }

    /// The shop's e-invoice setup (nil: it issues none).
    public func invoiceSetup() async throws(TillError) -> InvoiceSetup? {
        try await invoices.setup()
    }

    /// An order's live invoice as its receipt shows it: the line saying which invoice and where it went, and its
    /// proof (nil for a carrier's or a donated invoice, which print none), a reprint (補印) once one was printed.
    public struct InvoiceOnReceipt: Sendable {
        public let invoice: IssuedInvoice
        public let line: String
        public let proof: InvoiceProof?
    }

    /// The live invoice of `stored` for its receipt; nil when it has none (not paid in full, or no seller set).
    public func invoiceOnReceipt(of stored: StoredOrder) async throws(TillError) -> InvoiceOnReceipt? {
        // A kept order paid while the store was away has its invoice in the outbox until it is sent.
        let found = stored.isUnsent ? try await keptInvoice(of: stored) : try await invoicesOf(stored).last(where: \.isLive)
        guard let live = found, let setup = try await invoiceSetup() else { return nil }
        return InvoiceOnReceipt(invoice: live, line: live.receiptLine,
                                proof: try Self.proof(of: live, seller: setup.seller, reprint: live.proofPrints > 0))
    }

    /// The proof to print now for `onReceipt` (nil when its invoice prints none), its print counted first so that
    /// every print after the first says 補印 (see `InvoiceDesk.claimProofPrint` for two counters at one instant).
    public func proofToPrint(_ onReceipt: InvoiceOnReceipt) async throws(TillError) -> InvoiceProof? {
        guard onReceipt.proof != nil, let setup = try await invoiceSetup() else { return nil }
        let before: Int
        if onReceipt.invoice.id.isEmpty, let outbox = delivery.outbox {
            // Kept with its order in the outbox: counted there, and on the invoice when the order is sent.
            do { before = try await outbox.countKeptPrint(of: onReceipt.invoice.orderRef) } catch { throw .shop(error) }
        } else {
            before = try await invoices.claimProofPrint(onReceipt.invoice)
        }
        return try Self.proof(of: onReceipt.invoice, seller: setup.seller, reprint: before > 0)
    }

    private static func proof(of live: IssuedInvoice, seller: InvoiceSeller, reprint: Bool) throws(TillError) -> InvoiceProof? {
        let einvoice: EInvoice
        do { einvoice = try live.invoice(seller: seller) } catch { throw .einvoice(error) }
        guard einvoice.recipient.printsProof else { return nil }
        guard let codes = InvoiceCodes(of: einvoice) else { throw .einvoice(.proofCodes(number: live.number.printed)) }
        return InvoiceProof(invoice: einvoice, codes: codes, reprint: reprint)
    }
}
