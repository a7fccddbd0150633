import Airtable
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

    func copyOfToday(_ today: BusinessDay) -> TodaysCopy { .readAgain }
    func keep(_ written: [Record], day: BusinessDay, sent: Date?, answered: Date?) {}
    func forget(_ ids: [String]) {}

}
