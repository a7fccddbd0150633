import Airtable
import AirtableFormula
import Foundation
@testable import LocalBase
import Testing
import TestSupport

@Suite struct FormulaFilterTests {
    /// 120 orders over four days, mixed statuses and sizes, some cells blank, names differing in case.
    private func shopBase() async throws -> (LocalBase, TableSchema) {
        let base = try LocalBase.inMemory()
        let table = try await base.createTable(TableSpec(name: "OrderDrink", fields: [
            FieldSpec(name: "drinkName", type: .singleLineText),
            FieldSpec(name: "businessDay", type: .date),
            .singleSelect("status", ["placed", "preparing", "ready", "cancelled"]),
            FieldSpec(name: "price", type: .number),
            FieldSpec(name: "orderName", type: .singleLineText),
            FieldSpec(name: "no", type: .autoNumber),
        ]))
        let days = ["2026-11-27", "2026-11-28", "2026-11-29", "2026-11-30"]
        let statuses = ["placed", "preparing", "ready", "cancelled"]
        let names = ["熟成紅茶", "白玉歐蕾", "Tea", "tea"]
        var records: [Fields] = []
        for n in 0..<120 {
            var fields: Fields = ["drinkName": .string(names[n % 4])]
            if n % 4 != 0 { fields["price"] = .int([50, 65, 75][n % 3]) }
            if n % 7 != 0 { fields["businessDay"] = .string(days[n % 4]) }
            if n % 5 != 0 { fields["status"] = .string(statuses[(n / 3) % 4]) }
            if n % 2 == 0 { fields["orderName"] = .string("Amy") }
            records.append(fields)
        }
        _ = try await base.createRecords(in: "OrderDrink", records, options: WriteOptions())
        return (base, table)
    }

    private func ids(_ base: LocalBase, _ formula: String, pageSize: Int = 100) async throws -> [String] {
        try await base.allRecords(in: "OrderDrink", query: ListQuery(filterByFormula: formula, pageSize: pageSize)).map(\.id)
    }

    @Test func pushedDownFiltersGiveExactlyTheEvaluatorsResult() async throws {
        let (base, _) = try await shopBase()
        let formulas = [
            "{businessDay}='2026-11-29'",
            "AND({businessDay}='2026-11-29', {status}!='cancelled')",
            "AND({businessDay} = '2026-11-28', {status} = 'placed', {price} = 65)",
            "{drinkName}='tea'",
            "'Tea'={drinkName}",
            "{price}=50",
            "{price}=0",
            "{status}=''",
            "AND({orderName}='Amy', {drinkName}='Tea')",
            "{businessDay}='2026-11-29T00:00:00'",
            "{price}='50'",
        ]
        for formula in formulas {
            let fast = try await ids(base, formula, pageSize: 7)
            // OR(…, FALSE()) means the same but offers nothing to push down: the evaluator alone decides.
            let slow = try await ids(base, "OR(\(formula), FALSE())")
            #expect(fast == slow, "\(formula)")
            #expect(!fast.isEmpty, "\(formula) matched nothing, so it proves little")
        }
    }

    @Test func equalityIsExactAndBlankAware() async throws {
        let (base, _) = try await shopBase()
        let lower = try await base.allRecords(in: "OrderDrink", query: ListQuery(filterByFormula: "{drinkName}='tea'"))
        #expect(lower.count == 30 && lower.allSatisfy { $0.fields["drinkName"] == "tea" })
        // Blank equals 0, as in Airtable, so a zero filter also finds the records without a price.
        let zero = try await base.allRecords(in: "OrderDrink", query: ListQuery(filterByFormula: "{price}=0"))
        #expect(zero.allSatisfy { $0.fields["price"] == nil })
        #expect(zero.count == 30)
    }

    @Test func filteredPagingAndMaxRecords() async throws {
        let (base, _) = try await shopBase()
        let formula = "{status}='ready'"
        let all = try await base.allRecords(in: "OrderDrink", query: ListQuery(filterByFormula: formula))
        var query = ListQuery(filterByFormula: formula, pageSize: 4, maxRecords: 10)
        var sizes: [Int] = []
        var seen: [String] = []
        while true {
            let page = try await base.listRecords(in: "OrderDrink", query: query)
            sizes.append(page.records.count)
            seen += page.records.map(\.id)
            guard let offset = page.offset else { break }
            query.offset = offset
        }
        #expect(sizes == [4, 4, 2])
        #expect(seen == Array(all.prefix(10).map(\.id)))
        let sorted = try await base.allRecords(in: "OrderDrink",
                                               query: ListQuery(filterByFormula: formula, sort: [SortKey(field: "price", direction: .descending)], pageSize: 5))
        #expect(Set(sorted.map(\.id)) == Set(all.map(\.id)))
        let prices = sorted.map { $0.fields["price"]?.numberValue ?? 0 }
        #expect(prices == prices.sorted(by: >))
    }

    @Test func formulasSeeIdsComputedFieldsAndFieldIds() async throws {
        let (base, table) = try await shopBase()
        let first = try await base.listRecords(in: "OrderDrink", query: ListQuery(pageSize: 1)).records[0]
        #expect(try await ids(base, "RECORD_ID()='\(first.id)'") == [first.id])
        #expect(try await ids(base, "{no} <= 3").count == 3)
        let status = try #require(table.field("status")?.id)
        #expect(try await ids(base, "{\(status)}='ready'") == ids(base, "{status}='ready'"))
        #expect(try await ids(base, "AND({no} < 3, FIND('茶', {drinkName}))").count == 1)
    }

