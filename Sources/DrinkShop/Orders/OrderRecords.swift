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
    /// Whether the base has the step fields (`preparingAt`…); learnt from the first write refused for them.
    let stepFields = StepFields()
    /// `store.atomicStore`, found once (it is a cast through any wrappers).
    let atomicStore: (any AtomicRecordStore)?

    init(store: any RecordStore, clock: ShopClock) {
        self.store = store
        self.clock = clock
        atomicStore = store.atomicStore
    }

    /// Whether the orders live in the embedded base (read by its indexes, written in one commit) rather
    /// than a base over the API (where every request counts).
    var isEmbedded: Bool { atomicStore != nil }

    /// The records created on the business day of `date` (in the shop's time zone).
    func createdOnDay(of date: Date) async throws(ShopError) -> [Record] {
        let (start, end) = clock.dayBounds(of: date)
        let formula = FormulaExpression.and(FormulaExpression.inRange(.createdTime, from: start, to: end))
        do {
            return try await store.allRecords(in: ShopSchema.orderTable,
                                              query: ListQuery(filterByFormula: formula.description))
        } catch {
            throw .store(error)
        }
    }

    /// Upserts every line of `order` on its `ref`, with `extra` cells on each (the till's copy, the audit
    /// cell). A store `setup` has not yet given this version's fields gets the lines without them.
    /// - Returns: the records, and whether `extra`'s new fields were written.
    func write(_ order: Order, orderRef: String, day: String, menu: Menu, extra: Fields = [:]) async throws(ShopError)
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
    func writeClaiming(_ order: Order, orderRef: String, day: String, menu: Menu, numbers: PickupNumbers,
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
    func writeStatus(of stored: StoredOrder, extra: Fields) async throws(ShopError) -> (records: [Record], extraWritten: Bool) {
        var fields = Fields([OrderField.status: .string(stored.order.status.rawValue)])
        if stored.order.status == .cancelled {
            fields[OrderField.cancelReason] = stored.order.cancelReason.map(JSONValue.string) ?? .null
            if let voidedBy = stored.order.voidedBy { fields[OrderField.voidedBy] = .string(voidedBy) }
        }
        let step = stepFields.available ? OrderField.reached(stored.order.status) : nil
        if let step { fields[step] = .string(AirtableTimestamp.format(clock.now())) }
        let written = try await tolerating(extra) { (extra) throws(AirtableError) -> [Record] in
            do throws(AirtableError) {
                return try await update(stored.recordIDs, fields.merging(extra) { $1 })
            } catch let error where step != nil && StepFields.isMissing(error) {
                // A remote base set up by an earlier version has no step fields (`drinkshop setup` adds them):
                // the status alone, from now on.
                stepFields.markMissing()
                var plain = fields
                if let step { plain[step] = nil }
                return try await update(stored.recordIDs, plain.merging(extra) { $1 })
            }
        }
        return (written.0, written.1)
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

    /// Runs `write` with `extra`; when the store does not know one of this version's fields (a remote base
    /// `setup` has not upgraded), once more without `extra`.
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
        do {
            return (try await write(extra), true)
        } catch {
            guard !extra.isEmpty, case .store(let failure) = error, Self.refusesNewFields(failure) else { throw error }
            return (try await write([:]), false)
        }
    }

    /// Whether the store refused a write for naming one of this version's order fields.
    static func refusesNewFields(_ error: AirtableError) -> Bool {
        guard let api = error.apiError, api.type == "UNKNOWN_FIELD_NAME" else { return false }
        return OrderRecord.tillAndAuditFields.contains { (api.message ?? "").contains("\"\($0)\"") }
    }

    private func update(_ ids: [String], _ fields: Fields) async throws(AirtableError) -> [Record] {
        try await store.updateRecords(in: ShopSchema.orderTable, ids.map { RecordUpdate(id: $0, fields: fields) },
                                      replace: false, options: WriteOptions(typecast: true))
    }

    /// Deletes the order's line records.
    func delete(_ stored: StoredOrder) async throws(ShopError) {
        do {
            _ = try await store.deleteRecords(in: ShopSchema.orderTable, ids: stored.recordIDs)
        } catch {
            throw .store(error)
        }
    }
}

/// Whether the base has the fields that record when an order reached each step: assumed until a write
/// naming one is refused as an unknown field (a remote base set up by an earlier version).
final class StepFields: Sendable {
    private let missing = Mutex(false)
    var available: Bool { !missing.withLock { $0 } }
    func markMissing() { missing.withLock { $0 = true } }

    static func isMissing(_ error: AirtableError) -> Bool {
        guard let api = error.apiError, api.type == "UNKNOWN_FIELD_NAME" else { return false }
        return [OrderField.preparingAt, .readyAt, .pickedUpAt].contains { (api.message ?? "").contains($0.rawValue) }
    }
}
