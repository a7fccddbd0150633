import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The audit trail: every cancel, void, delete and edit of an order (and menu and setting changes),
/// who did it, when, to what and why, kept in the `AuditLog` table. Entries are only ever added.
///
/// `AuditRecords` below is the only code that knows the table's fields. The entries of an edit, cancel
/// or void are kept on the order itself, written with the change (`OrderAuditCell`); the listings here
/// merge them with the table's, in time order.
///
/// While a remote store cannot be reached, entries wait in the outbox (`OutboxAudit`) like unsent orders
/// and are sent (upserted on their key: never twice) when it answers again.
public struct AuditTrail: Sendable {
    private let records: AuditRecords
    private let orders: any OrderQueries
    private let delivery: DeliveryPolicy
    private let clock: ShopClock

    init(store: any RecordStore, queries: any OrderQueries, clock: ShopClock, delivery: DeliveryPolicy) {
        records = AuditRecords(store: store, clock: clock)
        orders = queries
        self.delivery = delivery
        self.clock = clock
    }

    /// The AuditLog cells of `entry` (for a change that writes its entry in its own commit).
    func cells(of entry: AuditEntry) -> Fields { records.fields(of: entry) }

    /// Adds `entry` to the trail.
    func record(_ entry: AuditEntry) async throws(ShopError) {
        try await record([entry])
    }

    /// Adds several entries in one write (in batches of ten on a remote store); kept in the outbox while
    /// the store cannot be reached.
    func record(_ entries: [AuditEntry]) async throws(ShopError) {
        guard !entries.isEmpty else { return }
        let fields = entries.map(records.fields(of:))
        let now = clock.now()
        if let waiting = delivery.outboxWithoutTrying(at: now) {
            try await waiting.keepAudit(fields)
            return
        }
        do throws(ShopError) {
            try await records.add(fields)
            delivery.storeAnswered()
        } catch {
            guard let outbox = delivery.outbox(after: error, at: now) else { throw error }
            try await outbox.keepAudit(fields)
        }
    }

    func prepareLookups() async throws(ShopError) { try await records.prepareLookups() }

    /// Sends the entries kept in the outbox while the store could not be reached; they stay kept when it
    /// still cannot be. Returns how many were sent.
    @discardableResult
    func sendKept() async throws(ShopError) -> Int {
        guard let outbox = delivery.outbox else { return 0 }
        let kept = try await outbox.keptAudit()
        guard !kept.isEmpty else { return 0 }
        do throws(ShopError) {
            try await records.add(kept.map(\.fields))
        } catch {
            if delivery.outbox(after: error, at: clock.now()) != nil { return 0 }
            throw error
        }
        try await outbox.forgetAudit(kept.map(\.id))
        return kept.count
    }

    /// The entries with `start <= at < end`, oldest first.
    public func entries(from start: Date, to end: Date) async throws(ShopError) -> [AuditEntry] {
        // An empty span has no entries (and no day range).
        guard let days = try? DayRange(clock.businessDay(of: start), through: clock.businessDay(of: end.addingTimeInterval(-0.001)))
        else { return [] }
        let kept = try await orders.auditEntries(in: days)
        return Self.merged(try await records.list(from: start, to: end), kept.filter { start <= $0.at && $0.at < end })
    }

    /// The entries of the business days `first` through `last`, oldest first (none when `last` is before `first`).
    public func entries(fromDay first: BusinessDay, throughDay last: BusinessDay) async throws(ShopError) -> [AuditEntry] {
        guard let days = try? DayRange(first, through: last) else { return [] }
        return try await entries(in: days)
    }

    /// The entries of the business days `days`, oldest first.
    public func entries(in days: DayRange) async throws(ShopError) -> [AuditEntry] {
        let kept = try await orders.auditEntries(in: days).filter { days.contains(clock.businessDay(of: $0.at)) }
        return Self.merged(try await records.list(in: days), kept)
    }

    /// Both lists in time order (the table's first at the same moment).
    static func merged(_ logged: [AuditEntry], _ kept: [AuditEntry]) -> [AuditEntry] {
        (logged.enumerated().map { ($0.element, 0, $0.offset) } + kept.enumerated().map { ($0.element, 1, $0.offset) })
            .sorted { ($0.0.at, $0.1, $0.2) < ($1.0.at, $1.1, $1.2) }
            .map(\.0)
    }
}

/// `AuditLog`: the only code that knows its fields.
struct AuditRecords: Sendable {
    let store: any RecordStore
    let clock: ShopClock

    /// The cells of an entry, with a new key.
    func fields(of entry: AuditEntry) -> Fields {
        Fields([
            AuditField.at: .string(AirtableTimestamp.format(entry.at)), .by: .string(entry.by),
            .action: .string(entry.action.rawValue), .subject: .string(entry.subject),
            .detail: .string(entry.detail), .businessDay: .string(clock.businessDay(of: entry.at).description),
            .key: .string(AirtableID.make("aud")),
        ])
    }

    func add(_ fields: [Fields]) async throws(ShopError) {
        let records = fields.map { UpsertRecord(fields: $0) }
        // An upsert on a key made here: the client may send it again after a lost answer (a create it
        // may not), and the entry is still recorded once.
        do {
            _ = try await store.upsertRecords(in: ShopSchema.auditTable, records, mergeOn: [AuditField.key.rawValue],
                                              replace: false, options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }

    func list(from start: Date, to end: Date) async throws(ShopError) -> [AuditEntry] {
        try await list(.and(FormulaExpression.inRange(.field(AuditField.at), from: start, to: end)))
    }

    /// See `OrderRecords.prepareLookups`.
    func prepareLookups() async throws(ShopError) {
        try await store.listOnce(in: ShopSchema.auditTable, by: [.field(AuditField.businessDay) == .text("0000-00-00")])
    }

    func list(in days: DayRange) async throws(ShopError) -> [AuditEntry] {
        let day = FormulaExpression.field(AuditField.businessDay)
        let (first, last) = (days.first.description, days.last.description)
        let formula: FormulaExpression = first == last ? day == .text(first) : .and([day >= .text(first), day <= .text(last)])
        return try await list(formula)
    }

    private func list(_ formula: FormulaExpression) async throws(ShopError) -> [AuditEntry] {
        let found: [Record]
        do {
            found = try await store.allRecords(in: ShopSchema.auditTable, query: ListQuery(
                filterByFormula: formula.description,
                sort: [SortKey(field: AuditField.at.rawValue, direction: .ascending)]))
        } catch {
            throw .store(error)
        }
        // An action a newer version wrote and this one does not know is kept, its name put before the
        // detail, rather than hidden.
        return found.compactMap { record in
            let fields = record.fields
            guard let atText = fields[AuditField.at]?.stringValue, let at = AirtableTimestamp.parse(atText) else { return nil }
            let actionName = fields[AuditField.action]?.stringValue ?? ""
            var detail = fields[AuditField.detail]?.stringValue ?? ""
            let action = ShopAction(rawValue: actionName) ?? .staffChanges
            if ShopAction(rawValue: actionName) == nil { detail = "\(actionName): \(detail)" }
            return AuditEntry(at: at, by: fields[AuditField.by]?.stringValue ?? "",
                              action: action, subject: fields[AuditField.subject]?.stringValue ?? "", detail: detail)
        }.sorted { $0.at < $1.at }
    }
}