    @Test func badFormulasAreInvalidFilterByFormula() async throws {
        let (base, _) = try await shopBase()
        let unknown = await apiError {
            try await base.listRecords(in: "OrderDrink", query: ListQuery(filterByFormula: "{Nope}='x'"))
        }
        #expect(unknown == .invalidFormula("Unknown field names: nope"))
        for bad in ["{status}='ready", "AND(", "NOSUCHFUNCTION(1)", "{price} = = 2"] {
            let error = await apiError { try await base.listRecords(in: "OrderDrink", query: ListQuery(filterByFormula: bad)) }
            #expect(error?.type == "INVALID_FILTER_BY_FORMULA", "\(bad)")
            #expect(error?.status == 422)
            #expect(error?.message?.hasPrefix("The formula for filtering records is invalid: ") == true)
        }
        // A blank formula filters nothing.
        #expect(try await ids(base, "  ").count == 120)
    }

    /// A pattern that would make a backtracking engine run for minutes answers at once (the engine is
    /// linear), and regular expressions that together outrun the listing's step budget answer 422 with
    /// a message saying so, instead of holding a core.
    @Test func regexFiltersRunInBoundedTime() async throws {
        let (base, _) = try await shopBase()
        let clock = ContinuousClock()
        let started = clock.now
        #expect(try await ids(base, "REGEX_MATCH({drinkName} & REPT('x', 300), '(.+)+$$x')").isEmpty)
        #expect(try await ids(base, "REGEX_MATCH({drinkName}, '^[Tt]ea$')").count == 60)
        let error = await apiError {
            try await base.listRecords(in: "OrderDrink", query: ListQuery(
                filterByFormula: "REGEX_MATCH(REPT({drinkName}, 2000), '(a|aa|e|ea|T|t){200}z')"))
        }
        #expect(error == .invalidFormula(FormulaBudget.spentMessage))
        // A backtracking engine would run for ages on the first pattern; 120 s leaves room for a machine at a load
        // of 20 (37 s was seen beside the whole suite and five builds) while still catching one.
        #expect(clock.now - started < .seconds(120))
    }

    @Test func equalityFiltersCreateTheirIndexOnDemand() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let base = try LocalBase(path: path)
        let table = try await base.createTable(TableSpec(name: "T", fields: [FieldSpec(name: "day", type: .date),
                                                                             FieldSpec(name: "note", type: .singleLineText)]))
        let day = try #require(table.field("day")?.id)
        let note = try #require(table.field("note")?.id)
        _ = try await base.createRecord(in: "T", ["day": "2026-11-29", "note": "x"])
        let file = try BaseFile(path: path)
        #expect(try !file.hasIndex(tableID: table.id, fieldID: day))
        _ = try await base.listRecords(in: "T", query: ListQuery(filterByFormula: "AND({day}='2026-11-29', FIND('x', {note}))"))
        #expect(try file.hasIndex(tableID: table.id, fieldID: day))
        #expect(try !file.hasIndex(tableID: table.id, fieldID: note))  // FIND is not an equality
    }
}

@Suite struct CreatedTimeFilterTests {
    @Test func creationTimeBoundsGiveExactlyTheEvaluatorsResult() async throws {
        let clock = TestClock(Date(timeIntervalSince1970: 1_795_900_000))
        let base = try LocalBase.inMemory(clock: clock.date)
        _ = try await base.createTable(TableSpec(name: "Orders", fields: [FieldSpec(name: "n", type: .number)]))
        // One record every 37 minutes over three days, some on exact bounds.
        for n in 0..<120 {
            _ = try await base.createRecord(in: "Orders", ["n": .int(n + 1)])
            clock.advance(by: 37 * 60)
        }
        let start = AirtableTimestamp.format(Date(timeIntervalSince1970: 1_795_900_000 + 37 * 60 * 20))
        let end = AirtableTimestamp.format(Date(timeIntervalSince1970: 1_795_900_000 + 37 * 60 * 70))
        let formulas = [
            "AND(NOT(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('\(start)'))), IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('\(end)')))",
            "IS_AFTER(CREATED_TIME(), DATETIME_PARSE('\(start)'))",
            "NOT(IS_AFTER(CREATED_TIME(), DATETIME_PARSE('\(end)')))",
            "IS_BEFORE(DATETIME_PARSE('\(start)'), CREATED_TIME())",
            "AND(IS_AFTER(DATETIME_PARSE('\(end)'), CREATED_TIME()), {n} = 30)",
        ]
        for formula in formulas {
            let fast = try await base.allRecords(in: "Orders", query: ListQuery(filterByFormula: formula, pageSize: 9))
            let slow = try await base.allRecords(in: "Orders", query: ListQuery(filterByFormula: "OR(\(formula), FALSE())"))
            #expect(fast.map(\.id) == slow.map(\.id), "\(formula)")
            #expect(!fast.isEmpty, "\(formula) matched nothing")
        }
        let table = try #require(try await base.schema().table("Orders"))
        let pushed = FormulaFilter.requiredConditions(try Formula.parse(formulas[0]), table: table)
        #expect(pushed.count == 2)
    }
}
