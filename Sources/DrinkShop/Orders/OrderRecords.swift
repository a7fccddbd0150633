import Airtable
import DrinkShopCore
import Foundation
import Synchronization

/// The `OrderDrink` table: with `OrderRecord` (the cells of one line), the only place that knows its field
/// names and formulas. Every write of lines is an upsert on the line's `ref`, so a request retried after
/// a lost response never duplicates a line.
struct OrderRecords: Sendable {
    let store: any RecordStore
    let clock: ShopClock
    /// Whether the base has the step fields (`preparingAt`…); learnt with `missing`.
    let stepFields = StepFields()
    /// The order fields of this version the base lacks: on the embedded store, known from the schema version it
    /// records (`ShopSchemaVersion`; its schema read before the first write when that is older); on a remote base
    /// `setup` has not upgraded, read from its schema the first time a write is refused for an unknown field.
    /// Never guessed from an error's text.
    let missing = MissingOrderFields()
    /// How a group of writes is made durable on this store, chosen once with it (`commitStrategy(over:)`).
    let commits: any CommitStrategy

    init(store: any RecordStore, clock: ShopClock, commits: any CommitStrategy) {
        self.store = store
        self.clock = clock
        self.commits = commits
    }

    /// Upserts every line of `order` on its `ref`, with `extra` cells on each (the till's copy, the audit
    /// cell). A store `setup` has not yet given this version's fields gets the lines without them.
    /// - Returns: the records, and whether `extra`'s new fields were written.
    func write(_ order: Order, orderRef: String, day: BusinessDay, menu: Menu, extra: Fields = [:]) async throws(ShopError)
        -> (records: [Record], extraWritten: Bool)
    {
        let fields = OrderRecord.fields(of: order, orderRef: orderRef, businessDay: day, menu: menu)
        return try await tolerating(extra) { (extra) throws(AirtableError) in
            let result = try await store.upsertRecords(in: ShopSchema.orderTable,
                                                       fields.map { UpsertRecord(fields: $0.merging(extra) { $1 }) },
                                                       mergeOn: [OrderField.ref.rawValue], replace: false,
                                                       options: WriteOptions(typecast: true))
            return result.records
        }
    }

    /// On the embedded base: claims the day's next pickup number and writes the order's lines under it
    /// (with `extra` cells, as `write`), one durable commit for both.
    func writeClaiming(_ order: Order, orderRef: String, day: BusinessDay, menu: Menu, numbers: PickupNumbers,
                       in atomic: any AtomicRecordStore, extra: Fields = [:]) async throws(ShopError)
        -> (number: Int, records: [Record], extraWritten: Bool)
    {
        let lines = OrderRecord.fields(of: order, orderRef: orderRef, businessDay: day, menu: menu)
        // A refused commit changed nothing: the claim is tried again without `extra`.
        let (claimed, written) = try await toleratingShopError(extra) { (extra) throws(ShopError) in
            try await numbers.claimAtomically(day: day, in: atomic) { number, transaction throws(AirtableError) in
                let numbered = lines.map { fields -> Fields in
                    var fields = fields.merging(extra) { $1 }
                    fields[OrderField.pickupNumber] = .int(number)
                    return fields
                }
                // Created, not upserted by `ref` as `write` does: the ref is new, and the commit either
                // happened or changed nothing, so there is no lost answer to repeat safely.
                return try transaction.createRecords(in: ShopSchema.orderTable, numbered, options: WriteOptions(typecast: true))
            }
        }
        return (claimed.number, claimed.result, written)
    }

    /// `writeStatus(of:extra:)` without extra cells; the records as the store answered.
    @discardableResult
    func writeStatus(of stored: StoredOrder) async throws(ShopError) -> [Record] {
        try await writeStatus(of: stored, extra: [:]).records
    }

    /// Writes the order's status (and cancellation reason) on every line record, with the moment it
    /// reached that step (`OrderField.reached`) where the base has those fields, and `extra` cells (the
    /// audit entry, the till's copy); returns the records as the store answered (every cell, other
    /// counters' steps included) and whether `extra`'s new fields were written (see `write`).
    ///
    /// `logging` are audit entries of the change that cannot go on the order (an order of an earlier business
    /// day): on the embedded store `trail` writes them in the same commit as the status (`logged` is then true;
    /// entries that cannot be written leave the order as it was: `ShopError.auditNotWrittenNothingChanged`);
    /// elsewhere they are left to the caller, to write after.
    func writeStatus(of stored: StoredOrder, extra: Fields, logging: [AuditEntry] = [], trail: AuditTrail? = nil)
        async throws(ShopError) -> (records: [Record], extraWritten: Bool, logged: Bool)
    {
        var fields = Fields([OrderField.status: .string(stored.order.status.rawValue)])
        if stored.order.status == .cancelled {
            fields[OrderField.cancelReason] = stored.order.cancelReason.map(JSONValue.string) ?? .null
            if let voidedBy = stored.order.voidedBy { fields[OrderField.voidedBy] = .string(voidedBy) }
        }
        let step = stepFields.available ? OrderField.reached(stored.order.status) : nil
        if let step { fields[step] = .string(AirtableTimestamp.format(clock.now())) }
        // A remote base set up by an earlier version may lack the step fields (`drinkshop setup` adds them):
        // `tolerating` leaves out whatever of this version's fields the base's schema lacks.
        if let trail, !logging.isEmpty,
           let records = try await commits.writeLogged(stored.recordIDs, cells: fields.merging(extra) { $1 }, logging: logging,
                                                       trail: trail)
        {
            return (records, true, true)
        }
        let written = try await tolerating(fields.merging(extra) { $1 }) { (cells) throws(AirtableError) -> [Record] in
            try await update(stored.recordIDs, cells)
        }
        return (written.0, written.1 || extra.keys.allSatisfy { !missing.lacks($0) }, false)
    }

