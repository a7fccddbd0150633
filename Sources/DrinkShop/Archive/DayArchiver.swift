import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// Moves closed business days out of the remote base into the archive (issue 13: a base holds 1,000
/// records on Airtable's Free plan, 50,000 on Team, and a shop writes about 750 a day).
///
/// A day is closed once it is over (before today's business day): today's records stay, since counters
/// still claim today's pickup numbers from its tickets. Of a closed day, every record of the day tables
/// is copied into the archive, read back and compared, and only then removed from the base, in batches
/// of ten through the client's shared rate budget. An order still open (placed, being made, ready) stays
/// in the base with its payments and till record, and an open shift stays, until a later run finds them
/// finished. A run that stops anywhere loses nothing: a record removed from the base is already in the
/// archive, reads count a record found in both once, and running again copies what remains (same ids:
/// no duplicates) and removes it.
public struct DayArchiver: Sendable {
    /// The remote base itself (never the store that also reads the archive).
    let base: any RecordStore
    public let archive: DayArchive
    let clock: ShopClock

    /// What one closed day moved.
    public struct DayReport: Sendable, Equatable {
        public let day: BusinessDay
        /// Records copied to the archive and removed from the base, by table.
        public let moved: [String: Int]
        /// Records left in the base: orders still open and their money, an open shift.
        public let kept: Int
        public var movedCount: Int { moved.values.reduce(0, +) }
    }

    /// Every closed day still in the base, oldest first. Whatever a failure interrupts is finished by the
    /// next run.
    func archiveClosedDays() async throws(ShopError) -> [DayReport] {
        let today = clock.today
        let day = FormulaExpression.field(DayTables.dayField)
        let formula = FormulaExpression.and([day != .text(""), day != .text(today.description)])
        var byTable: [String: [BusinessDay: [Record]]] = [:]
        var days = Set<BusinessDay>()
        for spec in DayTables.archived {
            let records: [Record]
            do {
                records = try await base.allRecords(in: spec.name, query: ListQuery(filterByFormula: formula.description))
            } catch {
                throw .store(error)
            }
            for record in records {
                // A cell that is not a date names no closed day: the record stays in the base.
                guard let recordDay = record.fields[DayTables.dayField]?.stringValue.flatMap({ try? BusinessDay($0) }),
                      recordDay < today
                else { continue }
                byTable[spec.name, default: [:]][recordDay, default: []].append(record)
                days.insert(recordDay)
            }
        }
        var reports: [DayReport] = []
        for closed in days.sorted() {
            reports.append(try await archive(closed, tables: byTable.mapValues { $0[closed] ?? [] }))
        }
        return reports
    }

    /// Removes the pickup tickets of closed days from the base without archiving anything: a ticket only
    /// decided which number a counter got that day, and the day's orders keep their numbers. What a
    /// `close` on a remote base does when it does not archive. Returns how many were removed.
    func dropClosedDaysTickets() async throws(ShopError) -> Int {
        let today = clock.today.description  // compared with the cells as stored
        let day = FormulaExpression.field(TicketField.businessDay)
        let formula = FormulaExpression.and([day != .text(""), day != .text(today)])
        let records: [Record]
        do {
            records = try await base.allRecords(in: ShopSchema.ticketTable, query: ListQuery(
                filterByFormula: formula.description, fields: [TicketField.businessDay.rawValue]))
        } catch {
            throw .store(error)
        }
        let closed = records.filter { ($0.fields[TicketField.businessDay]?.stringValue ?? today) < today }.map(\.id)
        try await remove(closed, from: ShopSchema.ticketTable)
        return closed.count
    }

    private func archive(_ day: BusinessDay, tables: [String: [Record]]) async throws(ShopError) -> DayReport {
        let lines = tables[ShopSchema.orderTable] ?? []
        let openOrders = Set(lines.filter { record in
            let status = record.fields[OrderField.status]?.stringValue.flatMap(OrderStatus.init(rawValue:))
            return !(status?.isFinal ?? false)
        }.compactMap { $0.fields[OrderField.orderRef]?.stringValue })
        var moved: [String: Int] = [:]
        var kept = 0
        for spec in DayTables.archived {
            let records = tables[spec.name] ?? []
            let staying = records.filter { stays($0, in: spec.name, openOrders: openOrders) }
            let keptIDs = Set(staying.map(\.id))
            let moving = records.filter { !keptIDs.contains($0.id) }
            kept += staying.count
            guard !moving.isEmpty else { continue }
            try await archive.keepVerified(moving, in: spec.name, day: day)
            try await remove(moving.map(\.id), from: spec.name)
            moved[spec.name] = moving.count
        }
        try await archive.noteArchived(day, moved: moved.values.reduce(0, +), kept: kept, at: clock.now())
        return DayReport(day: day, moved: moved, kept: kept)
    }

    /// Whether a record of a closed day stays in the base: it belongs to an order still open, or it is a
    /// shift not yet closed.
    private func stays(_ record: Record, in table: String, openOrders: Set<String>) -> Bool {
        switch table {
        case ShopSchema.orderTable, ShopSchema.orderTillTable, ShopSchema.paymentTable:
            let ref = record.fields[table == ShopSchema.orderTable ? OrderField.orderRef.rawValue
                : table == ShopSchema.orderTillTable ? OrderTillField.orderRef.rawValue : PaymentField.orderRef.rawValue]
            return ref?.stringValue.map(openOrders.contains) ?? false
        case ShopSchema.shiftTable:
            return (record.fields[ShiftField.closedAt]?.stringValue ?? "").isEmpty
        default:
            return false
        }
    }

    /// Removes records from the base in batches of ten; one already gone (a run whose answer was lost)
    /// is not an error.
    private func remove(_ ids: [String], from table: String) async throws(ShopError) {
        var start = 0
        while start < ids.count {
            let batch = Array(ids[start..<min(start + 10, ids.count)])
            start += 10
            do {
                _ = try await base.deleteRecords(in: table, ids: batch)
            } catch where error.isNotFound {
                for id in batch {
                    do { _ = try await base.deleteRecords(in: table, ids: [id]) } catch where error.isNotFound {
                        continue
                    } catch {
                        throw .store(error)
                    }
                }
            } catch {
                throw .store(error)
            }
        }
    }
}
