import Airtable
import Foundation

/// A list request checked against its table: page size, view, fields, sort, format and filter, each
/// refused with Airtable's error when it is wrong.
struct ListPlan {
    let table: TableSchema
    let pageSize: Int
    let order: RecordOrder
    let output: RecordOutput
    let filter: RecordFilter

    init(query: ListQuery, table: TableSchema, now: Date) throws {
        self.table = table
        let size = query.pageSize ?? 100
        guard (0...100).contains(size) else { throw APIError.invalidPageSize }
        pageSize = size
        if let max = query.maxRecords, max < 0 {
            throw APIError.invalidRequest("maxRecords must be 0 or more, not \(max)")
        }
        // The base has one grid view per table, unfiltered and unsorted: naming it changes nothing.
        if let view = query.view, !table.views.contains(where: { $0.id == view || $0.name == view }) {
            throw APIError.viewNotFound(view)
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
        for key in query.sort {
            guard let field = table.field(key.field) else { throw APIError.unknownFieldName(key.field) }
            keys.append(RecordOrder.Key(field: field, descending: key.direction == .descending))
        }
        order = RecordOrder(keys: keys)
        let text = try RecordOutput.cellText(format: query.cellFormat, timeZone: query.timeZone,
                                             userLocale: query.userLocale)
        output = RecordOutput(table: table, byFieldID: query.returnFieldsByFieldId, text: text, only: only)
        if let formula = query.filterByFormula, !formula.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            filter = try FormulaFilter.make(formula, table: table, now: now)
        } else {
            filter = .all
        }
    }
}
