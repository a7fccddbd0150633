import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The `Shift` table: the only code that knows its fields. A shift without `closedAt` is the open one.
struct ShiftRecords: Sendable {
    let store: any RecordStore

    struct Stored: Sendable {
        var id: String
        var shift: Shift
    }

    static let openFormula = (FormulaExpression.call("LEN", [.call("CONCATENATE", [.field(ShiftField.closedAt)])]) == .int(0))
        .description

    /// The open shift, if any (the latest one opened when a store holds several).
    func open() async throws(TillError) -> Stored? {
        let records: [Record]
        do {
            records = try await store.allRecords(in: ShopSchema.shiftTable, query: ListQuery(filterByFormula: Self.openFormula))
        } catch {
            throw .shop(.store(error))
        }
        return try Self.latest(records)
    }

    /// The open shift read inside an atomic commit (nil: none, or one whose opening cannot be read).
    static func open(in transaction: any RecordTransaction) throws(AirtableError) -> Stored? {
        let page = try transaction.listRecords(in: ShopSchema.shiftTable, query: ListQuery(filterByFormula: openFormula))
        return try? latest(page.records)
    }

    /// The cells that close shift `count.shift` with its count.
    static func closing(_ count: DrawerCount) -> Fields {
        Fields([
            ShiftField.closedBy: .string(count.closedBy), .closedAt: .string(AirtableTimestamp.format(count.closedAt)),
            .expected: .int(count.expected), .counted: .int(count.counted), .difference: .int(count.difference),
        ])
    }

    /// The cells that open a closed shift again (its close cells emptied): an undone close.
    static let reopening = Fields([
        ShiftField.closedBy: .null, .closedAt: .null, .expected: .null, .counted: .null, .difference: .null,
    ])

    private static func latest(_ records: [Record]) throws(TillError) -> Stored? {
        var shifts: [Stored] = []
        for record in records {
            let cells = record.fields
            guard let by = cells[ShiftField.openedBy]?.stringValue,
                  let atText = cells[ShiftField.openedAt]?.stringValue, let at = AirtableTimestamp.parse(atText),
                  let float = cells[ShiftField.float]?.intValue, let shift = try? Shift(openedBy: by, openedAt: at, float: float)
            else {
                throw .shop(.storedData("record \(record.id) in table Shift lacks openedBy, openedAt or a whole-number float"))
            }
            shifts.append(Stored(id: record.id, shift: shift))
        }
        return shifts.max { $0.shift.openedAt < $1.shift.openedAt }
    }

    func add(_ shift: Shift, day: BusinessDay) async throws(TillError) {
        let cells = Fields([
            ShiftField.ref: .string(AirtableID.make("sft")), .businessDay: .string(day.description),
            .openedBy: .string(shift.openedBy), .openedAt: .string(AirtableTimestamp.format(shift.openedAt)),
            .float: .int(shift.float),
        ])
        do {
            _ = try await store.createRecord(in: ShopSchema.shiftTable, cells, options: WriteOptions(typecast: true))
        } catch {
            throw .shop(.store(error))
        }
    }

    /// A shift as recorded, open or closed.
    struct Recorded: Sendable {
        var shift: Shift
        /// Nil while the shift is open.
        var closedAt: Date?
        /// The drawer count, once closed.
        var count: DrawerCount?
    }

    /// Every shift whose opening can be read (a record without one is left out, as the report leaves it),
    /// or only those `formula` keeps.
    func all(_ formula: FormulaExpression? = nil) async throws(TillError) -> [Recorded] {
        let records: [Record]
        do {
            records = try await store.allRecords(in: ShopSchema.shiftTable,
                                                 query: ListQuery(filterByFormula: formula?.description))
        } catch {
            throw .shop(.store(error))
        }
        var result: [Recorded] = []
        for record in records {
            let c = record.fields
            guard let by = c[ShiftField.openedBy]?.stringValue, let atText = c[ShiftField.openedAt]?.stringValue,
                  let at = AirtableTimestamp.parse(atText), let float = c[ShiftField.float]?.intValue,
                  let shift = try? Shift(openedBy: by, openedAt: at, float: float)
            else { continue }
            let closedAt = c[ShiftField.closedAt]?.stringValue.flatMap(AirtableTimestamp.parse)
            var count: DrawerCount?
            if let closedAt, let expected = c[ShiftField.expected]?.intValue, let counted = c[ShiftField.counted]?.intValue {
                count = DrawerCount(shift: shift, expected: expected, counted: counted,
                                    closedBy: c[ShiftField.closedBy]?.stringValue ?? "", closedAt: closedAt)
            }
            result.append(Recorded(shift: shift, closedAt: closedAt, count: count))
        }
        return result.sorted { $0.shift.openedAt < $1.shift.openedAt }
    }

    /// Shifts closed in `start..<end` (for the report): asked by their close time, so a report reads the
    /// period's shifts, not every shift the store has kept.
    func closed(from start: Date, to end: Date) async throws(TillError) -> [DrawerCount] {
        try await all(.and(FormulaExpression.inRange(.field(ShiftField.closedAt), from: start, to: end)))
            .compactMap(\.count).filter { $0.closedAt >= start && $0.closedAt < end }.sorted { $0.closedAt < $1.closedAt }
    }
}
