import Airtable
import AirtableFormula
import Foundation
import LocalBase
import Testing
import TestSupport

@Suite struct ListTests {
    /// A base with `count` orders named "drink 1" ... in creation order, qty = n.
    private func baseWith(_ count: Int, clock: TestClock = TestClock(), lifetime: Duration = .seconds(600))
        async throws -> LocalBase
    {
        let (base, _) = try await makeOrdersBase(clock: clock, iteratorLifetime: lifetime)
        let records: [Fields] = (1...count).map { ["name": .string("drink \($0)"), "qty": .int($0)] }
        _ = try await base.createRecords(in: "Orders", records, options: WriteOptions())
        return base
    }

    private func qtys(_ records: [Record]) -> [Int] { records.compactMap { $0.fields["qty"]?.intValue } }

    @Test func pagesThroughHundredsInCreationOrder() async throws {
        let base = try await baseWith(250)
        var pages: [Int] = []
        var all: [Record] = []
        var query = ListQuery(pageSize: 40)
        while true {
            let page = try await base.listRecords(in: "Orders", query: query)
            pages.append(page.records.count)
            all += page.records
            guard let offset = page.offset else { break }
            let parts = offset.split(separator: "/")
            #expect(parts.count == 2 && AirtableID.isValid(String(parts[0]), prefix: "itr"))
            #expect(String(parts[1]) == page.records.count.description || AirtableID.isValid(String(parts[1]), prefix: "rec"))
            query.offset = offset
        }
        #expect(pages == [40, 40, 40, 40, 40, 40, 10])
        #expect(qtys(all) == Array(1...250))
    }

    @Test func defaultPageIsOneHundred() async throws {
        let base = try await baseWith(101)
        let page = try await base.listRecords(in: "Orders", query: ListQuery())
        #expect(page.records.count == 100)
        #expect(page.offset != nil)
        let last = try await base.listRecords(in: "Orders", query: ListQuery(offset: page.offset))
        #expect(qtys(last.records) == [101])
        #expect(last.offset == nil)
    }

    @Test func maxRecordsCapsAcrossPages() async throws {
        let base = try await baseWith(60)
        let all = try await base.allRecords(in: "Orders", query: ListQuery(pageSize: 10, maxRecords: 25))
        #expect(qtys(all) == Array(1...25))
        var query = ListQuery(pageSize: 10, maxRecords: 25)
        var sizes: [Int] = []
        while true {
            let page = try await base.listRecords(in: "Orders", query: query)
            sizes.append(page.records.count)
            guard let offset = page.offset else { break }
            query.offset = offset
        }
        #expect(sizes == [10, 10, 5])
        #expect(try await base.listRecords(in: "Orders", query: ListQuery(maxRecords: 3)).records.count == 3)
        #expect(try await base.listRecords(in: "Orders", query: ListQuery(maxRecords: 3)).offset == nil)
    }

