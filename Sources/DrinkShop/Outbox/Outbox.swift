import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation
import Synchronization

/// Orders this counter took while the store could not be reached, kept durably on this machine (a
/// local base) until they are sent. Each is sent exactly once: its lines are upserted on their `ref`,
/// so a send that is retried after a lost answer cannot duplicate them.
public final class Outbox: Sendable {
    public static let lineTable = "OutboxLine"
    public static let ticketTable = "OutboxTicket"
    /// The last menu and promotions read from the store, so a counter restarted during an outage can
    /// still take orders.
    public static let menuTable = "MenuSnapshot"
    /// Audit-trail entries written while the store could not be reached.
    public static let auditTable = "OutboxAudit"

    /// The lines as `OrderDrink` holds them, plus the provisional number and when the order was queued.
    static let schema: [TableSpec] = [
        TableSpec(name: lineTable, description: "Order lines not yet sent to the store",
                  fields: ShopSchema.order.fields + [
                      FieldSpec(UnsentField.pendingNumber, .number, options: ["precision": 0]),
                      FieldSpec(UnsentField.queuedAt, .dateTime, options: [
                          "timeZone": "client", "dateFormat": ["name": "iso", "format": "YYYY-MM-DD"],
                          "timeFormat": ["name": "24hour", "format": "HH:mm"],
                      ]),
                      FieldSpec(UnsentField.member, .singleLineText,
                                description: "The member's mobile number, made the order's when it is sent"),
                      FieldSpec(UnsentField.invoiceKind, .singleLineText,
                                description: "The kind of the order's invoice details (mobileBarcode, citizenCertificate, donation, businessNumber)"),
                      FieldSpec(UnsentField.invoiceValue, .singleLineText,
                                description: "The invoice details' value, recorded on the order when it is sent"),
                  ]),
        TableSpec(name: ticketTable, description: "Provisional numbers handed out offline",
                  fields: ShopSchema.ticket.fields),
        TableSpec(name: auditTable, description: "Audit entries not yet sent to the store", fields: ShopSchema.audit.fields),
        paymentSchema,
        TableSpec(name: menuTable, description: "The store's Drink and Promotion records as last read", fields: [
            FieldSpec(MenuSnapshotField.table, .singleLineText),
            FieldSpec(MenuSnapshotField.records, .multilineText, description: "The records as JSON"),
        ]),
    ]

    let store: any RecordStore
    /// Where the outbox lives, for messages ("kept in …").
    public let location: String
    let provisionalNumbers: PickupNumbers
    /// The menu text last written, so an unchanged menu is not written again on every read.
    private let rememberedText = Mutex<[String: String]>([:])
    /// Cleared when the store refused a counter letter's claim (a base without the table): this process asks no more.
    private let claimsLetter = Mutex(true)
    /// This counter's letter once read or claimed (`counterLetter()`).
    let knownLetter = Mutex<String?>(nil)

    /// - Parameter store: a local store (the CLI uses a LocalBase file beside the embedded store).
    public init(store: any RecordStore, location: String) {
        self.store = store
        self.location = location
        provisionalNumbers = PickupNumbers(store: store, table: Outbox.ticketTable)
    }

    /// Creates the outbox tables when missing, and the fields an earlier version's outbox lacks. Two
    /// counters started at once on one machine share the file: a table or field the other one created
    /// meanwhile is fine.
    public func prepare() async throws(ShopError) {
        guard let editor = store as? any SchemaEditing else { return }
        do throws(AirtableError) {
            let schema = try await store.schema()
            for spec in Outbox.schema {
                guard let table = schema.table(spec.name) else {
                    do throws(AirtableError) {
                        _ = try await editor.createTable(spec)
                    } catch {
                        guard try await store.schema().table(spec.name) != nil else { throw error }
                    }
                    continue
                }
                for field in spec.fields where table.field(field.name) == nil {
                    do throws(AirtableError) {
                        _ = try await editor.createField(in: table.id, field)
                    } catch {
                        guard try await store.schema().table(spec.name)?.field(field.name) != nil else { throw error }
                    }
                }
            }
        } catch {
            throw .store(error)
        }
    }

