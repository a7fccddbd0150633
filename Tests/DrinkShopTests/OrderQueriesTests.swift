import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import TestSupport
import Testing

/// `OrderQueries`: the embedded answer (indexes, transactions) and the remote one (one formula per question,
/// today's list kept as a copy) give the same orders for the same records.
@Suite struct OrderQueriesTests {
    /// The same base seen as a remote one: it forwards every call but does not promise the base's commits
    /// (not a `WrappingRecordStore`), as a base over the API cannot.
    struct OverTheAPI: ForwardingRecordStore {
        let underlying: any RecordStore
    }

    let clock = TestClock(TestClock.noon)
    let base: LocalBase
    let embedded: any OrderQueries
    let remote: any OrderQueries

    init() async throws {
        let clock = clock
        base = try LocalBase.inMemory(clock: clock.date)
        try await Shop(store: base, clock: clock.shopClock).createMissingSchema()
        embedded = orderQueries(over: OrderRecords(store: base, clock: clock.shopClock, commits: commitStrategy(over: base)))
        let overTheAPI = OverTheAPI(underlying: base)
        remote = orderQueries(over: OrderRecords(store: overTheAPI, clock: clock.shopClock,
                                                 commits: commitStrategy(over: overTheAPI)))
    }

    /// Lines of three days (today is 2026-11-29): open and finished, two with audit entries, and a line
    /// another client wrote today without a business day or number.
    func addOrders() async throws {
        let audit = OrderAuditCell.appending([AuditEntry(at: TestClock.noon, by: "Ken", action: .cancelOrder, subject: "#2",
                                                         detail: "customer left")], to: nil)
        let earlier = [("2026-11-27", 2, "placed", nil), ("2026-11-28", 1, "pickedUp", audit), ("2026-11-28", 2, "ready", nil)]
        let today = [("2026-11-29", 1, "placed", nil), ("2026-11-29", 1, "placed", nil), ("2026-11-29", 2, "cancelled", audit),
                     ("2026-11-29", 3, "preparing", nil)]
        clock.advance(by: -2 * 86_400)
        for (index, (day, number, status, cell)) in (earlier + today).enumerated() {
            if index == 1 || index == earlier.count { clock.advance(by: 86_400) }
            var fields: Fields = ["drinkName": "熟成紅茶", "businessDay": .string(day), "pickupNumber": .int(number),
                                  "status": .string(status), "orderRef": .string("\(day)#\(number)")]
            if let cell { fields["audit"] = .string(cell) }
            _ = try await base.createRecord(in: ShopSchema.orderTable, fields, options: WriteOptions(typecast: true))
            clock.advance(by: 60)
        }
        _ = try await base.createRecord(in: ShopSchema.orderTable, ["drinkName": "冷露歐蕾", "orderName": "app"])
    }

    static func ids(_ records: [Record]) -> [String] { records.map(\.id).sorted() }

    @Test func theEmbeddedStoreGetsTheEmbeddedAnswerAndABaseOverTheAPITheRemoteOne() {
        #expect(embedded is EmbeddedOrderQueries && remote is RemoteOrderQueries)
        #expect(embedded.copyOfToday("2026-11-29").isReadAgain && !remote.copyOfToday("2026-11-29").isReadAgain)
    }

    @Test func bothAnswerEveryQuestionWithTheSameRecords() async throws {
        try await addOrders()
        let today: BusinessDay = "2026-11-29"
        for number in 1...3 {
            let found = try await embedded.withNumber(number, today: today)
            #expect(Self.ids(found) == Self.ids(try await remote.withNumber(number, today: today)))
            for day: BusinessDay in ["2026-11-27", "2026-11-28", today] {
                #expect(Self.ids(try await embedded.number(number, onDay: day)) == Self.ids(try await remote.number(number, onDay: day)))
            }
        }
        // Today's #2 (cancelled), the 27th's open #2, the 28th's ready #2.
        #expect(try await embedded.withNumber(2, today: today).count == 3)
        for day: BusinessDay in ["2026-11-27", "2026-11-28", today] {
            #expect(Self.ids(try await embedded.onDay(day)) == Self.ids(try await remote.onDay(day)))
        }
        #expect(try await embedded.onDay(today).count == 5)  // four lines and the app's
        #expect(Self.ids(try await embedded.open()) == Self.ids(try await remote.open()))
        #expect(try await embedded.open().count == 5)
        let (start, end) = clock.shopClock.dayBounds(of: clock.now)
        #expect(Self.ids(try await embedded.created(from: start, to: end)) == Self.ids(try await remote.created(from: start, to: end)))
        #expect(try await embedded.created(from: start.addingTimeInterval(-86_400), to: end).count == 7)

        let range = try await embedded.auditEntries(in: DayRange("2026-11-27", through: today))
        #expect(range.map(\.detail) == ["customer left", "customer left"])
        #expect(range.map(\.subject) == (try await remote.auditEntries(in: DayRange("2026-11-27", through: today))).map(\.subject))
        #expect(try await embedded.auditEntries(in: DayRange(today)).count == 1)
        #expect(try await remote.auditEntries(in: DayRange(today)).count == 1)
    }

