import Airtable
import DrinkShopCore
import EInvoice
import Foundation
import Synchronization

/// The embedded store's commit strategy: every group is one transaction of the base (`AtomicRecordStore`),
/// whose guards are decided inside it and whose writes are kept all or none.
struct OneTransaction: CommitStrategy {
    let atomic: any AtomicRecordStore

    var copyCommittedWithLedger: Bool { true }

    var withdrawsLostPayments: Bool { false }

    /// A payment reads the order's status inside its transaction.
    var marksCancelsInLedger: Bool { false }

    func orderQueries(over records: OrderRecords) -> any OrderQueries { EmbeddedOrderQueries(records: records) }

    func durable() async throws(ShopError) {
        guard let deferring = atomic as? any DurableOnDemand else { return }
        do { try await deferring.makeDurable() } catch { throw .store(error) }
    }

    func run<Plan: StorePlan>(_ plan: Plan) async throws(ShopError) -> Plan.Outcome {
        do {
            return try await atomic.atomically { (transaction) throws(AirtableError) -> Plan.Outcome in try plan.run(in: transaction) }
        } catch {
            throw .store(error)
        }
    }

    func readAndWrite<T: Sendable>(in table: String, id: String,
                                   _ change: @escaping @Sendable (Record) -> (cells: Fields?, outcome: T))
        async throws(AirtableError) -> T
    {
        try await atomic.atomically { (transaction) throws(AirtableError) -> T in
            let (cells, outcome) = change(try transaction.getRecord(in: table, id: id, options: ReadOptions()))
            if let cells {
                _ = try transaction.updateRecords(in: table, [RecordUpdate(id: id, fields: cells)], replace: false,
                                                  options: WriteOptions(typecast: true))
            }
            return outcome
        }
    }

    /// The pickup number and the lines are one durable commit.
    func placeNumbered(_ order: inout Order, orderRef: String, day: BusinessDay, menu: Menu, extra: Fields,
                       records: OrderRecords, queries: any OrderQueries, numbers: PickupNumbers,
                       numbered: (Order, Int) throws(ShopError) -> Order) async throws(ShopError)
        -> (records: [Record], extraWritten: Bool)
    {
        let claimed = try await records.writeClaiming(order, orderRef: orderRef, day: day, menu: menu, numbers: numbers,
                                                      in: atomic, extra: extra)
        order = try numbered(order, claimed.number)
        return (claimed.records, claimed.extraWritten)
    }

    func writeLogged(_ ids: [String], cells: Fields, logging: [AuditEntry], trail: AuditTrail) async throws(ShopError)
        -> [Record]?
    {
        try await commit(trail: trail, { (transaction) throws(AirtableError) -> [Record] in
            try transaction.updateRecords(in: ShopSchema.orderTable, ids.map { RecordUpdate(id: $0, fields: cells) },
                                          replace: false, options: WriteOptions(typecast: true))
        }, entries: { _ in logging })
    }

    func write<Outcome: Sendable>(_ change: AuditedChange<Outcome>, trail: AuditTrail?,
                                  entries: @escaping @Sendable (Outcome) -> [AuditEntry]) async throws(ShopError) -> Outcome
    {
        try await commit(trail: trail, change.inCommit, entries: entries)
    }

    /// Runs `work` and creates the audit entries `entries` makes of its outcome in one commit: both are kept or
    /// neither (with no entries or no `trail`, `work` alone).
    /// - Throws: `.auditNotWrittenNothingChanged` when the entries could not be written; `.store` when `work` failed.
    private func commit<Outcome: Sendable>(trail: AuditTrail?,
                                           _ work: @escaping @Sendable (any RecordTransaction) throws(AirtableError) -> Outcome,
                                           entries: @escaping @Sendable (Outcome) -> [AuditEntry]) async throws(ShopError) -> Outcome
    {
        let refused = AuditRefusal()
        do throws(AirtableError) {
            return try await atomic.atomically { (transaction) throws(AirtableError) -> Outcome in
                let outcome = try work(transaction)
                let made = entries(outcome)
                guard let trail, !made.isEmpty else { return outcome }
                do throws(AirtableError) {
                    _ = try transaction.createRecords(in: ShopSchema.auditTable, made.map(trail.cells(of:)),
                                                      options: WriteOptions(typecast: true))
                } catch {
                    refused.note(made[0], error)
                    throw error
                }
                return outcome
            }
        } catch {
            if let (entry, failure) = refused.noted { throw .auditNotWrittenNothingChanged(entry, .store(failure)) }
            throw .store(error)
        }
    }

    func issueInvoice(_ draft: InvoiceDesk.InvoiceDraft, desk: InvoiceDesk) async throws(TillError) -> InvoiceDesk.Issued {
        try await desk.issueInOneCommit(draft, in: atomic)
    }

    func countProofPrint(_ invoice: IssuedInvoice, desk: InvoiceDesk) async throws(TillError) -> Int {
        try await desk.countProofPrintInOneCommit(invoice, in: atomic)
    }

    func invoiceNumbersLeft(period: InvoicePeriod, desk: InvoiceDesk) async throws(TillError) -> Bool {
        try await desk.numbersLeftOnTheStore(period: period)
    }

    func pay(_ stored: StoredOrder, as number: OrderNumber, method: PaymentMethod, tendered: Int?, by staff: String,
             on till: Till) async throws(TillError) -> Till.PaymentReceipt
    {
        try await till.payInOneCommit(stored, as: number, method: method, tendered: tendered, by: staff, in: atomic)
    }
}

/// The entry a commit could not write, handed out of the commit that it undid.
private final class AuditRefusal: Sendable {
    private let refusal = Mutex<(AuditEntry, AirtableError)?>(nil)
    func note(_ entry: AuditEntry, _ error: AirtableError) { refusal.withLock { $0 = (entry, error) } }
    var noted: (AuditEntry, AirtableError)? { refusal.withLock { $0 } }
}
