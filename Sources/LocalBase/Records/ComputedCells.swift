import Airtable
import AirtableFormula
import Foundation

/// The cells of computed fields, worked out when a record is read (nothing computed is stored, so a
/// change anywhere shows at once and a file made before these fields existed is read unchanged):
///
/// - formula: the field's formula over the record's cells, by the same evaluator as filterByFormula;
/// - lookup (`multipleLookupValues`): the cells of one field of the records a link field names, in
///   link order, lists flattened and empty cells left out;
/// - rollup: its aggregation formula over those cells as `values` (`SUM(values)`);
/// - count: how many records the link field names;
/// - button: `{label, url}`, the URL from its formula;
/// - createdBy, lastModifiedBy: the base's user (a local base has one: every write is its owner's).
///
/// Results are remembered for the life of one request, so a listing reads each linked record once.
/// Used on the base's queue only (it reads the file through the context).
final class ComputedCells {
    private let context: BaseContext
    private let schema: BaseSchema
    private let now: Date
    private lazy var owner: Collaborator? = (try? context.storedUsers())?.first
    private var compiled: [String: CompiledFormula?] = [:]
    private var values: [String: FormulaValue] = [:]
    private var cells: [String: JSONValue?] = [:]
    private var linked: [String: StoredRecord?] = [:]
    private var depth = 0
    /// Deeper than this, a chain of computed fields is taken for a cycle (a hand-edited file).
    private static let maximumDepth = 40

    init(context: BaseContext) throws {
        self.context = context
        schema = try context.schema()
        now = context.clock()
    }

    /// The value of `field` in `record` as the API shows it; nil when empty.
    func cell(_ field: FieldSchema, of record: StoredRecord, in table: TableSchema) -> JSONValue? {
        guard field.type.isComputed else { return record.value(of: field) }
        switch field.type {
        case .createdBy, .lastModifiedBy: return owner?.json
        case .autoNumber, .createdTime, .lastModifiedTime: return record.value(of: field)
        default: break
        }
        let key = "\(record.id)/\(field.id)"
        if let known = cells[key] { return known }
        let computed: JSONValue?
        switch field.type {
        case .multipleLookupValues:
            computed = lookupCells(field, of: record, in: table)
        case .button:
            var button: [String: JSONValue] = ["label": .string(field.options?["label"]?.stringValue ?? field.name)]
            if let formula = self.formula(field, key: "url", in: table) {
                let url = formula.evaluate(formulaRecord(record, in: table, for: formula))
                button["url"] = url.isError ? .null : .string(url.text())
            } else {
                button["url"] = .null
            }
            computed = .object(button)
        default:
            computed = ComputedCellJSON.cell(value(field, of: record, in: table), result: field.options?["result"])
        }
        cells[key] = .some(computed)
        return computed
    }

    /// What a formula sees of `field` in `record`.
    func value(_ field: FieldSchema, of record: StoredRecord, in table: TableSchema) -> FormulaValue {
        let key = "\(record.id)/\(field.id)"
        if let known = values[key] { return known }
        guard depth < Self.maximumDepth else { return .error("the computed fields refer to each other in a circle") }
        depth += 1
        defer { depth -= 1 }
        let value: FormulaValue
        switch field.type {
        case .formula:
            if let formula = formula(field, key: "formula", in: table) {
                value = formula.evaluate(formulaRecord(record, in: table, for: formula))
            } else {
                value = .error("the formula of field \(field.name) no longer compiles")
            }
        case .multipleLookupValues:
            value = .array(lookupValues(field, of: record, in: table))
        case .rollup:
            let values = FormulaValue.array(lookupValues(field, of: record, in: table))
            if let aggregation = rollupFormula(field, in: table) {
                var input = FormulaRecord(id: record.id, createdTime: record.createdTime, cells: [:], now: now,
                                          lastModifiedTime: record.modifiedTime)
                input.values["values"] = values
                value = aggregation.evaluate(input)
            } else {
                value = .error("the rollup of field \(field.name) no longer compiles")
            }
        case .count:
            value = .number(Double(linkedIDs(field.options?["recordLinkFieldId"]?.stringValue, of: record).count))
        case .createdBy, .lastModifiedBy:
            value = owner.map { .text($0.name.isEmpty ? $0.email : $0.name) } ?? .blank
        case .button:
            value = .text(field.options?["label"]?.stringValue ?? field.name)
        case .multipleRecordLinks:
            value = .array(linkedRecords(field, ids: record.cells[field.id]).map { linkedRecord, linkedTable in
                guard let primary = linkedTable.field(linkedTable.primaryFieldId) else { return .text(linkedRecord.id) }
                return self.value(primary, of: linkedRecord, in: linkedTable)
            })
        default:
            let input = FormulaRecord(id: record.id, createdTime: record.createdTime, cells: record.allCells(table),
                                      now: now, lastModifiedTime: record.modifiedTime)
            value = input.value(of: field)
        }
        values[key] = value
        return value
    }

