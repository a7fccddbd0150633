import Airtable
import AirtableFormula
import Foundation
@testable import LocalBase
import Testing
import TestSupport

/// `OR` and `!=` pushed down to indexes: the rows are the evaluator's alone, and the indexes that make a
/// lookup cost the same on day 365 as on day 1 are made and used.
@Suite struct OrPushdownTests {
    /// 240 lines over eight days, numbers 1…30 each day, every status (some blank), two per order sometimes.
    private func shopBase(path: String) async throws -> (LocalBase, TableSchema) {
        let base = try LocalBase(path: path)
        let table = try await base.createTable(TableSpec(name: "OrderDrink", fields: [
            FieldSpec(name: "pickupNumber", type: .number, options: ["precision": 0]),
            FieldSpec(name: "businessDay", type: .singleLineText),
            .singleSelect("status", ["placed", "preparing", "ready", "picked up", "cancelled", "it's odd"]),
        ]))
        let statuses = ["placed", "preparing", "ready", "picked up", "cancelled", "it's odd"]
        var records: [Fields] = []
        for n in 0..<240 {
            var fields: Fields = ["pickupNumber": .int(n % 30 + 1), "businessDay": .string("2026-11-\(20 + n / 30)")]
            if n % 7 != 0 { fields["status"] = .string(n % 30 < 25 ? "picked up" : statuses[n % statuses.count]) }
            records.append(fields)
        }
        _ = try await base.createRecords(in: "OrderDrink", records, options: WriteOptions())
        return (base, table)
    }

    @Test func orAndUnequalFiltersGiveExactlyTheEvaluatorsResult() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let (base, _) = try await shopBase(path: path)
        let formulas = [
            "AND({pickupNumber}=27, OR({businessDay}='2026-11-27', AND({status}!='picked up', {status}!='cancelled')))",
            "AND({pickupNumber}=3, OR({businessDay}='2026-11-27', AND({status}!='picked up', {status}!='cancelled')))",
            "OR({businessDay}='2026-11-21', {businessDay}='2026-11-23', {businessDay}='2026-11-30')",
            "AND(OR({businessDay}='2026-11-21', {businessDay}='2026-11-22'), {status}!=\"it's odd\")",
            "OR({pickupNumber}=26, {status}='ready')",
            "{status}!='picked up'",
            "AND({pickupNumber}=28, {businessDay}='2026-11-24')",
        ]
        for formula in formulas {
            let fast = try await base.allRecords(in: "OrderDrink", query: ListQuery(filterByFormula: formula, pageSize: 3))
            let slow = try await base.allRecords(in: "OrderDrink", query: ListQuery(filterByFormula: "OR(\(formula), FALSE())"))
            #expect(fast.map(\.id) == slow.map(\.id), "\(formula)")
            #expect(!fast.isEmpty, "\(formula) matched nothing, so it proves little")
        }
    }

    @Test func aNumberOfTodayOrStillOpenIsFoundThroughItsOwnIndexes() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let (base, table) = try await shopBase(path: path)
        let formula = "AND({pickupNumber}=27, OR({businessDay}='2026-11-27', AND({status}!='picked up', {status}!='cancelled')))"
        let pushed = FormulaFilter.requiredConditions(try Formula.parse(formula), table: table)
        let branches = CandidateCondition.branches(pushed)
        #expect(branches.count == 2)
        let indexes = branches.compactMap { ConditionIndex(tableID: table.id, conditions: $0) }
        #expect(indexes.count == 2)
        #expect(indexes.last?.createSQL.contains("WHERE") == true)  // the open orders' index is partial
        _ = try await base.listRecords(in: "OrderDrink", query: ListQuery(filterByFormula: formula))
        let file = try BaseFile(path: path)
        for index in indexes {
            #expect(try file.hasIndex(named: index.name))
            // SQLite reads the branch through that index, not the table.
            var sql = "SELECT seq FROM \(BaseFile.recordTable(table.id)) INDEXED BY \"\(index.name)\" WHERE 1"
            var values: [SQLiteValue] = []
            let branch = try #require(branches.first { ConditionIndex(tableID: table.id, conditions: $0) == index })
            CandidateCondition.append(branch, to: &sql, values: &values)
            var plan: [String] = []
            try file.connection.query("EXPLAIN QUERY PLAN " + sql, values) { plan.append($0.text(3) ?? "") }
            #expect(plan.contains { $0.contains(index.name) }, "\(plan)")
        }
    }

    /// Each index costs every insert a page of its commit: a number lookup makes its two own indexes and no
    /// single-field ones beside them, and the open orders (the `IS NOT` terms alone) are read through the
    /// partial index it made, with no index of their own.
    @Test func aNumberLookupMakesOnlyItsOwnIndexesAndTheOpenOrdersReadItsPartialOne() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let (base, table) = try await shopBase(path: path)
        let number = "AND({pickupNumber}=27, OR({businessDay}='2026-11-27', AND({status}!='picked up', {status}!='cancelled')))"
        _ = try await base.listRecords(in: "OrderDrink", query: ListQuery(filterByFormula: number))
        let open = "AND({status}!='picked up', {status}!='cancelled')"
        _ = try await base.listRecords(in: "OrderDrink", query: ListQuery(filterByFormula: open))
        let made = try await base.indexNames(of: "OrderDrink").filter { $0.hasPrefix("index_") }
        let pushed = CandidateCondition.branches(FormulaFilter.requiredConditions(try Formula.parse(number), table: table))
        let own = pushed.compactMap { ConditionIndex(tableID: table.id, conditions: $0)?.name }
        #expect(made.sorted() == own.sorted())

        let file = try BaseFile(path: path)
        let conditions = FormulaFilter.requiredConditions(try Formula.parse(open), table: table)
        let partial = try #require(try file.partialIndex(tableID: table.id, for: conditions))
        #expect(partial == own.last)
        var sql = "SELECT seq FROM \(BaseFile.recordTable(table.id)) INDEXED BY \"\(partial)\" WHERE 1"
        var values: [SQLiteValue] = []
        CandidateCondition.append(conditions, to: &sql, values: &values)
        var plan: [String] = []
        try file.connection.query("EXPLAIN QUERY PLAN " + sql, values) { plan.append($0.text(3) ?? "") }
        #expect(plan.contains { $0.contains(partial) }, "\(plan)")
        let fast = try await base.allRecords(in: "OrderDrink", query: ListQuery(filterByFormula: open, pageSize: 7))
        let slow = try await base.allRecords(in: "OrderDrink", query: ListQuery(filterByFormula: "OR(\(open), FALSE())"))
        #expect(fast.map(\.id) == slow.map(\.id))
        #expect(!fast.isEmpty)
    }

    @Test func anOrWithABranchNoIndexNarrowsIsLeftToTheEvaluator() async throws {
        let path = temporaryBasePath()
        defer { removeBase(at: path) }
        let (_, table) = try await shopBase(path: path)
        for formula in ["OR({businessDay}='2026-11-21', {status}!='picked up')", "OR({businessDay}='2026-11-21', TRUE())"] {
            let pushed = FormulaFilter.requiredConditions(try Formula.parse(formula), table: table)
            #expect(pushed.allSatisfy { if case .anyOf = $0 { false } else { true } }, "\(formula)")
        }
    }
}