    /// Keeps audit entries (their cells, key included) until they are sent.
    func keepAudit(_ entries: [Fields]) async throws(ShopError) {
        do {
            _ = try await store.createRecords(in: Outbox.auditTable, entries, options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }

    /// The audit entries kept, with their outbox record ids.
    func keptAudit() async throws(ShopError) -> [(id: String, fields: Fields)] {
        do {
            return try await store.allRecords(in: Outbox.auditTable).map { ($0.id, $0.fields) }
        } catch {
            throw .store(error)
        }
    }

    /// Forgets audit entries that reached the store.
    func forgetAudit(_ ids: [String]) async throws(ShopError) {
        guard !ids.isEmpty else { return }
        do { _ = try await store.deleteRecords(in: Outbox.auditTable, ids: ids) } catch { throw .store(error) }
    }

    var mayClaimLetter: Bool { claimsLetter.withLock { $0 } }
    func stopClaimingLetter() { claimsLetter.withLock { $0 = false } }

    /// Renames the kept audit entries about `old` (`#A-P1`) to `new` (`#14 (was A-P1)`), before they are sent.
    func renameAudit(_ old: String, to new: String) async throws(ShopError) {
        let about = try await keptAudit().filter { $0.fields[AuditField.subject]?.stringValue == old }
        var start = 0
        while start < about.count {
            let batch = about[start..<min(start + 10, about.count)]
            do {
                _ = try await store.updateRecords(in: Outbox.auditTable, batch.map {
                    RecordUpdate(id: $0.id, fields: Fields([AuditField.subject: .string(new)]))
                }, replace: false, options: WriteOptions())
            } catch {
                throw .store(error)
            }
            start += 10
        }
    }

    /// A provisional number for an order that could not get a pickup number.
    func provisionalNumber(day: BusinessDay) async throws(ShopError) -> Int {
        try await provisionalNumbers.claim(day: day)
    }

    /// Keeps (or replaces) an order until it is sent. A change staff make to a kept order is refused when a payment is
    /// kept for it (`ShopError.paidAtThisMachine`: another counter of this machine took it a moment before), checked in
    /// the same commit of the outbox as the write; the sending (`sending`), which numbers a paid order too, is not.
    func keep(_ stored: StoredOrder, menu: Menu, queuedAt: Date, sending: Bool = false) async throws(ShopError) {
        let lines = Self.lineCells(of: stored, menu: menu, queuedAt: queuedAt)
        if !sending {
            let write = RecordWrite.upsert(table: Outbox.lineTable, lines, mergeOn: [OrderField.ref.rawValue])
            guard try await commitStrategy(over: store).run(UnlessPaid(orderRef: stored.orderRef, write: write)) else {
                throw .paidAtThisMachine(stored.keptNumber ?? stored.number ?? .pickup(stored.order.pickupNumber))
            }
            return
        }
        do {
            _ = try await store.upsertRecords(in: Outbox.lineTable, lines.map { UpsertRecord(fields: $0) },
                                              mergeOn: [OrderField.ref.rawValue], replace: false, options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }

    /// Writes `write` unless a payment is kept for order `orderRef` (then nothing: false), in one commit of the outbox.
    private struct UnlessPaid: StorePlan {
        let orderRef: String
        let write: RecordWrite
        var outcomeWithoutReading: Bool? { nil }
        mutating func start() -> PlanStep<Bool> { .list(table: Outbox.paymentTable, Outbox.keptPaymentQuery(orderRef)) }
        mutating func next(after records: [Record]) -> PlanStep<Bool> { records.isEmpty ? .write([write], then: true) : .done(false) }
    }

    /// The outbox's line records of a kept order.
    private static func lineCells(of stored: StoredOrder, menu: Menu, queuedAt: Date) -> [Fields] {
        var lines = OrderRecord.fields(of: stored.order, orderRef: stored.orderRef, businessDay: stored.businessDay,
                                       menu: menu)
        for index in lines.indices {
            if stored.order.pickupNumber == 0 { lines[index][OrderField.pickupNumber] = .null }
            lines[index][UnsentField.pendingNumber] = stored.provisionalNumber.map(JSONValue.int) ?? .null
            lines[index][OrderField.provisionalCounter] = stored.provisionalCounter.map(JSONValue.string) ?? .null
            lines[index][UnsentField.queuedAt] = .string(AirtableTimestamp.format(queuedAt))
            lines[index][UnsentField.member] = stored.keptMember.map { .string($0.digits) } ?? .null
            lines[index][UnsentField.invoiceKind] = stored.keptInvoiceDetails.map { .string($0.kindCode) } ?? .null
            lines[index][UnsentField.invoiceValue] = stored.keptInvoiceDetails.map { .string($0.value) } ?? .null
        }
        return lines
    }

    /// Every order waiting to be sent, oldest first (from any day: an order from before midnight
    /// still has to reach the store).
    func unsentOrders(menu: Menu, clock: ShopClock) async throws(ShopError) -> [StoredOrder] {
        let records: [Record]
        do { records = try await store.allRecords(in: Outbox.lineTable) } catch { throw .store(error) }
        var provisionalNumbers: [String: Int] = [:]
        var counters: [String: String] = [:]
        var members: [String: MobileNumber] = [:]
        var invoiceDetails: [String: InvoiceDetails] = [:]
        for record in records {
            guard let ref = record.fields[OrderField.orderRef]?.stringValue else { continue }
            if let number = record.fields[UnsentField.pendingNumber]?.intValue { provisionalNumbers[ref] = number }
            // An order an earlier version kept has no letter: it stays `P1`, as its slip says.
            if let counter = CounterLetters.code(record.fields[OrderField.provisionalCounter]?.stringValue) { counters[ref] = counter }
            if let digits = record.fields[UnsentField.member]?.stringValue {
                do { members[ref] = try MobileNumber(parsing: digits) } catch {
                    throw .storedData("in the outbox at \(location): order \(ref)'s member: \(error)")
                }
            }
            if let kind = record.fields[UnsentField.invoiceKind]?.stringValue {
                do {
                    invoiceDetails[ref] = try InvoiceDetails(kindCode: kind, value: record.fields[UnsentField.invoiceValue]?.stringValue ?? "")
                } catch {
                    throw .storedData("in the outbox at \(location): order \(ref)'s invoice details: \(error)")
                }
            }
        }
        let fingerprints = Dictionary(grouping: records) { $0.fields[OrderField.orderRef]?.stringValue ?? "" }.mapValues(Self.fingerprint)
        let (orders, problems) = OrderRecord.orders(from: records, menu: menu, clock: clock)
        if let problem = problems.first { throw .storedData("in the outbox at \(location): \(problem)") }
        return orders.map { order in
            var unsent = order
            unsent.provisionalNumber = provisionalNumbers[order.orderRef]
            unsent.provisionalCounter = counters[order.orderRef]
            unsent.keptMember = members[order.orderRef]
            unsent.keptInvoiceDetails = invoiceDetails[order.orderRef]
            unsent.keptFingerprint = fingerprints[order.orderRef]
            unsent.isForeign = false
            unsent.isUnsent = true
            return unsent
        }.sorted { $0.order.createdAt < $1.order.createdAt }
    }

    /// What a kept order's line records hold, every cell but when they were written, in one text: equal when nothing
    /// of the order changed between two reads of this outbox.
    static func fingerprint(_ lines: [Record]) -> String {
        lines.map { line in
            line.fields.filter { $0.key != UnsentField.queuedAt.rawValue }.sorted { $0.key < $1.key }
                .map { "\($0.key)=\(JSONWriter.string($0.value))" }.joined(separator: "\u{1F}")
        }.sorted().joined(separator: "\u{1E}")
    }

    /// Forgets an order: it was sent (its kept payment recorded and forgotten first), or deleted before it ever was.
    /// Refused while a payment is kept for it (`ShopError.paidAtThisMachine`), in the same commit as the delete.
    func remove(_ stored: StoredOrder) async throws(ShopError) {
        let lines: [Record]
        do {
            lines = try await store.allRecords(in: Outbox.lineTable, query: ListQuery(
                filterByFormula: (FormulaExpression.field(OrderField.orderRef) == .text(stored.orderRef)).description))
        } catch {
            throw .store(error)
        }
        guard !lines.isEmpty else { return }
        let write = RecordWrite.delete(table: Outbox.lineTable, ids: lines.map(\.id))
        guard try await commitStrategy(over: store).run(UnlessPaid(orderRef: stored.orderRef, write: write)) else {
            throw .paidAtThisMachine(stored.keptNumber ?? stored.number ?? .pickup(stored.order.pickupNumber))
        }
    }

    /// Keeps a copy of the store's records of `table` (only when they changed since the last copy).
    func remember(_ records: [Record], of table: String) async throws(ShopError) {
        let text = JSONWriter.string(.array(records.map(\.json)))
        guard rememberedText.withLock({ $0[table] }) != text else { return }
        do {
            _ = try await store.upsertRecords(in: Outbox.menuTable,
                                              [UpsertRecord(fields: Fields([MenuSnapshotField.table: .string(table), .records: .string(text)]))],
                                              mergeOn: [MenuSnapshotField.table.rawValue], replace: false, options: WriteOptions())
        } catch {
            throw .store(error)
        }
        rememberedText.withLock { $0[table] = text }
    }

    /// The records of `table` as last remembered; nil if never.
    func remembered(_ table: String) async throws(ShopError) -> [Record]? {
        let formula = (FormulaExpression.field(MenuSnapshotField.table) == .text(table)).description
        do {
            let found = try await store.allRecords(in: Outbox.menuTable, query: ListQuery(filterByFormula: formula))
            guard let text = found.first?.fields[MenuSnapshotField.records]?.stringValue else { return nil }
            var records: [Record] = []
            for item in try JSONParser.parse(text).arrayValue ?? [] { records.append(try Record(json: item)) }
            return records
        } catch {
            throw .storedData("the menu kept in \(location) cannot be read: \(error)")
        }
    }

    /// How many orders wait to be sent.
    public func count() async throws(ShopError) -> Int {
        do {
            let records = try await store.allRecords(in: Outbox.lineTable, query: ListQuery(fields: [OrderField.orderRef.rawValue]))
            return Set(records.compactMap { $0.fields[OrderField.orderRef]?.stringValue }).count
        } catch {
            throw .store(error)
        }
    }
}

/// The fields an unsent line has beyond `OrderDrink`'s (`OutboxLine`). The stored name of the
/// provisional number is `pendingNumber`, kept as earlier versions wrote it.
enum UnsentField: String, ShopField {
    case pendingNumber, queuedAt
    /// The member (`for 09XXXXXXXX`) an order taken offline is for: the till makes it theirs once it is sent.
    case member
    /// The invoice details given for an order taken offline (`OrderTill`'s `invoiceKind` and `invoiceValue`).
    case invoiceKind, invoiceValue
}

/// `MenuSnapshot`: the store's Drink and Promotion records as last read.
enum MenuSnapshotField: String, ShopField {
    case table, records
}