    /// Writes `fields` and `extra` on every line record of `stored` (one request for up to ten lines).
    /// - Returns: whether `extra`'s new fields were written (see `write`).
    @discardableResult
    func writeCells(of stored: StoredOrder, _ fields: Fields, extra: Fields = [:]) async throws(ShopError) -> Bool {
        try await tolerating(extra) { (extra) throws(AirtableError) in
            // Nothing left to write once the store refused `extra`.
            guard !(fields.isEmpty && extra.isEmpty) else { return }
            _ = try await update(stored.recordIDs, fields.merging(extra) { $1 })
        }.1
    }

    /// `writeCells` of `extra` alone, with the records as the store answered (every cell of each: other counters'
    /// changes included; none when nothing was written) and whether every field of `extra` was written.
    func writeAnswering(_ extra: Fields, of stored: StoredOrder) async throws(ShopError) -> (records: [Record], written: Bool) {
        try await tolerating(extra) { (extra) throws(AirtableError) -> [Record] in
            guard !extra.isEmpty else { return [] }
            return try await update(stored.recordIDs, extra)
        }
    }

    /// Runs `write` with `extra`, less the fields the base is known to lack; when the store refuses a field as
    /// unknown, the base's schema is read (once per process) and the write made again without what it lacks.
    /// - Returns: the write's result, and whether every field of `extra` was written.
    private func tolerating<T>(_ extra: Fields, _ write: (Fields) async throws(AirtableError) -> T) async throws(ShopError)
        -> (T, Bool)
    {
        try await toleratingShopError(extra) { (extra) throws(ShopError) in
            do throws(AirtableError) { return try await write(extra) } catch { throw .store(error) }
        }
    }

    private func toleratingShopError<T>(_ extra: Fields, _ write: (Fields) async throws(ShopError) -> T) async throws(ShopError)
        -> (T, Bool)
    {
        try await learnFromSchemaVersion()
        let known = missing.withoutMissing(extra)
        do {
            return (try await write(known), known.count == extra.count)
        } catch {
            guard !known.isEmpty, case .store(let failure) = error, failure.apiError?.type == "UNKNOWN_FIELD_NAME",
                  !missing.isLearnt
            else { throw error }
            try await learnMissingFields()
            let kept = missing.withoutMissing(extra)
            guard kept.count < known.count else { throw error }  // not one of this version's fields
            return (try await write(kept), false)
        }
    }

    /// On a store that records the shop's schema version (the embedded one), before its first write: at this
    /// version every field is there; below it (a store not upgraded, such as a read-only file) its schema is
    /// read now. Either way no write is refused to find out.
    private func learnFromSchemaVersion() async throws(ShopError) {
        guard store.schemaVersions != nil, !missing.isLearnt else { return }
        if try await ShopSchemaVersion.isCurrent(in: store) {
            missing.learnComplete()
        } else {
            try await learnMissingFields()
        }
    }

    /// Reads the base's schema and keeps which of this version's order fields it lacks.
    private func learnMissingFields() async throws(ShopError) {
        let schema: BaseSchema
        do { schema = try await store.schema() } catch { throw .store(error) }
        let present = Set(schema.table(ShopSchema.orderTable)?.fields.map(\.name) ?? [])
        let lacking = Set(OrderField.allCases.map(\.rawValue)).subtracting(present)
        missing.learn(lacking)
        if [OrderField.preparingAt, .readyAt, .pickedUpAt].contains(where: { lacking.contains($0.rawValue) }) {
            stepFields.markMissing()
        }
    }

    private func update(_ ids: [String], _ fields: Fields) async throws(AirtableError) -> [Record] {
        try await store.updateRecords(in: ShopSchema.orderTable, ids.map { RecordUpdate(id: $0, fields: fields) },
                                      replace: false, options: WriteOptions(typecast: true))
    }
}

/// Whether the base has the fields that record when an order reached each step: assumed until its schema,
/// read after a write was refused for an unknown field, says it lacks them (a remote base set up by an
/// earlier version).
final class StepFields: Sendable {
    private let missing = Mutex(false)
    var available: Bool { !missing.withLock { $0 } }
    func markMissing() { missing.withLock { $0 = true } }
}

/// The order fields the base lacks, as its schema said when last read (nil: not read, or read more than
/// `lifetime` ago: everything assumed there, so a base upgraded meanwhile by `drinkshop setup` is written
/// in full again; a refusal then reads the schema again).
final class MissingOrderFields: Sendable {
    private let state = Mutex<(fields: Set<String>, at: ContinuousClock.Instant)?>(nil)
    /// Known from the store's schema version: nothing lacks, for good (fields are never dropped).
    private let complete = Mutex(false)
    static let lifetime: Duration = .seconds(300)

    private var current: Set<String>? {
        if complete.withLock({ $0 }) { return [] }
        return state.withLock { state in
            guard let known = state, known.at.duration(to: .now) < Self.lifetime else { return nil }
            return known.fields
        }
    }
    var isLearnt: Bool { current != nil }
    func learn(_ lacking: Set<String>) { state.withLock { $0 = (lacking, .now) } }
    /// The store records this schema version: every field is there.
    func learnComplete() { complete.withLock { $0 = true } }
    /// After this process upgraded the base itself.
    func forget() { state.withLock { $0 = nil } }
    func lacks(_ field: String) -> Bool { current?.contains(field) ?? false }
    func withoutMissing(_ cells: Fields) -> Fields {
        guard let lacking = current, !lacking.isEmpty else { return cells }
        return cells.filter { !lacking.contains($0.key) }
    }
}
