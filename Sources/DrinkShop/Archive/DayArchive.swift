import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation
import Synchronization

/// The tables whose records belong to one business day (each has a `businessDay` field): what archiving a
/// closed day moves. Pickup tickets are moved too but never read back (a closed day's numbers are spent).
public enum DayTables {
    /// In the order a day is archived: order lines first (they say which orders are still open), tickets last.
    public static let archived: [TableSpec] = [
        ShopSchema.order, ShopSchema.orderTill, ShopSchema.payment, ShopSchema.shift, ShopSchema.audit, ShopSchema.ticket,
    ]
    /// The invoices and their proofs' print claims, moved a period at a time once its blank numbers are reported
    /// (`DayArchiver.archiveReportedInvoices`).
    public static let invoiceTables: [TableSpec] = [ShopSchema.einvoice, ShopSchema.proofPrint]
    /// The tables whose reads also see the archive.
    static let readBack: Set<String> = [
        ShopSchema.orderTable, ShopSchema.orderTillTable, ShopSchema.paymentTable, ShopSchema.shiftTable, ShopSchema.auditTable,
        ShopSchema.einvoiceTable, ShopSchema.proofPrintTable,
    ]
    /// The field every day table keys its day by (the same name in each).
    static let dayField = "businessDay"
}

/// `ArchivedDay`: one record per archived business day (what was moved, when).
enum ArchivedDayField: String, ShopField {
    case day, records, kept, archivedAt
}

/// The archive of closed days: a local base (a LocalBase file beside the store or in the data directory)
/// holding the day tables with the same fields, records kept under their own ids and creation times, and
/// `ArchivedDay`, the list of days archived. Reports read it for days the remote base no longer holds.
public final class DayArchive: Sendable {
    static let dayTable = "ArchivedDay"
    static let daySpec = TableSpec(name: dayTable, description: "Business days archived from the shop's base", fields: [
        FieldSpec(ArchivedDayField.day, .singleLineText),
        FieldSpec(ArchivedDayField.records, .number, description: "Records moved from the base", options: ShopSchema.money),
        FieldSpec(ArchivedDayField.kept, .number, description: "Records left in the base (orders still open)",
                  options: ShopSchema.money),
        FieldSpec(ArchivedDayField.archivedAt, .dateTime, options: ShopSchema.dateTimeOptions),
    ])

    /// Where the archive lives, for messages.
    public let location: String
    private let opener: @Sendable () async throws(AirtableError) -> any RecordKeeping
    private let fileExists: @Sendable () -> Bool
    private let opened = Mutex<(any RecordKeeping)?>(nil)

    /// An archive already open (tests, or a caller that opened the file itself).
    public convenience init(store: any RecordKeeping, location: String) {
        self.init(location: location, exists: { true }, open: { store })
    }

    /// An archive opened (and its file created) only when first needed: a store that never archives
    /// gets no file.
    /// - Parameters:
    ///   - exists: whether the archive has been started (its file exists), so reads look in it.
    ///   - open: opens (or creates) the archive's base.
    public init(location: String, exists: @escaping @Sendable () -> Bool,
                open: @escaping @Sendable () async throws(AirtableError) -> any RecordKeeping) {
        self.location = location
        self.fileExists = exists
        self.opener = open
    }

    /// Whether there is anything to read: the archive was opened, or its file exists.
    var isStarted: Bool { opened.withLock { $0 != nil } || fileExists() }

    /// The archive's base, opened and prepared on first use.
    func store() async throws(ShopError) -> any RecordKeeping {
        if let store = opened.withLock({ $0 }) { return store }
        let store: any RecordKeeping
        do { store = try await opener() } catch { throw .store(error) }
        try await Self.prepare(store)
        return opened.withLock { current in
            if let current { return current }
            current = store
            return store
        }
    }

    /// Creates the archive's tables and fields when missing (an archive made by an earlier version gains
    /// the fields added since; nothing is renamed or dropped). `store()` does it on first use; an opener
    /// may do it first under a lock of its own, so two processes starting one archive do not both create.
    public static func prepare(_ store: any RecordKeeping) async throws(ShopError) {
        do {
            let schema = try await store.schema()
            for spec in DayTables.archived + DayTables.invoiceTables + [DayArchive.daySpec] {
                guard let table = schema.table(spec.name) else {
                    _ = try await store.createTable(spec)
                    continue
                }
                for field in spec.fields where table.field(field.name) == nil {
                    _ = try await store.createField(in: table.id, field)
                }
            }
        } catch {
            throw .store(error)
        }
    }

    /// The days archived so far, oldest first, with how many records each moved.
    public func days() async throws(ShopError) -> [(day: BusinessDay, records: Int)] {
        guard isStarted else { return [] }
        let store = try await store()
        let records: [Record]
        do { records = try await store.allRecords(in: DayArchive.dayTable) } catch { throw .store(error) }
        return records.compactMap { record in
            guard let day = record.fields[ArchivedDayField.day]?.stringValue.flatMap({ try? BusinessDay($0) }) else { return nil }
            return (day, record.fields[ArchivedDayField.records]?.intValue ?? 0)
        }.sorted { $0.day < $1.day }
    }

    /// Keeps `records` of `table`, then reads them back: the copies must hold exactly the cells the base
    /// answered, or nothing may be removed from the base.
    func keepVerified(_ records: [Record], in table: String, day: BusinessDay) async throws(ShopError) {
        let formula = FormulaExpression.field(DayTables.dayField) == .text(day.description)
        try await keepVerified(records, in: table, readBack: ListQuery(filterByFormula: formula.description))
    }

    /// Keeps `records` of `table`, then reads them back with `readBack` (which must find them all): the copies
    /// must hold exactly the cells the base answered, or nothing may be removed from the base.
    func keepVerified(_ records: [Record], in table: String, readBack: ListQuery) async throws(ShopError) {
        guard !records.isEmpty else { return }
        let store = try await store()
        let stored: [Record]
        do {
            try await store.keepRecords(in: table, records)
            stored = try await store.allRecords(in: table, query: readBack)
        } catch {
            throw .store(error)
        }
        let copies = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for record in records {
            guard let copy = copies[record.id], copy.createdTime == record.createdTime,
                  copy.fields == record.fields.filter({ !$0.value.isNull })
            else {
                throw .archive(.copyDiffers(table: table, record: record.id, location: location))
            }
        }
    }

    /// Notes `day` as archived (moved records added to what earlier runs moved; `kept` replaced).
    func noteArchived(_ day: BusinessDay, moved: Int, kept: Int, at date: Date) async throws(ShopError) {
        let store = try await store()
        do {
            let formula = FormulaExpression.field(ArchivedDayField.day) == .text(day.description)
            let earlier = try await store.allRecords(in: DayArchive.dayTable, query: ListQuery(filterByFormula: formula.description))
            let before = earlier.first?.fields[ArchivedDayField.records]?.intValue ?? 0
            _ = try await store.upsertRecords(in: DayArchive.dayTable, [UpsertRecord(fields: Fields([
                ArchivedDayField.day: .string(day.description), .records: .int(before + moved), .kept: .int(kept),
                .archivedAt: .string(AirtableTimestamp.format(date)),
            ]))], mergeOn: [ArchivedDayField.day.rawValue], replace: false, options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }
}
