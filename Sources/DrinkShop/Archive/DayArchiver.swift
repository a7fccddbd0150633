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

    /// Whether the base itself still holds the record `id` of the order lines (false: the order was archived with its
    /// day, and the archive is read only). One read of the base.
    func baseHoldsOrderLine(_ id: String) async throws(ShopError) -> Bool {
        do {
            _ = try await base.getRecord(in: ShopSchema.orderTable, id: id, options: ReadOptions())
            return true
        } catch where error.isNotFound {
            return false
        } catch {
            throw .store(error)
        }
    }

    /// What moving one period's invoices did.
    public struct InvoiceReport: Sendable, Equatable {
        /// The period, `11512`.
        public let period: String
        /// Invoices (`EInvoice`) and original-print claims (`ProofPrint`) copied to the archive and removed from the base.
        public let invoices: Int
        public let proofPrints: Int
        /// Invoices left in the base: their order is still there (not yet finished, so not archived).
        public let kept: Int
    }

    /// Moves the invoices of every period whose blank numbers are reported (E0402: each of its books noted, so no
    /// number of it is issued, voided or reported again) to the archive, with their proofs' print claims: a period
    /// is about 18,000 invoices for a 300-order shop, and a Team base holds 50,000 records. An invoice whose order
    /// is still in the base stays with it. Reads of both tables see the archive too (`ArchivedDaysStore`), so
    /// `report`, `check --books` and a 補印 of an archived proof work as before on this machine. As the days' move,
    /// copied, read back and compared, then removed from the base in batches; a run that stops loses nothing.
    func archiveReportedInvoices() async throws(ShopError) -> [InvoiceReport] {
        let books: [Record]
        do {
            books = try await base.allRecords(in: ShopSchema.invoiceBookTable)
        } catch where error.isNotFound {
            return []  // a base made before the e-invoice, never set up for it: no invoice to move
        } catch {
            throw .store(error)
        }
        var byPeriod: [String: [Record]] = [:]
        for book in books { byPeriod[book.fields[InvoiceBookField.period]?.stringValue ?? "", default: []].append(book) }
        let reported = byPeriod.filter { !$0.key.isEmpty && InvoiceDesk.blankFiles(of: $0.value) != nil }.keys.sorted()
        guard !reported.isEmpty else { return [] }
        var ordersInBase: Set<String>?
        var reports: [InvoiceReport] = []
        for period in reported {
            let inPeriod = FormulaExpression.field(EInvoiceField.period) == .text(period)
            let invoices: [Record]
            do {
                invoices = try await base.allRecords(in: ShopSchema.einvoiceTable, query: ListQuery(filterByFormula: inPeriod.description))
            } catch {
                throw .store(error)
            }
            guard !invoices.isEmpty else { continue }
            if ordersInBase == nil {
                do {
                    ordersInBase = Set(try await base.allRecords(in: ShopSchema.orderTable, query: ListQuery(fields: [OrderField.orderRef.rawValue]))
                        .compactMap { $0.fields[OrderField.orderRef]?.stringValue })
                } catch {
                    throw .store(error)
                }
            }
            let moving = invoices.filter { !(ordersInBase ?? []).contains($0.fields[EInvoiceField.orderRef]?.stringValue ?? "") }
            guard !moving.isEmpty else { continue }
            let numbers = Set(moving.compactMap { $0.fields[EInvoiceField.number]?.stringValue })
            let claims: [Record]
            do {
                claims = try await base.allRecords(in: ShopSchema.proofPrintTable)
            } catch where error.isNotFound {
                claims = []  // a base set up before proofs' prints were claimed (`drinkshop setup` adds the table)
            } catch {
                throw .store(error)
            }
            let movingClaims = claims.filter { numbers.contains($0.fields[ProofPrintField.key]?.stringValue ?? "") }
            // The invoices first: a claim whose invoice is archived is read back from the archive too.
            try await archive.keepVerified(moving, in: ShopSchema.einvoiceTable, readBack: ListQuery(filterByFormula: inPeriod.description))
            try await archive.keepVerified(movingClaims, in: ShopSchema.proofPrintTable, readBack: ListQuery())
            try await remove(movingClaims.map(\.id), from: ShopSchema.proofPrintTable)
            try await remove(moving.map(\.id), from: ShopSchema.einvoiceTable)
            reports.append(InvoiceReport(period: period, invoices: moving.count, proofPrints: movingClaims.count,
                                         kept: invoices.count - moving.count))
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