    @Test func pageSizeZeroAndOutOfRange() async throws {
        let base = try await baseWith(5)
        let empty = try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 0))
        #expect(empty.records.isEmpty && empty.offset == nil)
        let none = try await base.listRecords(in: "Orders", query: ListQuery(maxRecords: 0))
        #expect(none.records.isEmpty && none.offset == nil)
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 101)) } == .invalidPageSize)
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(pageSize: -1)) } == .invalidPageSize)
    }

    @Test func pagingIsStableWhileRecordsAreAdded() async throws {
        let base = try await baseWith(30)
        var query = ListQuery(pageSize: 10)
        var seen: [Int] = []
        var page = try await base.listRecords(in: "Orders", query: query)
        seen += qtys(page.records)
        while let offset = page.offset {
            _ = try await base.createRecord(in: "Orders", ["name": "late", "qty": 1000])
            query.offset = offset
            page = try await base.listRecords(in: "Orders", query: query)
            seen += qtys(page.records)
        }
        // No record twice, none skipped; records added during the listing are left for the next one.
        #expect(seen == Array(1...30))
        #expect(try await base.allRecords(in: "Orders").count == 32)  // two added, one per later page
    }

    @Test func offsetErrors() async throws {
        let clock = TestClock()
        let base = try await baseWith(30, clock: clock, lifetime: .seconds(60))
        for malformed in ["10", "itr123/rec456", "itrAAAAAAAAAAAAAA", "xyzAAAAAAAAAAAAAA/recAAAAAAAAAAAAAA"] {
            #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(offset: malformed)) }
                == .invalidOffset(malformed))
        }
        let unknown = "itr" + String(repeating: "Q", count: 14) + "/rec" + String(repeating: "Q", count: 14)
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(offset: unknown)) } == .iteratorNotAvailable)

        let first = try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 10))
        let offset = try #require(first.offset)
        clock.advance(by: 59)
        let second = try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 10, offset: offset))
        #expect(qtys(second.records) == Array(11...20))
        // Unused for longer than the lifetime: expired, by the base's clock.
        let next = try #require(second.offset)
        clock.advance(by: 61)
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 10, offset: next)) }
            == .iteratorNotAvailable)
        // An empty offset means no offset.
        #expect(try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 5, offset: "")).records.count == 5)
    }

    @Test func offsetFromBeforeARestartIsNotAvailable() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let offset: String
        do {
            let base = try LocalBase(path: path)
            _ = try await base.createTable(TableSpec(name: "Orders", fields: orderFields))
            _ = try await base.createRecords(in: "Orders", (1...5).map { ["qty": .int($0)] }, options: WriteOptions())
            offset = try #require(try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 2)).offset)
        }
        let reopened = try LocalBase(path: path)
        #expect(await apiError { try await reopened.listRecords(in: "Orders", query: ListQuery(pageSize: 2, offset: offset)) }
            == .iteratorNotAvailable)
    }

    @Test func offsetOfAnotherTableIsNotAvailable() async throws {
        let base = try await baseWith(10)
        _ = try await base.createTable(TableSpec(name: "Other", fields: [FieldSpec(name: "x", type: .number)]))
        let offset = try #require(try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 2)).offset)
        #expect(await apiError { try await base.listRecords(in: "Other", query: ListQuery(offset: offset)) } == .iteratorNotAvailable)
    }

    @Test func sortsByTypeWithBlanksFirst() async throws {
        let (base, _) = try await makeOrdersBase()
        _ = try await base.createRecords(in: "Orders", [
            ["name": "banana", "qty": 10, "size": "大杯"],
            ["name": "Apple", "qty": 9, "size": "中杯"],
            ["name": "cherry", "qty": 100],
            ["qty": 2, "size": "大杯"],
            ["name": "Banana", "qty": 10],
        ], options: WriteOptions())
        func names(_ sort: [SortKey]) async throws -> [String] {
            try await base.allRecords(in: "Orders", query: ListQuery(sort: sort)).map { $0.fields["name"]?.stringValue ?? "-" }
        }
        #expect(try await names([SortKey(field: "name")]) == ["-", "Apple", "Banana", "banana", "cherry"])
        #expect(try await names([SortKey(field: "name", direction: .descending)]) == ["cherry", "banana", "Banana", "Apple", "-"])
        // Numbers numerically (9 < 10 < 100, not as text), ties in creation order.
        #expect(try await names([SortKey(field: "qty")]) == ["-", "Apple", "banana", "Banana", "cherry"])
        // Several keys; single selects in the order of their choices (中杯 before 大杯).
        #expect(try await names([SortKey(field: "size"), SortKey(field: "qty", direction: .descending)])
            == ["cherry", "Banana", "Apple", "banana", "-"])
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(sort: [SortKey(field: "nope")])) }
            == .unknownFieldName("nope"))
    }

    @Test func sortedPagingVisitsEveryRecordOnce() async throws {
        let base = try await baseWith(95)
        let sorted = try await base.allRecords(in: "Orders", query: ListQuery(sort: [SortKey(field: "qty", direction: .descending)],
                                                                           pageSize: 20))
        #expect(qtys(sorted) == Array((1...95).reversed()))
        let capped = try await base.allRecords(in: "Orders", query: ListQuery(sort: [SortKey(field: "name")], pageSize: 7,
                                                                           maxRecords: 30))
        #expect(capped.count == 30)
        // Text order: "drink 1" < "drink 10" < "drink 11" ...
        #expect(qtys(capped).prefix(4) == [1, 10, 11, 12])
    }

    @Test func fieldsLimitsTheCellsReturned() async throws {
        let (base, table) = try await makeOrdersBase()
        _ = try await base.createRecord(in: "Orders", ["name": "a", "qty": 1, "size": "中杯"])
        let qtyID = try #require(table.field("qty")?.id)
        let page = try await base.listRecords(in: "Orders", query: ListQuery(fields: ["name", qtyID]))
        #expect(Set(page.records[0].fields.keys) == ["name", "qty"])
        let byID = try await base.listRecords(in: "Orders", query: ListQuery(fields: ["qty"], returnFieldsByFieldId: true))
        #expect(byID.records[0].fields == [qtyID: 1])
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(fields: ["Qty"])) } == .unknownFieldName("Qty"))
    }

    @Test func theGridViewByNameOrId() async throws {
        let (base, table) = try await makeOrdersBase()
        _ = try await base.createRecords(in: "Orders", [["name": "a"], ["name": "b"]], options: WriteOptions())
        let viewID = try #require(table.views.first?.id)
        #expect(try await base.listRecords(in: "Orders", query: ListQuery(view: "Grid view")).records.count == 2)
        #expect(try await base.listRecords(in: "Orders", query: ListQuery(view: viewID)).records.count == 2)
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(view: "Kanban")) } == .viewNotFound("Kanban"))
        let otherID = "viw" + String(repeating: "x", count: 14)
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(view: otherID)) }?.type == "VIEW_ID_NOT_FOUND")
    }

    @Test func cellFormatStringRendersForPeople() async throws {
        let (base, _) = try await makeOrdersBase()
        _ = try await base.createRecord(in: "Orders", [
            "name": "白玉歐蕾", "qty": 2, "price": 130, "discount": 0.15, "prep": 5400, "paid": true,
            "addOns": ["加白玉", "加水玉"], "day": "2026-11-29", "pickedUpAt": "2026-11-29T14:30:00.000Z",
            "photo": [["url": "https://img.example.com/a.png"]],
        ])
        let query = ListQuery(cellFormat: .string, timeZone: "Asia/Taipei", userLocale: "zh-tw")
        let fields = try await base.listRecords(in: "Orders", query: query).records[0].fields
        #expect(fields["name"] == "白玉歐蕾")
        #expect(fields["qty"] == "2")
        #expect(fields["price"] == "NT$130")
        #expect(fields["discount"] == "15%")
        #expect(fields["prep"] == "1:30")
        #expect(fields["paid"] == "checked")
        #expect(fields["addOns"] == "加白玉, 加水玉")
        #expect(fields["day"] == "2026-11-29")
        #expect(fields["pickedUpAt"] == "2026-11-29 22:30")  // 14:30 UTC is 22:30 in Taipei
        #expect(fields["photo"] == "a.png (https://img.example.com/a.png)")
        #expect(fields["number"] == "1")

        let utc = try await base.listRecords(in: "Orders", query: ListQuery(cellFormat: .string, timeZone: "utc", userLocale: "en-us"))
        #expect(utc.records[0].fields["pickedUpAt"] == "2026-11-29 14:30")

        for bad in [ListQuery(cellFormat: .string), ListQuery(cellFormat: .string, timeZone: "Asia/Taipei"),
                    ListQuery(cellFormat: .string, userLocale: "en-us")] {
            let error = await apiError { try await base.listRecords(in: "Orders", query: bad) }
            #expect(error?.status == 422)
            #expect(error?.message?.contains("cellFormat \"string\" needs both timeZone and userLocale") == true)
        }
        let zone = await apiError {
            try await base.listRecords(in: "Orders", query: ListQuery(cellFormat: .string, timeZone: "Mars/Olympus", userLocale: "en-us"))
        }
        #expect(zone?.message?.contains("Mars/Olympus") == true)
    }

    @Test func theOldestUnfinishedListingsAreForgottenFirst() async throws {
        let clock = TestClock()
        let base = try await baseWith(3, clock: clock)
        var offsets: [String] = []
        for _ in 0..<130 {
            clock.advance(by: 1)
            offsets.append(try #require(try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 1)).offset))
        }
        #expect(await apiError { try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 1, offset: offsets[0])) }
            == .iteratorNotAvailable)
        let recent = try await base.listRecords(in: "Orders", query: ListQuery(pageSize: 1, offset: offsets[129]))
        #expect(qtys(recent.records) == [2])
    }

    @Test func sortedListingSkipsRecordsDeletedMeanwhileAndShowsCurrentValues() async throws {
        let base = try await baseWith(6)
        let first = try await base.listRecords(in: "Orders", query: ListQuery(sort: [SortKey(field: "qty")], pageSize: 2))
        let rest = try await base.allRecords(in: "Orders").filter { [3, 5].contains($0.fields["qty"]?.intValue) }
        _ = try await base.deleteRecords(in: "Orders", ids: [rest[0].id])
        _ = try await base.updateRecord(in: "Orders", id: rest[1].id, ["name": "changed"])
        var query = ListQuery(sort: [SortKey(field: "qty")], pageSize: 2, offset: first.offset)
        var later: [Record] = []
        while let offset = query.offset {
            let page = try await base.listRecords(in: "Orders", query: query)
            later += page.records
            query.offset = page.offset
            #expect(page.offset != offset)
        }
        #expect(qtys(first.records) + qtys(later) == [1, 2, 4, 5, 6])
        #expect(later.first { $0.fields["qty"] == 5 }?.fields["name"] == "changed")
    }

    @Test func sortsDatesTimesAndComputedFields() async throws {
        let clock = TestClock()
        let (base, _) = try await makeOrdersBase(clock: clock)
        for (day, time) in [("2026-12-01", "2026-11-29T10:00:00Z"), ("2025-01-31", "2026-11-29T09:00:00Z"),
                            ("2026-11-30", "2026-11-29T11:00:00Z")] {
            clock.advance(by: 1)
            _ = try await base.createRecord(in: "Orders", ["day": .string(day), "pickedUpAt": .string(time)])
        }
        func days(_ key: SortKey) async throws -> [String] {
            try await base.allRecords(in: "Orders", query: ListQuery(sort: [key])).compactMap { $0.fields["day"]?.stringValue }
        }
        #expect(try await days(SortKey(field: "day")) == ["2025-01-31", "2026-11-30", "2026-12-01"])
        #expect(try await days(SortKey(field: "pickedUpAt")) == ["2025-01-31", "2026-12-01", "2026-11-30"])
        #expect(try await days(SortKey(field: "created", direction: .descending)) == ["2026-11-30", "2025-01-31", "2026-12-01"])
        #expect(try await days(SortKey(field: "number", direction: .descending)) == ["2026-11-30", "2025-01-31", "2026-12-01"])
    }

    @Test func cellFormatStringKeyedByFieldId() async throws {
        let (base, table) = try await makeOrdersBase()
        _ = try await base.createRecord(in: "Orders", ["size": "大杯", "paid": false])
        let sizeID = try #require(table.field("size")?.id)
        let query = ListQuery(fields: ["size", "paid"], cellFormat: .string, timeZone: "Asia/Taipei", userLocale: "zh-tw",
                              returnFieldsByFieldId: true)
        #expect(try await base.listRecords(in: "Orders", query: query).records[0].fields == [sizeID: "大杯"])
    }

    @Test func commentCountIsAccepted() async throws {
        let base = try await baseWith(3)
        let page = try await base.listRecords(in: "Orders", query: ListQuery(includeCommentCount: true))
        #expect(page.records.count == 3)
    }
}
