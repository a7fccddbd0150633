import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation
import PinHashing

/// The shop's services over any `RecordStore`, wired together: a small facade the REPL, one-shot
/// commands, the server and tests go through. Each service owns one job:
/// - `catalog`: the menu and promotions, cached (and kept in the outbox for offline use);
/// - `orders`: the order desk (place, list, edit, advance, cancel, delete, send the unsent);
/// - `seeder`: seed files into Drink and Promotion;
/// - `staff`: who may work at the counter;
/// - `delivery`: whether work goes to the store now or waits in the outbox;
/// - `audit`: the audit trail (cancels, voids, deletes, edits, setting changes);
/// - `settings`: the time zone and business-day start every counter shares.
/// Storage is reached only through the record API, each table through the one type that knows its fields.
public final class Shop: Sendable {
    public let clock: ShopClock
    public let delivery: DeliveryPolicy
    public let catalog: Catalog
    public let orders: OrderDesk
    public let seeder: Seeder
    public let staff: StaffDirectory
    /// The audit trail: who cancelled, voided, deleted or edited what, and why.
    public let audit: AuditTrail
    /// The settings every counter shares (time zone, business-day start); `adopt` them on opening.
    public let settings: ShopSettings
    /// Cup stickers and receipts of today's orders, and the printers they go to.
    public let printing: PrintDesk
    /// The make line and the pickup board, computed from today's orders.
    public let queue: OrderQueue
    /// Payments and refunds.
    public let till: Till
    /// The books check (對帳): the ledger against the orders, the audit trail, the drawer and the report.
    public let books: Books
    /// Adjustments, invoice details and members on orders; orders' bills.
    public let extras: OrderExtras
    /// Sold out, restock, prices.
    public let menuControl: MenuControl
    /// Shifts and the cash drawer.
    public let drawer: Drawer
    /// Members: stamp cards and passes.
    public let members: Members
    /// The 統一發票: the seller, the numbers, invoices, voids and allowances, Turnkey's files.
    public let invoices: InvoiceDesk
    /// The counter's rules: every front's changes go through it, with the staff member acting.
    public let counter: Counter
    /// Moves closed days to the archive; nil when this store has none (see `DayArchiver`).
    public let archiver: DayArchiver?
    let store: any RecordStore

    /// - Parameters:
    ///   - outbox: where orders wait while a remote store cannot be reached; nil for a local store.
    ///   - printers: the label and receipt printers (`ShopPrinters.configured(environment:)`); none by default.
    ///   - makeOrderRef: the key shared by an order's line records (tests make it predictable).
    ///   - archive: where closed days are moved; with one, reads of the day tables also see it.
    public init(store base: any RecordStore, clock: ShopClock = ShopClock(), outbox: Outbox? = nil,
                printers: ShopPrinters = ShopPrinters(),
                makeOrderRef: @escaping @Sendable () -> String = { AirtableID.make("ord") },
                pinHasher: PINHasher = .standard, archive: DayArchive? = nil,
                sharedSettingsAge: TimeInterval = Counter.defaultSharedReadingAge,
                menuLifetime: TimeInterval = Catalog.defaultLifetime) {
        self.store = base
        archiver = archive.map { DayArchiver(base: base, archive: $0, clock: clock) }
        // Every service reads through this: the base, and the archive for the days moved there.
        let store: any RecordStore = archive.map { ArchivedDaysStore(base: base, archive: $0) } ?? base
        self.clock = clock
        delivery = DeliveryPolicy(outbox: outbox)
        catalog = Catalog(store: store, clock: clock, delivery: delivery, lifetime: menuLifetime)
        // Chosen once: the services ask these and never which kind of store they run on.
        let commits = commitStrategy(over: store)
        let queries = orderQueries(over: OrderRecords(store: store, clock: clock, commits: commits))
        audit = AuditTrail(store: store, queries: queries, clock: clock, delivery: delivery)
        orders = OrderDesk(queries: queries, clock: clock, catalog: catalog, delivery: delivery, audit: audit,
                           makeOrderRef: makeOrderRef)
        extras = OrderExtras(store: store, commits: commits)
        seeder = Seeder(store: store, catalog: catalog, extras: extras, commits: commits)
        staff = StaffDirectory(store: store, commits: commits, hasher: pinHasher, delivery: delivery, now: { clock.now() })
        settings = ShopSettings(store: store, commits: commits, clock: clock, audit: audit, notes: outbox, delivery: delivery)
        printing = PrintDesk(printers: printers, orders: orders, clock: clock, durable: { () async throws(ShopError) in try await commits.durable() })
        queue = OrderQueue(orders: orders)
        till = Till(store: store, orders: orders, extras: extras, clock: clock, commits: commits)
        menuControl = MenuControl(store: store, catalog: catalog, commits: commits)
        drawer = Drawer(store: store, clock: clock, commits: commits)
        members = Members(store: store, extras: extras, clock: clock, commits: commits)
        invoices = InvoiceDesk(store: store, commits: commits, clock: clock, settings: settings, audit: audit, extras: extras,
                               notes: outbox)
        books = Books(till: till, audit: audit, clock: clock, invoices: invoices)
        counter = Counter(orders: orders, till: till, extras: extras, members: members, menuControl: menuControl,
                          drawer: drawer, staff: staff, audit: audit, settings: settings, archiver: archiver, invoices: invoices,
                          seeder: seeder, printing: printing, clock: clock, delivery: delivery, sharedReadingAge: sharedSettingsAge)
    }

