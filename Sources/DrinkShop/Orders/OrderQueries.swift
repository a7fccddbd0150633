import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The questions the shop asks of its orders (the `OrderDrink` table), behind one interface with one
/// answer per kind of store, chosen once when the shop is built (`orderQueries(over:)`, by the store's `CommitStrategy`):
/// - `EmbeddedOrderQueries`: the embedded store, read by its indexes, every read fresh (a read costs
///   no request);
/// - `RemoteOrderQueries`: a base over the API, where every request counts: one filtered request per
///   question, today's list kept as this counter's copy (`OrderDayCache`).
///
/// What both answer the same way (a number, a day, the open orders, what was created in a range) is
/// written once, in the extension below. The services ask these and never which store they run on.
///
/// How a number is resolved: `#6` is today's #6; if today has none, the #6 of an earlier day that is
/// still open (placed, being made or ready); if several earlier days left a #6 open, staff are asked to
/// say which (`#6@2026-11-30`). `#6@2026-11-30` names that day's #6, open or not.
protocol OrderQueries: Sendable {
    /// The table: its field names, formulas and writes.
    var records: OrderRecords { get }

    /// The records of today's list: today's lines (another client's too) and the open orders of earlier days.
    func todaysRecords(_ today: BusinessDay) async throws(ShopError) -> [Record]

    /// The records holding audit entries of the business days `days` (more than one).
    func auditedRecords(in days: DayRange) async throws(ShopError) -> [Record]

    /// `report`'s reading of business day `day`: the records `onDay(day)` gives and those `created(from:to:)`
    /// gives for the day's piece `start` to `end` of the till's period, each list as that query answers it.
    func onDayAndCreated(_ day: BusinessDay, from start: Date, to end: Date) async throws(ShopError)
        -> (onDay: [Record], created: [Record])

    /// What this counter holds of today's list without asking the store.
    func copyOfToday(_ today: BusinessDay) -> TodaysCopy

    /// Records this counter just wrote on `day`, as the store answered; for a new order, also when its write
    /// was sent and answered (this counter's clock), which tells how far the store's clock is from it.
    func keep(_ written: [Record], day: BusinessDay, sent: Date?, answered: Date?)

    /// Records this counter deleted.
    func forget(_ ids: [String])

    /// The records of every open order (placed, being made, ready), of any day.
    func open() async throws(ShopError) -> [Record]
}

/// What a counter holds of today's list without a request (`OrderQueries.copyOfToday`).
enum TodaysCopy {
    /// The store keeps no copy because reading it again costs no request: read it.
    case readAgain
    /// Not read yet today.
    case notYet
    /// The list as last read and since kept up by this counter's own writes.
    case kept([Record])
}

/// The queries of the kind of store `records` is on, as its commit strategy says: the embedded one when it
/// commits several writes as one (a LocalBase, also behind the archive's reads), a remote base otherwise.
/// Chosen once per shop.
func orderQueries(over records: OrderRecords) -> any OrderQueries {
    records.commits.orderQueries(over: records)
}

extension OrderQueries {
    /// The records with pickup number `number` that are today's or still open.
    func withNumber(_ number: Int, today: BusinessDay) async throws(ShopError) -> [Record] {
        try await records.list(OrderRecords.withNumberFormula(number, today: today.description))
    }

    /// The records of the order kept as `counter`-P`number` (`#A-P1`) and sent since, today's or still open.
    func kept(_ number: Int, counter: String, today: BusinessDay) async throws(ShopError) -> [Record] {
        try await records.list(OrderRecords.keptFormula(number, counter: counter, today: today.description))
    }

    /// The records of `day`'s order `number`.
    func number(_ number: Int, onDay day: BusinessDay) async throws(ShopError) -> [Record] {
        try await records.list(.and([.field(OrderField.pickupNumber) == .int(number),
                                     .field(OrderField.businessDay) == .text(day.description)]))
    }

    /// The records of business day `day`: those the shop wrote with that day, and lines another client
    /// (the KEBUKE app) created within the day's hours without one.
    func onDay(_ day: BusinessDay) async throws(ShopError) -> [Record] {
        let (ofDay, blankOfDay) = Self.onDayFormulas(day, bounds: records.clock.bounds(of: day))
        var found = try await records.list(ofDay)
        found += try await records.list(blankOfDay)
        return found
    }

    /// `onDay`'s two formulas: the lines written with `day`, and the lines without a business day created
    /// within its hours `bounds`.
    static func onDayFormulas(_ day: BusinessDay, bounds: (start: Date, end: Date)) -> (ofDay: FormulaExpression,
                                                                                       blankOfDay: FormulaExpression)
    {
        (.field(OrderField.businessDay) == .text(day.description),
         .and(FormulaExpression.inRange(.createdTime, from: bounds.start, to: bounds.end) + [.field(OrderField.businessDay) == .blank]))
    }

    /// `created(from:to:)`'s formula.
    static func createdFormula(from start: Date, to end: Date) -> FormulaExpression {
        .and(FormulaExpression.inRange(.createdTime, from: start, to: end))
    }

    /// `onDayAndCreated` as the two queries it stands for, one after the other.
    func onDayAndCreated(_ day: BusinessDay, from start: Date, to end: Date) async throws(ShopError)
        -> (onDay: [Record], created: [Record])
    {
        (try await onDay(day), try await created(from: start, to: end))
    }

    /// The records of every open order (placed, being made, ready), of any day: a listing per status.
    func open() async throws(ShopError) -> [Record] {
        var found: [Record] = []
        for status in OrderStatus.allCases where !status.isFinal {
            found += try await records.list(.field(OrderField.status) == .text(status.rawValue))
        }
        return found
    }

    /// The records created at or after `start` and before `end` (the till's periods, a day at a time).
    func created(from start: Date, to end: Date) async throws(ShopError) -> [Record] {
        try await records.list(Self.createdFormula(from: start, to: end))
    }

    /// The audit entries kept on the orders of the business days `days` (an order's entries are of its own
    /// day: `OrderDesk` sends those of an earlier day's order to the AuditLog table).
    func auditEntries(in days: DayRange) async throws(ShopError) -> [AuditEntry] {
        let found = days.isOneDay ? try await records.list(Self.audited(onDay: days.first), fields: Self.auditFields) : try await auditedRecords(in: days)
        var seen = Set<String>()
        return found.flatMap { record -> [AuditEntry] in
            // Every line of an order carries the same cell: one line's is read.
            guard seen.insert(record.fields[OrderField.orderRef]?.stringValue ?? record.id).inserted else { return [] }
            return OrderAuditCell.entries(record.fields[OrderField.audit]?.stringValue)
        }
    }

    /// The only cells the audit entries need (both named by the formulas below): a report reads a month of lines.
    static var auditFields: [String] { [OrderField.orderRef.rawValue, OrderField.audit.rawValue] }

    /// The records of `day` with audit entries.
    static func audited(onDay day: BusinessDay) -> FormulaExpression { audited(onDay: day.description) }

    /// The records of the day written `day` with audit entries (`prepareLookups` asks with a day no record has:
    /// on the embedded store a partial index of the lines with entries answers it).
    static func audited(onDay day: String) -> FormulaExpression {
        .and([.field(OrderField.businessDay) == .text(day), .field(OrderField.audit) != .blank])
    }

    /// The records of `days` with audit entries, in one formula.
    static func audited(in days: DayRange) -> FormulaExpression {
        let day = FormulaExpression.field(OrderField.businessDay)
        return .and([day >= .text(days.first.description), day <= .text(days.last.description), .field(OrderField.audit) != .blank])
    }
}
