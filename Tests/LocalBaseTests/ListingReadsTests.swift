import Airtable
import AirtableFormula
import Foundation
@testable import LocalBase
import Testing
import TestSupport

/// A listing reads only the cells it needs (`fields[]` pushed down into the stored JSON) and skips the
/// evaluator when the formula is exactly its index conditions: the records and cells must be those of
/// the full read with the evaluator, page after page.
@Suite struct ListingReadsTests {
    /// 60 lines over three days, created a second apart from a whole second on; text with quotes,
    /// escapes and CJK, a multiple select, some cells left blank.
    private func linesBase(clock: TestClock) async throws -> LocalBase {
        let base = try LocalBase.inMemory(clock: clock.date)
        _ = try await base.createTable(TableSpec(name: "Line", fields: [
            FieldSpec(name: "drinkName", type: .singleLineText),
            FieldSpec(name: "businessDay", type: .singleLineText),
            FieldSpec(name: "price", type: .number, options: ["precision": 0]),
            FieldSpec(name: "note", type: .multilineText),
            .singleSelect("status", ["placed", "ready", "picked up"]),
            .multipleSelects("addOns", ["加白玉", "加水玉"]),
            FieldSpec(name: "number", type: .autoNumber),
            FieldSpec(name: "readyAt", type: .dateTime, options: ["timeZone": "Asia/Taipei"]),
        ]))
        let names = ["熟成紅茶", "雪花冷露", "say \"hi\"", "back\\slash", "tab\there", "plain"]
        for n in 0..<60 {
            var fields: Fields = ["drinkName": .string(names[n % names.count]), "price": .int(30 + n % 4 * 5)]
            if n % 5 != 0 { fields["businessDay"] = .string("2026-11-\(21 + n / 20)") }
            if n % 3 == 0 { fields["note"] = .string("少冰 \u{00e9}\n第二行 \(n)") }
            if n % 4 != 0 { fields["status"] = .string(["placed", "ready", "picked up"][n % 3]) }
            if n % 2 == 0 { fields["addOns"] = .array([.string("加白玉")]) }
            // Ready a while after creation (not in creation order), or not yet.
            if n % 7 != 3 { fields["readyAt"] = .string(Self.at(Double((n * 37) % 60) + 0.5)) }
            _ = try await base.createRecords(in: "Line", [fields], options: WriteOptions())
            clock.advance(by: 1)
        }
        return base
    }

    private static let start = Date(timeIntervalSince1970: 1_795_000_000)

    private static func at(_ seconds: Double) -> String {
        AirtableTimestamp.format(start.addingTimeInterval(seconds))
    }

    private static let formulas = [
        // Exactly their index conditions: no evaluation.
        "{businessDay}='2026-11-22'",
        "OR({businessDay}='2026-11-21', {businessDay}='2026-11-23')",
        "AND(OR({businessDay}='2026-11-21', {businessDay}='2026-11-23'), {drinkName}='熟成紅茶')",
        "AND(NOT(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('\(at(10))'))), IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('\(at(40))')))",
        "{drinkName}='say \"hi\"'",
        // Index conditions and more: evaluated.
        "AND({businessDay}='2026-11-22', {status}='ready')",
        "AND(IS_AFTER(CREATED_TIME(), DATETIME_PARSE('\(at(12.5))')), IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('\(at(33.25))')))",
        "AND(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('\(at(30))')), {businessDay}=BLANK())",
        "{status}=BLANK()",
        "{price}=35",
        "{status}!='picked up'",
        // A stored cell at all (`!= BLANK()` narrows to the records that have one), then evaluated.
        "{note}!=BLANK()",
        "AND({businessDay}='2026-11-21', {status}!=BLANK())",
        "BLANK()!={addOns}",
        // A dateTime field against an instant: bounds on the stored text, blank cells let through, evaluated.
        "IS_BEFORE({readyAt}, DATETIME_PARSE('\(at(20))'))",
        "AND(NOT(IS_BEFORE({readyAt}, DATETIME_PARSE('\(at(10))'))), IS_BEFORE({readyAt}, DATETIME_PARSE('\(at(40))')))",
        "IS_AFTER(DATETIME_PARSE('\(at(30.5))'), {readyAt})",
        "NOT(IS_AFTER({readyAt}, DATETIME_PARSE('\(at(44.5))')))",
        // Nothing pushed down.
        "FIND('加白玉', ARRAYJOIN({addOns}))",
        "{price}>32",
    ]