    /// Where orders wait while the store cannot be reached; nil when the store is local.
    public var outbox: Outbox? { delivery.outbox }

    /// Whether the store failed to answer lately (orders are being kept in the outbox).
    public var isOffline: Bool { delivery.isOffline }

    // MARK: - Schema

    /// The tables and fields the shop needs that the base lacks, as readable items.
    public func missingSchema() async throws(ShopError) -> [String] {
        let schema: BaseSchema
        do { schema = try await store.schema() } catch { throw .store(error) }
        var missing: [String] = []
        for spec in ShopSchema.tables(of: store) {
            guard let table = schema.table(spec.name) else {
                missing.append("table \(spec.name)")
                continue
            }
            for field in spec.fields where table.field(field.name) == nil {
                missing.append("field \(spec.name).\(field.name) (\(field.type.rawValue))")
            }
        }
        return missing
    }

    /// Reads once by every field the order and audit lookups filter on, so a store that indexes a field on
    /// first use (the embedded store) does it at opening, never inside a command that is then refused.
    public func prepareLookups() async throws(ShopError) {
        try await orders.records.prepareLookups()
        try await audit.prepareLookups()
        // A day's report and export find the day's payments and till records by `businessDay`, and
        // `pay`/`void` an order's by `orderRef`: by index, whatever the number of days stored.
        let day = "0000-00-00"
        try await store.listOnce(in: ShopSchema.paymentTable, by: [
            .field(PaymentField.businessDay) == .text(day), .field(PaymentField.orderRef) == .text(day),
        ])
        try await store.listOnce(in: ShopSchema.orderTillTable, by: [
            .field(OrderTillField.businessDay) == .text(day), .field(OrderTillField.orderRef) == .text(day),
        ])
        try await store.listOnce(in: ShopSchema.shiftTable, by: [.field(ShiftField.businessDay) == .text(day)])
        // The e-invoice's lookups: an order's invoice, a book's last number, a period's books and invoices.
        try await store.listOnce(in: ShopSchema.einvoiceTable, by: [
            .field(EInvoiceField.orderRef) == .text(day), .field(EInvoiceField.book) == .text(day),
            .field(EInvoiceField.period) == .text(day), .field(EInvoiceField.orderDay) == .text(day),
        ])
        try await store.listOnce(in: ShopSchema.invoiceBookTable, by: [.field(InvoiceBookField.period) == .text(day)])
    }

    /// Creates whatever tables and fields are missing, when the store allows it. Returns what it created.
    @discardableResult
    public func createMissingSchema() async throws(ShopError) -> [String] {
        guard let editor = store as? any SchemaEditing else { throw .missingSchema(try await missingSchema()) }
        let schema: BaseSchema
        do { schema = try await store.schema() } catch { throw .store(error) }
        var created: [String] = []
        do {
            for spec in ShopSchema.tables(of: store) {
                if let table = schema.table(spec.name) {
                    for field in spec.fields where table.field(field.name) == nil {
                        _ = try await editor.createField(in: table.id, field)
                        created.append("field \(spec.name).\(field.name)")
                    }
                } else {
                    _ = try await editor.createTable(spec)
                    created.append("table \(spec.name)")
                }
            }
        } catch {
            throw .store(error)
        }
        if !created.isEmpty { orders.records.missing.forget() }  // what the order writes left out is there now
        // Every table and field is there now: the embedded store records it, so later openings need not look.
        if try await ShopSchemaVersion.record(in: store) { orders.records.missing.learnComplete() }
        return created
    }
}
