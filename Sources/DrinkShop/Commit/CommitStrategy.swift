import Airtable
import DrinkShopCore
import EInvoice
import Foundation

/// How the shop makes a group of writes durable together: chosen once, where the store is chosen
/// (`Shop.init`, through `commitStrategy(over:)`), and handed to every service that writes such a group, so
/// no service asks which kind of store it runs on.
///
/// - `OneTransaction`: the embedded store. A group is one SQLite transaction (WAL, `synchronous=FULL`, or synced
///   before anything tells of it in a piped REPL: `durable()`): its reads see no other writer, its guards are
///   decided inside it, and its writes are kept all or none, through two counters at once and a crash.
/// - `OrderedWrites`: a base over the API (Airtable, `drinkshop serve`), where nothing holds two calls together:
///   the group's writes go one after another in a fixed order, each chosen so a stop between them is safe, and
///   what two counters can race on is settled by a claim rule (a payment read back in the ledger's own order,
///   ties give way) or put back (an audited change whose entry cannot be written).
///
/// The rules (what is due, who may, what a try counts, what a card earns) are the services'; a strategy only
/// says how their writes become durable.
protocol CommitStrategy: Sendable {
    /// Whether the till's copy on an order is written in the same commit as the ledger (so it is exact), rather
    /// than ahead of it (so it may say more was paid than the ledger holds).
    var copyCommittedWithLedger: Bool { get }

    /// Whether a cancel that may race a payment marks the order cancelled in its ledger before reading the ledger
    /// (`PaymentRecords.markCancelled`), so the payer sees the cancel when it reads its payment back: over the API
    /// where no server refuses a payment for a cancelled order in the payment's commit (Airtable, the gateway in
    /// front of it). The embedded store decides it inside the payment's transaction, `drinkshop serve` in the
    /// payment's commit (`CancelledOrderGuard`): no mark.
    var marksCancelsInLedger: Bool { get }

    /// Whether a payment that loses its claim is taken back after it was written (over the API where the server does
    /// not keep payments' keys unique: Airtable, the gateway), so a ledger can hold, for a moment, a payment that will
    /// not stand (`Till.settleLatePayments` waits for it).
    var withdrawsLostPayments: Bool { get }

    /// The order lookups suited to this kind of store.
    func orderQueries(over records: OrderRecords) -> any OrderQueries

    /// Runs `plan` (a rule's reads, each chosen from the answers before it, then its writes): in one transaction,
    /// or as calls one after another.
    func run<Plan: StorePlan>(_ plan: Plan) async throws(ShopError) -> Plan.Outcome

    /// Reads record `id` of `table` and writes back the cells `change` makes of it (nil cells: nothing is
    /// written), as one step where the store allows it, else a read then a write.
    func readAndWrite<T: Sendable>(in table: String, id: String,
                                   _ change: @escaping @Sendable (Record) -> (cells: Fields?, outcome: T))
        async throws(AirtableError) -> T

    /// Claims `day`'s next pickup number and writes the lines of `order` (unnumbered) under it, with `extra`
    /// cells; `numbered` gives the order its number, and `order` holds it as soon as it is claimed (an order
    /// whose write then fails goes to the outbox with it).
    func placeNumbered(_ order: inout Order, orderRef: String, day: BusinessDay, menu: Menu, extra: Fields,
                       records: OrderRecords, queries: any OrderQueries, numbers: PickupNumbers,
                       numbered: (Order, Int) throws(ShopError) -> Order) async throws(ShopError)
        -> (records: [Record], extraWritten: Bool)

    /// Writes `cells` on the order lines `ids` and creates the audit entries `logging` with them, in one commit;
    /// nil when the store has no commit to hold both (nothing is written: the caller writes them one after another).
    func writeLogged(_ ids: [String], cells: Fields, logging: [AuditEntry], trail: AuditTrail) async throws(ShopError)
        -> [Record]?

    /// Writes `change` with the audit entries `entries` makes of its outcome, as `AuditedChange` describes:
    /// one commit, or the change, then its entries, and the change put back when they cannot be written.
    func write<Outcome: Sendable>(_ change: AuditedChange<Outcome>, trail: AuditTrail?,
                                  entries: @escaping @Sendable (Outcome) -> [AuditEntry]) async throws(ShopError) -> Outcome

    /// Numbers and records the invoice of a paid order, as `InvoiceNumbering` describes: in one commit with its
    /// number from the store's shared book, or from this counter's own book over the API.
    func issueInvoice(_ draft: InvoiceDesk.InvoiceDraft, desk: InvoiceDesk) async throws(TillError) -> InvoiceDesk.Issued

    /// Whether an invoice of `period` can be numbered now (before a payment is taken).
    func invoiceNumbersLeft(period: InvoicePeriod, desk: InvoiceDesk) async throws(TillError) -> Bool

    /// Counts a print of `invoice`'s proof and claims the original at its first (`InvoiceDesk.claimProofPrint`):
    /// how many prints there were before, 0 for the one original.
    func countProofPrint(_ invoice: IssuedInvoice, desk: InvoiceDesk) async throws(TillError) -> Int

    /// Returns once every change committed here is on the disk, for what tells the world of a change outside the
    /// store (a Turnkey file, a printout): at once where every commit waits for the disk itself (over the API, and
    /// the embedded store unless a piped REPL deferred its syncs: `DurableOnDemand`).
    func durable() async throws(ShopError)

    /// Takes a payment for `stored` (found, sent, and with an open shift for cash), as `Till.pay` describes.
    func pay(_ stored: StoredOrder, as number: OrderNumber, method: PaymentMethod, tendered: Int?, by staff: String,
             on till: Till) async throws(TillError) -> Till.PaymentReceipt
}

/// The commit strategy of `store`: one transaction when it (or the store it wraps) commits several calls as
/// one, the embedded base; ordered writes over the API otherwise. The one place the shop asks.
func commitStrategy(over store: any RecordStore) -> any CommitStrategy {
    if let atomic = store.atomicStore { return OneTransaction(atomic: atomic) }
    return OrderedWrites(store: store)
}