    @Test(arguments: formulas)
    func askedFieldsAreTheFullReadsCellsForTheSameRecords(_ formula: String) async throws {
        let clock = TestClock(Self.start)
        let base = try await linesBase(clock: clock)
        // The evaluator alone (an OR with FALSE() pushes nothing down), every cell.
        let full = try await base.allRecords(in: "Line", query: ListQuery(filterByFormula: "OR(\(formula), FALSE())"))
        #expect(!full.isEmpty, "\(formula) matched nothing, so it proves little")
        #expect(full.count < 60, "\(formula) matched everything, so it proves little")
        for asked in [["drinkName", "price"], ["note", "addOns", "number"], ["status"]] {
            for sort in [[], [SortKey(field: "price", direction: .descending)]] {
                let few = try await base.allRecords(in: "Line", query: ListQuery(filterByFormula: formula, sort: sort,
                                                                                   fields: asked, pageSize: 7))
                var expected = full
                if !sort.isEmpty {
                    let slow = try await base.allRecords(in: "Line", query: ListQuery(
                        filterByFormula: "OR(\(formula), FALSE())", sort: sort))
                    expected = slow
                }
                #expect(few.map(\.id) == expected.map(\.id), "\(formula) \(asked) \(sort)")
                for (got, want) in zip(few, expected) {
                    var cells = Fields()
                    for name in asked { if let value = want.fields[name] { cells[name] = value } }
                    #expect(got.fields == cells, "\(formula) \(asked): \(got.id)")
                    #expect(got.createdTime == want.createdTime)
                }
            }
        }
        // Without fields[], every cell, as before; whole (one call) and page by page alike.
        let all = try await base.allRecords(in: "Line", query: ListQuery(filterByFormula: formula, pageSize: 7))
        #expect(all.map(\.id) == full.map(\.id))
        #expect(all.map(\.fields) == full.map(\.fields))
        let paged = try await Self.pageByPage(base, ListQuery(filterByFormula: formula, pageSize: 7))
        #expect(paged.map(\.id) == full.map(\.id))
        #expect(paged.map(\.fields) == full.map(\.fields))
    }

    /// Every page of a listing, following its offsets (what a client over the API does).
    private static func pageByPage(_ base: LocalBase, _ query: ListQuery) async throws -> [Record] {
        var query = query
        var records: [Record] = []
        while true {
            let page = try await base.listRecords(in: "Line", query: query)
            records += page.records
            guard let offset = page.offset else { return records }
            query.offset = offset
        }
    }

