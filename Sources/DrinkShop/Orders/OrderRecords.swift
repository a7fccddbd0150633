import Airtable
import DrinkShopCore
import Foundation

/// The `OrderDrink` table: with `OrderRecord` (the cells of one line), the only place that knows its field
/// names and formulas. Every write of lines is an upsert on the line's `ref`, so a request retried after
/// a lost response never duplicates a line.
struct OrderRecords: Sendable {
    let store: any RecordStore
    let clock: ShopClock

    /// The records created on the business day of `date` (in the shop's time zone).
    func createdOnDay(of date: Date) async throws(ShopError) -> [Record] {
        let (start, end) = clock.dayBounds(of: date)
        let created = FormulaExpression.call("CREATED_TIME", [])
        let formula = FormulaExpression.and([
            .not(.call("IS_BEFORE", [created, .date(start)])),
            .call("IS_BEFORE", [created, .date(end)]),
        ])
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

    /// Writes the order's status (and cancellation reason) on every line record, with `extra` cells.
    /// - Returns: whether `extra`'s new fields were written (see `write`).
    @discardableResult
    func writeStatus(of stored: StoredOrder, extra: Fields = [:]) async throws(ShopError) -> Bool {
        var fields = Fields([OrderField.status: .string(stored.order.status.rawValue)])
        if stored.order.status == .cancelled {
            fields[OrderField.cancelReason] = stored.order.cancelReason.map(JSONValue.string) ?? .null
            if let voidedBy = stored.order.voidedBy { fields[OrderField.voidedBy] = .string(voidedBy) }
        }
        return try await writeCells(of: stored, fields, extra: extra)
    }

    /// Writes `fields` and `extra` on every line record of `stored` (one request for up to ten lines).
    @discardableResult
    func writeCells(of stored: StoredOrder, _ fields: Fields, extra: Fields = [:]) async throws(ShopError) -> Bool {
        try await tolerating(extra) { (extra) throws(AirtableError) in
            // Nothing left to write once the store refused `extra`.
            guard !(fields.isEmpty && extra.isEmpty) else { return }
            _ = try await store.updateRecords(in: ShopSchema.orderTable,
                                              stored.recordIDs.map { RecordUpdate(id: $0, fields: fields.merging(extra) { $1 }) },
                                              replace: false, options: WriteOptions(typecast: true))
        }.1
    }

    /// Runs `write` with `extra`; when the store does not know one of this version's fields (a remote base
    /// `setup` has not upgraded), once more without `extra`.
    private func tolerating<T>(_ extra: Fields, _ write: (Fields) async throws(AirtableError) -> T) async throws(ShopError)
        -> (T, Bool)
    {
        do {
            return (try await write(extra), true)
        } catch {
            guard !extra.isEmpty, error.apiError?.type == "UNKNOWN_FIELD_NAME",
                  OrderRecord.tillAndAuditFields.contains(where: { error.apiError?.message?.contains("\"\($0)\"") == true })
            else { throw .store(error) }
            do { return (try await write([:]), false) } catch { throw .store(error) }
        }
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
