import Airtable
import Synchronization

/// Hands out pickup numbers (取餐號) that are unique among a business day's orders, even when several
/// counters write at once, using nothing but the record API.
///
/// A number is claimed by upserting the ticket `day#n` on the `key` field: the store applies an upsert
/// atomically, so exactly one counter sees the ticket in `createdRecords`; the others see it in
/// `updatedRecords`, know the number is taken, and try the next. A retried claim whose first answer was
/// lost reads as taken and moves on: that can leave a gap in the numbers, never a duplicate.
final class PickupNumbers: Sendable {
    private let store: any RecordStore
    private let table: String
    /// The next number worth trying, per business day (a hint; the store decides).
    private let hints = Mutex<[String: Int]>([:])
    static let maximumAttempts = 50

    /// - Parameter table: the ticket table (`PickupTicket`; the outbox keeps its own for provisional numbers).
    init(store: any RecordStore, table: String = ShopSchema.ticketTable) {
        self.store = store
        self.table = table
    }

    /// Claims the next free number of `day`.
    func claim(day: String) async throws(ShopError) -> Int {
        var candidate: Int
        if let hint = hints.withLock({ $0[day] }) {
            candidate = hint
        } else {
            candidate = try await highestClaimed(day: day) + 1
        }
        for attempt in 0..<PickupNumbers.maximumAttempts {
            let ticket = Fields([TicketField.key: .string("\(day)#\(candidate)"), .businessDay: .string(day),
                                  .number: .int(candidate)])
            let result: UpsertResult
            do {
                result = try await store.upsertRecords(in: table, [UpsertRecord(fields: ticket)],
                                                       mergeOn: [TicketField.key.rawValue], replace: false, options: WriteOptions())
            } catch {
                throw .store(error)
            }
            if !result.createdRecords.isEmpty {
                let next = candidate + 1
                hints.withLock { $0[day] = max($0[day] ?? 0, next) }
                return candidate
            }
            // Taken by another counter: jump past everything claimed so far (after the first clash, so a
            // stale hint costs one extra request, not one per number).
            candidate = attempt == 0 ? max(candidate + 1, try await highestClaimed(day: day) + 1) : candidate + 1
        }
        throw .pickupNumbersExhausted(attempts: PickupNumbers.maximumAttempts)
    }

    /// The highest number claimed on `day`, or 0.
    private func highestClaimed(day: String) async throws(ShopError) -> Int {
        let query = ListQuery(filterByFormula: (FormulaExpression.field(TicketField.businessDay) == .text(day)).description,
                              sort: [SortKey(field: TicketField.number.rawValue, direction: .descending)],
                              fields: [TicketField.number.rawValue],
                              pageSize: 1, maxRecords: 1)
        do {
            let page = try await store.listRecords(in: table, query: query)
            return page.records.first?.fields[TicketField.number]?.intValue ?? 0
        } catch {
            throw .store(error)
        }
    }
}
