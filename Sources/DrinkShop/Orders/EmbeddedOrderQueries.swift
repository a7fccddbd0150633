import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The order queries on the embedded store: each one a lookup by its indexes (a day, a number, a status),
/// read afresh every time, since a read costs no request; nothing is kept between reads.
struct EmbeddedOrderQueries: OrderQueries {
    let records: OrderRecords

    /// Today's lines and the open orders of earlier days, by the indexes of days and of open orders.
    func todaysRecords(_ today: BusinessDay) async throws(ShopError) -> [Record] {
        var seen = Set<String>()
        return (try await onDay(today) + (try await open()).filter {
            ($0.fields[OrderField.businessDay]?.stringValue ?? today.description) < today.description
        }).filter { seen.insert($0.id).inserted }
    }

    /// A day at a time by the index of days (a range would be a scan of every order); more than a year of
    /// days in one filtered listing.
    func auditedRecords(in days: DayRange) async throws(ShopError) -> [Record] {
        guard days.count <= 367 else { return try await records.list(Self.audited(in: days), fields: Self.auditFields) }
        var found: [Record] = []
        for day in days { found += try await records.list(Self.audited(onDay: day), fields: Self.auditFields) }
        return found
    }

    /// One listing for both (a month's report read each day's lines twice, parsing each record each time):
    /// the records of the day or created in its hours, by the indexes of days and of creation times, then
    /// told apart by the very formulas the two queries send (`OrderQueries.onDayFormulas`, `createdFormula`),
    /// evaluated by the formula language's evaluator (`CompiledFormula`, which LocalBase filters with), so no
    /// rule of the store's (blank cells, creation bounds) is copied here. Each list keeps the listing's order,
    /// `onDay`'s as its two listings gave it. A day whose hours are not the piece's is read as the two queries.
    func onDayAndCreated(_ day: BusinessDay, from start: Date, to end: Date) async throws(ShopError)
        -> (onDay: [Record], created: [Record])
    {
        let bounds = records.clock.bounds(of: day)
        guard bounds.start == start, bounds.end == end else {
            return (try await onDay(day), try await created(from: start, to: end))
        }
        let (ofDay, blankOfDay) = Self.onDayFormulas(day, bounds: bounds)
        let inHours = Self.createdFormula(from: start, to: end)
        let schema: BaseSchema
        do { schema = try await records.store.schema() } catch { throw .store(error) }
        guard let fields = schema.table(ShopSchema.orderTable)?.fields,
              let isOfDay = try? CompiledFormula(ofDay, fields: fields),
              let isBlankOfDay = try? CompiledFormula(blankOfDay, fields: fields),
              let isInHours = try? CompiledFormula(inHours, fields: fields)
        else {
            return (try await onDay(day), try await created(from: start, to: end))
        }
        let read = try await records.list(.or([ofDay, inHours]))
        let now = records.clock.now()
        var ofDayRecords: [Record] = [], blank: [Record] = [], created: [Record] = []
        for record in read {
            let seen = FormulaRecord(record, fields: fields, now: now)
            if isOfDay.matches(seen) {
                ofDayRecords.append(record)
            } else if isBlankOfDay.matches(seen) {
                blank.append(record)
            }
            if isInHours.matches(seen) { created.append(record) }
        }
        return (ofDayRecords + blank, created)
    }

    /// The lines placed, being made or ready, from one listing through the partial index of open orders
    /// (`OrderRecords.openFormula`, the lines neither picked up nor cancelled), less those whose status is
    /// none of the three (blank, or another client's word): the answer a listing per status gives.
    func open() async throws(ShopError) -> [Record] {
        try await records.list(OrderRecords.openFormula).filter { record in
            guard let status = record.fields[OrderField.status]?.stringValue.flatMap(OrderStatus.init(rawValue:)) else { return false }
            return !status.isFinal
        }
    }

    func copyOfToday(_ today: BusinessDay) -> TodaysCopy { .readAgain }
    func keep(_ written: [Record], day: BusinessDay, sent: Date?, answered: Date?) {}
    func forget(_ ids: [String]) {}

}
