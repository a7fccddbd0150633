import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// Payments a counter took for its kept orders while the store could not be reached, each with the invoice it
/// issued from the counter's own book (`OutboxPayment`, one record an order, keyed by the order's ref). The
/// payment is recorded in the store's ledger, and the invoice's record and files written, when the order is sent
/// (`Counter.sendKept`); only then is it forgotten here.
extension Outbox {
    public static let paymentTable = "OutboxPayment"

    /// The table: the invoice's cells as `EInvoice` holds them (only the order's ref when no invoice was due; its
    /// `proofPrints` counts the prints while the order was kept), and the payment.
    static let paymentSchema = TableSpec(
        name: paymentTable, description: "Payments taken for kept orders while the store was away, with their invoices",
        fields: ShopSchema.einvoice.fields + [
                FieldSpec(KeptPaymentField.method, .singleLineText),
                FieldSpec(KeptPaymentField.amount, .number, options: ["precision": 0]),
                FieldSpec(KeptPaymentField.tendered, .number, options: ["precision": 0]),
                FieldSpec(KeptPaymentField.takenBy, .singleLineText),
                FieldSpec(KeptPaymentField.takenAt, .singleLineText, description: "ISO 8601"),
            ])

    /// A payment kept with its order, and the invoice it issued (nil: none was due; its `proofPrints` are the prints
    /// while the order was kept).
    struct KeptPayment: Sendable {
        var payment: Payment
        var invoice: IssuedInvoice?
    }

    /// What keeping a payment taken while the store was away came to.
    enum KeptPaymentOutcome: Sendable {
        /// Kept, with the invoice numbered in the same commit (nil: none was due).
        case kept(IssuedInvoice?)
        /// The order has a payment kept already: another process of this machine took it a moment before.
        case paidAlready
        /// The counter's book has no number left, or it holds no book.
        case noNumbers
        /// Cancelled at another counter of this machine a moment before.
        case cancelled
        /// Sent, deleted, edited or given other invoice details at another counter of this machine a moment before.
        case changed
    }

    /// Keeps `payment` of kept order `orderRef` with its invoice, numbered from this counter's book, in one commit of
    /// this machine's outbox: the check that the order has no payment kept, the number taken (the book's note), and
    /// the record, together. So two processes of this machine paying one kept order at the same instant keep one
    /// payment and one invoice, and no number is taken for the one refused.
    /// - Parameter issuing: the invoice of the number after `last` in `book` (nil: the book has none left, or is not
    ///   of the invoice's period); nil when no invoice is due.
    func keepPayment(_ payment: Payment, of stored: StoredOrder,
                     issuing: (@Sendable (_ book: String, _ last: String?) -> IssuedInvoice?)?) async throws(ShopError)
        -> KeptPaymentOutcome
    {
        // The outbox is a local base: the plan is one transaction of it (`commitStrategy(over:)`).
        try await commitStrategy(over: store).run(KeepingPayment(payment: payment, orderRef: stored.orderRef,
                                                                 details: stored.keptInvoiceDetails,
                                                                 fingerprint: stored.keptFingerprint, issuing: issuing))
    }

    /// `keepPayment`'s reads and writes: the order's lines (still kept, not cancelled, as the payment read them: the
    /// bill it takes, the invoice details the invoice is made by), its kept payment (none, or it stops), the book's
    /// note (when an invoice is due), then the note's new last number and the payment's record.
    private struct KeepingPayment: StorePlan {
        let payment: Payment
        let orderRef: String
        let details: InvoiceDetails?
        /// The order's lines as the payment read them (nil: not read from the outbox; only the details are held).
        let fingerprint: String?
        let issuing: (@Sendable (_ book: String, _ last: String?) -> IssuedInvoice?)?
        private var step = 0

        init(payment: Payment, orderRef: String, details: InvoiceDetails?, fingerprint: String?,
             issuing: (@Sendable (_ book: String, _ last: String?) -> IssuedInvoice?)?) {
            self.payment = payment
            self.orderRef = orderRef
            self.details = details
            self.fingerprint = fingerprint
            self.issuing = issuing
        }

        var outcomeWithoutReading: KeptPaymentOutcome? { nil }

        mutating func start() -> PlanStep<KeptPaymentOutcome> {
            .list(table: Outbox.lineTable, ListQuery(filterByFormula: (FormulaExpression.field(OrderField.orderRef) == .text(orderRef)).description))
        }

        mutating func next(after records: [Record]) -> PlanStep<KeptPaymentOutcome> {
            step += 1
            if step == 1 {
                guard let line = records.first else { return .done(.changed) }
                if records.contains(where: { $0.fields[OrderField.status]?.stringValue == OrderStatus.cancelled.rawValue }) {
                    return .done(.cancelled)
                }
                guard line.fields[UnsentField.invoiceKind]?.stringValue == details?.kindCode,
                      line.fields[UnsentField.invoiceValue]?.stringValue == details?.value,
                      fingerprint.map({ $0 == Outbox.fingerprint(records) }) ?? true else { return .done(.changed) }
                return .list(table: Outbox.paymentTable, Outbox.keptPaymentQuery(orderRef))
            }
            if step == 2 {
                guard records.isEmpty else { return .done(.paidAlready) }
                guard issuing != nil else { return .write([keep(nil)], then: .kept(nil)) }
                return .list(table: Outbox.menuTable, Outbox.invoiceNoteQuery)
            }
            guard let note = records.first, let held = Outbox.invoiceNote(note), let issued = issuing?(held.book, held.last) else {
                return .done(.noNumbers)
            }
            return .write([.update(table: Outbox.menuTable, id: note.id, Outbox.invoiceNoteCells(book: held.book, last: issued.number.text)),
                           keep(issued)], then: .kept(issued))
        }

