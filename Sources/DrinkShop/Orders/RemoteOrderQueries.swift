import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// The order queries on a base over the API, where every request counts against the plan: each question
/// one filtered request, and today's list kept as this counter's copy (`OrderDayCache`), so a look at it
/// asks only what changed since the last one, the whole list now and then.
struct RemoteOrderQueries: OrderQueries {
    let records: OrderRecords
    /// This counter's copy of today's list.
    let dayCache = OrderDayCache()

    func todaysRecords(_ today: BusinessDay) async throws(ShopError) -> [Record] {
        let clock = records.clock
        let began = clock.now()
        var list: [Record]
        if let since = dayCache.changesSince(day: today, now: began),
           let merged = dayCache.merge(day: today, changed: try await modified(after: since), began: began,
                                       belongs: { belongsToToday($0, today: today) })
        {
            list = merged
        } else {
            list = try await todaysList(today)
            dayCache.replace(day: today, with: list, began: began)
        }
        list.sort { ($0.createdTime, $0.id) < ($1.createdTime, $1.id) }
        return list
    }

    /// One filtered listing for the range.
    func auditedRecords(in days: DayRange) async throws(ShopError) -> [Record] {
        try await records.list(Self.audited(in: days), fields: Self.auditFields)
    }

    func copyOfToday(_ today: BusinessDay) -> TodaysCopy {
        dayCache.lastList(day: today).map(TodaysCopy.kept) ?? .notYet
    }

    func keep(_ written: [Record], day: BusinessDay, sent: Date?, answered: Date?) {
        if let sent, let answered, let created = written.map(\.createdTime).max() {
            dayCache.observe(created: created, sent: sent, answered: answered)
        }
        dayCache.keep(written, day: day)
    }

    func forget(_ ids: [String]) { dayCache.remove(ids) }

    /// Whether `record` is on the list of `today`: that day's lines, lines another client created within
    /// the day without a business day, and the open orders of earlier days.
    func belongsToToday(_ record: Record, today: BusinessDay) -> Bool {
        // The cell's text, compared as stored: days as YYYY-MM-DD sort as their text.
        let day = record.fields[OrderField.businessDay]?.stringValue ?? ""
        if day == today.description { return true }
        if day.isEmpty {
            let (start, end) = records.clock.bounds(of: today)
            return record.createdTime >= start && record.createdTime < end
        }
        guard day < today.description, let status = record.fields[OrderField.status]?.stringValue.flatMap(OrderStatus.init(rawValue:))
        else { return false }
        return !status.isFinal
    }

    /// The whole list of `today` in one listing (one request per 100 records).
    func todaysList(_ today: BusinessDay) async throws(ShopError) -> [Record] {
        var parts: [FormulaExpression] = [.field(OrderField.businessDay) == .text(today.description)]
        let (start, end) = records.clock.bounds(of: today)
        parts.append(.and(FormulaExpression.inRange(.createdTime, from: start, to: end) + [.field(OrderField.businessDay) == .blank]))
        for status in OrderStatus.allCases where !status.isFinal {
            parts.append(.and([.field(OrderField.status) == .text(status.rawValue),
                               .field(OrderField.businessDay) != .blank, .field(OrderField.businessDay) != .text(today.description)]))
        }
        let found = try await records.list(.or(parts))
        return found.filter { belongsToToday($0, today: today) }
    }

    /// The order records of any day modified after `since`.
    func modified(after since: Date) async throws(ShopError) -> [Record] {
        try await records.list(.call("IS_AFTER", [.call("LAST_MODIFIED_TIME", []), .date(since)]))
    }
}
