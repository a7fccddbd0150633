import Airtable
import AirtableFormula
import Foundation

/// A list request checked against its table: page size, view, fields, sort, format and filter, each
/// refused with Airtable's error when it is wrong.
struct ListPlan {
    let table: TableSchema
    let pageSize: Int
    let order: RecordOrder
    let output: RecordOutput
    let filter: RecordFilter
    /// The stored cells a read must build (by field id): the asked `fields[]`, what the formula and the
    /// sort read. Nil (all cells) when no fields are asked for or a computed field needs others.
    let cellsRead: Set<String>?
    /// The output's names for reading cells straight into records (`RecordOutput.directNames`), made once;
    /// nil when the filter evaluates the rows read (it reads their cells by field id).
    let directNames: JSONMemberNames?

    /// - Parameter computed: the cells of computed fields, and what a formula sees of a link cell (the
    ///   linked records' primary values).
    init(query: ListQuery, table: TableSchema, now: Date, computed: ComputedCells? = nil) throws {
        let linkNames = computed?.linkNames
        self.table = table
        let size = query.pageSize ?? 100
        guard (0...100).contains(size) else { throw APIError.invalidPageSize }
        pageSize = size
        if let max = query.maxRecords, max < 0 {
            throw APIError.invalidRequest("maxRecords must be 0 or more, not \(max)")
        }
        // A view keeps the records its formula keeps, in its order unless the query sorts.
        var view: ViewSchema?
        if let name = query.view {
            guard let found = table.view(name) else { throw APIError.viewNotFound(name) }
            view = found
        }
        var only: Set<String>?
        if let names = query.fields {
            only = []
            for name in names {
                guard let field = table.field(name) else { throw APIError.unknownFieldName(name) }
                only?.insert(field.id)
            }
        }
        var keys: [RecordOrder.Key] = []
        for key in query.sort.isEmpty ? view?.sort ?? [] : query.sort {
            guard let field = table.field(key.field) else { throw APIError.unknownFieldName(key.field) }
            keys.append(RecordOrder.Key(field: field, descending: key.direction == .descending))
        }
        order = RecordOrder(keys: keys, computed: computed, table: table)
        let text = try RecordOutput.cellText(format: query.cellFormat, timeZone: query.timeZone,
                                             userLocale: query.userLocale)
        output = RecordOutput(table: table, byFieldID: query.returnFieldsByFieldId, text: text, only: only,
                              linkNames: linkNames, computed: computed)
        var filter = RecordFilter.all
        if let formula = query.filterByFormula, !formula.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            filter = try FormulaFilter.make(formula, table: table, now: now, linkNames: linkNames, computed: computed)
        }
        if let formula = view?.filterByFormula, !formula.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            let viewFilter = try FormulaFilter.make(formula, table: table, now: now, linkNames: linkNames, computed: computed)
            filter = filter.and(viewFilter)
        }
        self.filter = filter
        directNames = filter.evaluates ? nil : output.directNames
        if let only {
            let needed = only.union(filter.fieldIDs).union(keys.map(\.field.id))
            let computedNeeded = table.fields.contains { needed.contains($0.id) && !$0.type.isStoredInRow }
            cellsRead = computedNeeded ? nil : needed
        } else {
            cellsRead = nil
        }
    }
}