        private func keep(_ invoice: IssuedInvoice?) -> RecordWrite {
            .create(table: Outbox.paymentTable, Outbox.cells(of: KeptPayment(payment: payment, invoice: invoice), orderRef: orderRef))
        }
    }

    /// The record of a kept payment: the invoice's cells (when one was issued), the order's ref and the payment.
    fileprivate static func cells(of kept: KeptPayment, orderRef: String) -> Fields {
        var cells = kept.invoice?.cells ?? Fields()
        cells[EInvoiceField.orderRef] = .string(orderRef)
        cells[KeptPaymentField.method] = .string(kept.payment.method.rawValue)
        cells[KeptPaymentField.amount] = .int(kept.payment.amount)
        cells[KeptPaymentField.tendered] = .int(kept.payment.tendered)
        cells[KeptPaymentField.takenBy] = .string(kept.payment.takenBy)
        cells[KeptPaymentField.takenAt] = .string(AirtableTimestamp.format(kept.payment.takenAt))
        return cells
    }

    static func keptPaymentQuery(_ orderRef: String) -> ListQuery {
        ListQuery(filterByFormula: (FormulaExpression.field(EInvoiceField.orderRef) == .text(orderRef)).description, pageSize: 1)
    }

    /// The payment kept with order `orderRef`; nil when none.
    func keptPayment(of orderRef: String) async throws(ShopError) -> KeptPayment? {
        guard let record = try await keptPaymentRecord(of: orderRef) else { return nil }
        let fields = record.fields
        func problem(_ what: String) -> ShopError { .storedData("in the outbox at \(location): the payment kept with \(orderRef): \(what)") }
        guard let method = PaymentMethod(rawValue: fields[KeptPaymentField.method]?.stringValue ?? ""),
              let amount = fields[KeptPaymentField.amount]?.intValue,
              let takenAt = AirtableTimestamp.parse(fields[KeptPaymentField.takenAt]?.stringValue ?? "") else {
            throw problem("method, amount or time")
        }
        let payment: Payment
        do {
            payment = try Payment(method: method, amount: amount, tendered: fields[KeptPaymentField.tendered]?.intValue,
                                  takenBy: fields[KeptPaymentField.takenBy]?.stringValue ?? "", takenAt: takenAt)
        } catch {
            throw problem("\(error)")
        }
        var invoice: IssuedInvoice?
        if !(fields[EInvoiceField.number]?.stringValue ?? "").isEmpty {
            do {
                invoice = try IssuedInvoice(record: record)
                invoice?.id = ""  // not yet recorded in the store
            } catch {
                throw problem("\(error)")
            }
        }
        return KeptPayment(payment: payment, invoice: invoice)
    }

    /// Counts one more print of the kept invoice's proof before it is printed; answers how many there were before.
    func countKeptPrint(of orderRef: String) async throws(ShopError) -> Int {
        guard let record = try await keptPaymentRecord(of: orderRef) else { return 0 }
        let before = record.fields[EInvoiceField.proofPrints]?.intValue ?? 0
        do {
            _ = try await store.updateRecords(in: Outbox.paymentTable, [
                RecordUpdate(id: record.id, fields: Fields([EInvoiceField.proofPrints: .int(before + 1)])),
            ], replace: false, options: WriteOptions())
        } catch {
            throw .store(error)
        }
        return before
    }

    /// Forgets the payment kept with `orderRef`: it is in the store's ledger and its invoice in `EInvoice`.
    func forgetPayment(of orderRef: String) async throws(ShopError) {
        guard let record = try await keptPaymentRecord(of: orderRef) else { return }
        do { _ = try await store.deleteRecords(in: Outbox.paymentTable, ids: [record.id]) } catch { throw .store(error) }
    }

    /// The order refs that have a payment kept.
    func ordersWithKeptPayments() async throws(ShopError) -> Set<String> {
        do {
            let records = try await store.allRecords(in: Outbox.paymentTable,
                                                     query: ListQuery(fields: [EInvoiceField.orderRef.rawValue]))
            return Set(records.compactMap { $0.fields[EInvoiceField.orderRef]?.stringValue })
        } catch {
            throw .store(error)
        }
    }

    private func keptPaymentRecord(of orderRef: String) async throws(ShopError) -> Record? {
        do {
            return try await store.listRecords(in: Outbox.paymentTable, query: Self.keptPaymentQuery(orderRef)).records.first
        } catch {
            throw .store(error)
        }
    }
}

/// `OutboxPayment`'s fields beyond `EInvoice`'s (whose `orderRef` is the kept order's).
enum KeptPaymentField: String, ShopField {
    case method, amount, tendered, takenBy, takenAt
}
