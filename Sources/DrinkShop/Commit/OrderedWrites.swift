import Airtable
import DrinkShopCore
import EInvoice
import Foundation

/// The commit strategy over the API (Airtable, `drinkshop serve`), where no commit holds two calls: a group's
/// writes go one after another, in the order its rule makes safe; races are settled by claim rules.
struct OrderedWrites: CommitStrategy {
    let store: any RecordStore

    /// The copy is written ahead of the ledger.
    var copyCommittedWithLedger: Bool { false }

    /// Unless the server keeps payments' keys unique (it refuses a second payment instead).
    var withdrawsLostPayments: Bool { !PaymentRecords(store: store).keepsKeysUnique }

    /// Unless the server refuses a payment for a cancelled order in the payment's own commit.
    var marksCancelsInLedger: Bool { !PaymentRecords(store: store).refusesCancelledOrders }

    func orderQueries(over records: OrderRecords) -> any OrderQueries { RemoteOrderQueries(records: records) }

    func run<Plan: StorePlan>(_ plan: Plan) async throws(ShopError) -> Plan.Outcome {
        try await plan.run(over: store)
    }

    /// Read, then written back: tries that arrive in the same instant can each count once.
    func readAndWrite<T: Sendable>(in table: String, id: String,
                                   _ change: @escaping @Sendable (Record) -> (cells: Fields?, outcome: T))
        async throws(AirtableError) -> T
    {
        let (cells, outcome) = change(try await store.getRecord(in: table, id: id, options: ReadOptions()))
        if let cells {
            _ = try await store.updateRecords(in: table, [RecordUpdate(id: id, fields: cells)], replace: false,
                                              options: WriteOptions(typecast: true))
        }
        return outcome
    }

    /// The number claimed by `PickupNumbers`' rule (earliest-created ticket holds), then the lines written under
    /// it and kept in this counter's copy of the day.
    func placeNumbered(_ order: inout Order, orderRef: String, day: BusinessDay, menu: Menu, extra: Fields,
                       records: OrderRecords, queries: any OrderQueries, numbers: PickupNumbers,
                       numbered: (Order, Int) throws(ShopError) -> Order) async throws(ShopError)
        -> (records: [Record], extraWritten: Bool)
    {
        order = try numbered(order, try await numbers.claim(day: day))
        let sent = records.clock.now()
        let written = try await records.write(order, orderRef: orderRef, day: day, menu: menu, extra: extra)
        queries.keep(written.records, day: day, sent: sent, answered: records.clock.now())
        return written
    }

    func writeLogged(_ ids: [String], cells: Fields, logging: [AuditEntry], trail: AuditTrail) async throws(ShopError)
        -> [Record]?
    {
        nil
    }

    /// The change, then its entries; when they can be neither written nor kept, the change put back (`undo`).
    func write<Outcome: Sendable>(_ change: AuditedChange<Outcome>, trail: AuditTrail?,
                                  entries: @escaping @Sendable (Outcome) -> [AuditEntry]) async throws(ShopError) -> Outcome
    {
        let outcome = try await change.overTheAPI()
        let made = entries(outcome)
        guard let trail, let first = made.first else { return outcome }
        do { try await trail.record(made) } catch {
            let notWritten = error
            guard let undo = change.undo else { throw .auditNotWritten(first, notWritten) }
            do { try await undo(outcome) } catch { throw .auditNotWritten(first, notWritten) }
            throw .auditNotWrittenNothingChanged(first, notWritten)
        }
        return outcome
    }

    /// A write over the API is answered once the base has it.
    func durable() async throws(ShopError) {}

    func issueInvoice(_ draft: InvoiceDesk.InvoiceDraft, desk: InvoiceDesk) async throws(TillError) -> InvoiceDesk.Issued {
        try await desk.issueOverTheAPI(draft)
    }

    func countProofPrint(_ invoice: IssuedInvoice, desk: InvoiceDesk) async throws(TillError) -> Int {
        try await desk.countProofPrintOverTheAPI(invoice)
    }

    func invoiceNumbersLeft(period: InvoicePeriod, desk: InvoiceDesk) async throws(TillError) -> Bool {
        try await desk.numbersLeftOverTheAPI(period: period)
    }

    func pay(_ stored: StoredOrder, as number: OrderNumber, method: PaymentMethod, tendered: Int?, by staff: String,
             on till: Till) async throws(TillError) -> Till.PaymentReceipt
    {
        try await till.payOverTheAPI(stored, method: method, tendered: tendered, by: staff)
    }
}