    /// `record` as formula `formula` sees it: its cells, with computed and link fields it reads filled in.
    func formulaRecord(_ record: StoredRecord, in table: TableSchema, for formula: CompiledFormula) -> FormulaRecord {
        var input = FormulaRecord(id: record.id, createdTime: record.createdTime, cells: record.allCells(table), now: now,
                                  lastModifiedTime: record.modifiedTime)
        for id in formula.referencedFieldIDs {
            guard let field = table.field(id), field.type.isDerived || field.type == .multipleRecordLinks
                || field.type == .createdBy || field.type == .lastModifiedBy
            else { continue }
            input.values[id] = value(field, of: record, in: table)
        }
        return input
    }

    /// The primary values of the linked records `ids` of `field` (an id whose record is gone stays an id).
    func linkNames(_ field: FieldSchema, _ ids: [String]) -> [JSONValue] {
        guard let linkedID = field.link?.table, let linkedTable = schema.table(linkedID),
              let primary = linkedTable.field(linkedTable.primaryFieldId)
        else { return ids.map(JSONValue.string) }
        return ids.map { id in
            guard let record = find(id, in: linkedTable) else { return .string(id) }
            return cell(primary, of: record, in: linkedTable) ?? .null
        }
    }

    // MARK: Links

    private func lookupCells(_ field: FieldSchema, of record: StoredRecord, in table: TableSchema) -> JSONValue? {
        var out: [JSONValue] = []
        for (linkedRecord, linkedTable) in linkedRecords(of: field, record: record, in: table) {
            guard let target = target(of: field, in: linkedTable),
                  let value = cell(target, of: linkedRecord, in: linkedTable), !value.isEmptyCell
            else { continue }
            if case .array(let items) = value { out += items } else { out.append(value) }
        }
        return out.isEmpty ? nil : .array(out)
    }

    private func lookupValues(_ field: FieldSchema, of record: StoredRecord, in table: TableSchema) -> [FormulaValue] {
        var out: [FormulaValue] = []
        for (linkedRecord, linkedTable) in linkedRecords(of: field, record: record, in: table) {
            guard let target = target(of: field, in: linkedTable) else { continue }
            switch value(target, of: linkedRecord, in: linkedTable) {
            case .blank: continue
            case .array(let items): out += items
            case let value: out.append(value)
            }
        }
        return out
    }

    private func target(of field: FieldSchema, in linkedTable: TableSchema) -> FieldSchema? {
        field.options?["fieldIdInLinkedTable"]?.stringValue.flatMap(linkedTable.field)
    }

    /// The records (and their table) that the link field a rollup, lookup or count follows names.
    private func linkedRecords(of field: FieldSchema, record: StoredRecord, in table: TableSchema)
        -> [(StoredRecord, TableSchema)]
    {
        guard let linkID = field.options?["recordLinkFieldId"]?.stringValue, let link = table.field(linkID) else { return [] }
        return linkedRecords(link, ids: record.cells[link.id])
    }

    private func linkedRecords(_ link: FieldSchema, ids cell: JSONValue?) -> [(StoredRecord, TableSchema)] {
        guard let linkedID = link.link?.table, let linkedTable = schema.table(linkedID) else { return [] }
        return (cell?.arrayValue ?? []).compactMap(\.stringValue).compactMap { id in
            find(id, in: linkedTable).map { ($0, linkedTable) }
        }
    }

    private func linkedIDs(_ linkID: String?, of record: StoredRecord) -> [String] {
        guard let linkID else { return [] }
        return (record.cells[linkID]?.arrayValue ?? []).compactMap(\.stringValue)
    }

    private func find(_ id: String, in table: TableSchema) -> StoredRecord? {
        let key = "\(table.id)/\(id)"
        if let known = linked[key] { return known }
        let found = try? RecordRows(file: context.file, tableID: table.id).find(id: id)
        linked[key] = .some(found)
        return found
    }

    // MARK: Formulas

    private func formula(_ field: FieldSchema, key: String, in table: TableSchema) -> CompiledFormula? {
        let cacheKey = "\(field.id)/\(key)"
        if let known = compiled[cacheKey] { return known }
        let formula = field.options?[key]?.stringValue.flatMap { try? CompiledFormula($0, fields: table.fields) }
        compiled[cacheKey] = .some(formula)
        return formula
    }

    private func rollupFormula(_ field: FieldSchema, in table: TableSchema) -> CompiledFormula? {
        let cacheKey = "\(field.id)/rollup"
        if let known = compiled[cacheKey] { return known }
        var formula: CompiledFormula?
        if let linkID = field.options?["recordLinkFieldId"]?.stringValue, let linkedID = table.field(linkID)?.link?.table,
           let linkedTable = schema.table(linkedID), let target = target(of: field, in: linkedTable)
        {
            let text = field.options?["formula"]?.stringValue ?? ComputedFieldRules.defaultAggregation
            formula = try? CompiledFormula(text, fields: [ComputedFieldRules.valuesField(of: target)])
        }
        compiled[cacheKey] = .some(formula)
        return formula
    }
}