    /// `report`'s one listing per day tells its records apart as the two queries it stands for: in their
    /// order, with a line created today for an earlier day's order, another client's line of yesterday,
    /// and lines at the very first and last millisecond of the day.
    @Test func theReportsReadingOfADayIsTheDaysRecordsAndThoseCreatedInIt() async throws {
        try await addOrders()
        _ = try await base.createRecord(in: ShopSchema.orderTable, ["drinkName": "熟成紅茶", "businessDay": "2026-11-28",
                                                                   "orderRef": "2026-11-28#1", "pickupNumber": 1])
        let (start, end) = clock.shopClock.dayBounds(of: clock.now)
        for at in [start, end.addingTimeInterval(-0.001), end, start.addingTimeInterval(-86_400 / 2)] {
            clock.set(at)
            _ = try await base.createRecord(in: ShopSchema.orderTable, ["drinkName": "冷露歐蕾", "orderName": "app"])
        }
        for day: BusinessDay in ["2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"] {
            let (dayStart, dayEnd) = clock.shopClock.bounds(of: day)
            let one = try await embedded.onDayAndCreated(day, from: dayStart, to: dayEnd)
            #expect(one.onDay.map(\.id) == (try await embedded.onDay(day)).map(\.id))
            #expect(one.created.map(\.id) == (try await embedded.created(from: dayStart, to: dayEnd)).map(\.id))
            let two = try await remote.onDayAndCreated(day, from: dayStart, to: dayEnd)
            #expect(one.onDay.map(\.id) == two.onDay.map(\.id) && one.created.map(\.id) == two.created.map(\.id))
        }
        let today = try await embedded.onDayAndCreated("2026-11-29", from: start, to: end)
        #expect(today.onDay.count == 7 && today.created.count == 8)  // four lines and three of the app's; the 28th's line too
    }

    @Test func todaysListIsTheSameFreshAndFromTheRemoteCopy() async throws {
        try await addOrders()
        let today: BusinessDay = "2026-11-29"
        let fresh = Self.ids(try await embedded.todaysRecords(today))
        // Today's five lines, and the open #2s of the 27th and the 28th.
        #expect(fresh.count == 7)
        #expect(fresh == Self.ids(try await remote.todaysRecords(today)))
        // Another counter finishes the 28th's #2 and takes a new order; the copy learns only what changed.
        clock.advance(by: 10)
        let ready = try #require(try await embedded.number(2, onDay: "2026-11-28").first)
        _ = try await base.updateRecords(in: ShopSchema.orderTable, [RecordUpdate(id: ready.id, fields: ["status": "pickedUp"])],
                                         replace: false, options: WriteOptions(typecast: true))
        _ = try await base.createRecord(in: ShopSchema.orderTable, ["drinkName": "熟成紅茶", "businessDay": "2026-11-29",
                                                                   "pickupNumber": 4, "status": "placed"],
                                        options: WriteOptions(typecast: true))
        let after = Self.ids(try await embedded.todaysRecords(today))
        #expect(after.count == 7 && !after.contains(ready.id))
        #expect(after == Self.ids(try await remote.todaysRecords(today)))
        guard case .kept(let copy) = remote.copyOfToday(today) else {
            Issue.record("the remote queries kept no copy of today")
            return
        }
        #expect(Self.ids(copy) == after)
    }
}

extension TodaysCopy {
    var isReadAgain: Bool {
        if case .readAgain = self { return true }
        return false
    }
}