    /// `allRecords` on the embedded base reads the whole listing in one call: the records the pages give,
    /// in their order, with `maxRecords`, a sort, a view-less filter and `fields[]` as the pages apply them.
    @Test func aWholeListingIsItsPagesTogether() async throws {
        let clock = TestClock(Self.start)
        let base = try await linesBase(clock: clock)
        let queries = [
            ListQuery(),
            ListQuery(maxRecords: 9),
            ListQuery(filterByFormula: "{price}>32", pageSize: 4),
            ListQuery(filterByFormula: "OR({businessDay}='2026-11-21', {businessDay}='2026-11-23')", maxRecords: 25),
            ListQuery(sort: [SortKey(field: "price", direction: .descending), SortKey(field: "drinkName", direction: .ascending)],
                      fields: ["drinkName", "price"], maxRecords: 31),
            ListQuery(filterByFormula: "{status}!=BLANK()", sort: [SortKey(field: "status", direction: .ascending)]),
            ListQuery(pageSize: 0),
            ListQuery(maxRecords: 0),
            ListQuery(returnFieldsByFieldId: true),
        ]
        for query in queries {
            let whole = try await base.listAllRecords(in: "Line", query: query)
            let pages = try await Self.pageByPage(base, query)
            #expect(whole.map(\.id) == pages.map(\.id), "\(query)")
            #expect(whole.map(\.fields) == pages.map(\.fields), "\(query)")
            #expect(whole.map(\.createdTime) == pages.map(\.createdTime), "\(query)")
        }
        #expect(try await base.listAllRecords(in: "Line", query: ListQuery()).count == 60)
        // Refused as a page is: an unknown field, a page size over 100.
        await #expect(throws: AirtableError.self) {
            _ = try await base.listAllRecords(in: "Line", query: ListQuery(fields: ["nope"]))
        }
        await #expect(throws: AirtableError.self) {
            _ = try await base.listAllRecords(in: "Line", query: ListQuery(pageSize: 101))
        }
    }

    @Test func aFormulaIsSkippedOnlyWhenItsIndexConditionsSayAllOfIt() async throws {
        let base = try LocalBase.inMemory()
        let table = try await base.createTable(TableSpec(name: "Line", fields: [
            FieldSpec(name: "businessDay", type: .singleLineText),
            FieldSpec(name: "price", type: .number, options: ["precision": 0]),
            FieldSpec(name: "day", type: .date, options: ["dateFormat": ["name": "iso"]]),
        ]))
        func exact(_ formula: String) throws -> Bool { FormulaFilter.isExact(try Formula.parse(formula), table: table) }
        #expect(try exact("{businessDay}='2026-11-22'"))
        #expect(try exact("OR({businessDay}='2026-11-21', {businessDay}='2026-11-22')"))
        #expect(try exact("AND(NOT(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('2026-11-21T16:00:00.000Z'))), "
            + "IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('2026-11-22T16:00:00.000Z')))"))
        // A bound inside a second, a number, a date field, blank, `!=`, two ORs, an OR with a nested OR:
        // the evaluator decides.
        #expect(try !exact("IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('2026-11-22T16:00:00.500Z'))"))
        #expect(try !exact("{price}=35"))
        #expect(try !exact("{day}='2026-11-22'"))
        #expect(try !exact("{businessDay}=BLANK()"))
        #expect(try !exact("{businessDay}!='2026-11-22'"))
        #expect(try !exact("AND({businessDay}='2026-11-22', {price}!=BLANK())"))
        #expect(try !exact("AND(OR({businessDay}='a', {businessDay}='b'), OR({businessDay}='c', {businessDay}='d'))"))
        #expect(try !exact("OR({businessDay}='a', OR({businessDay}='b', {businessDay}='c'))"))
        #expect(try !exact("AND({businessDay}='a', {price}>3)"))
        #expect(try !exact("AND()"))
    }

    @Test func twoExactFormulasTogetherAreEvaluatedWhenSQLWouldApplyOnlyOneOr() async throws {
        let base = try LocalBase.inMemory()
        let table = try await base.createTable(TableSpec(name: "Line", fields: [
            FieldSpec(name: "businessDay", type: .singleLineText),
            FieldSpec(name: "drinkName", type: .singleLineText),
        ]))
        let days = try FormulaFilter.make("OR({businessDay}='a', {businessDay}='b')", table: table, now: Date())
        let names = try FormulaFilter.make("OR({drinkName}='x', {drinkName}='y')", table: table, now: Date())
        let one = try FormulaFilter.make("{drinkName}='x'", table: table, now: Date())
        #expect(!days.evaluates && !names.evaluates && !one.evaluates)
        #expect(days.and(names).evaluates)
        #expect(!days.and(one).evaluates)
        #expect(!RecordFilter.all.and(days).evaluates)
    }
}
