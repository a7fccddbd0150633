import Airtable
import AirtableFormula
import Foundation

/// How stored records are turned into API records: keys by name or id, JSON or user-facing strings,
/// all fields or a chosen few.
struct RecordOutput {
    let table: TableSchema
    let byFieldID: Bool
    /// Set for `cellFormat=string`.
    let text: CellText?
    /// The field ids to include; nil means all.
    let only: Set<String>?

    /// For `cellFormat=string`: a link's records by their primary values, as Airtable shows them.
    let linkNames: FormulaFilter.LinkNames?
    /// The cells of formula, rollup, lookup, count, button and user fields; without it they are left out.
    let computed: ComputedCells?

    /// `layout`: the table's, when the caller keeps it (`BaseContext.outputLayout`); made here otherwise.
    init(table: TableSchema, byFieldID: Bool, text: CellText? = nil, only: Set<String>? = nil,
         linkNames: FormulaFilter.LinkNames? = nil, computed: ComputedCells?, layout: Layout? = nil) {
        self.computed = computed
        self.table = table
        self.byFieldID = byFieldID
        self.text = text
        self.only = only
        self.linkNames = linkNames
        let layout = layout ?? Layout(table: table, byFieldID: byFieldID, only: only)
        shown = layout.shown
        storedKeys = layout.storedKeys
        computedShown = layout.computedShown
    }

    /// What an output takes from its table: the fields shown and their output keys. The same for every
    /// write to a table until its schema changes.
    struct Layout {
        let shown: [FieldSchema]
        let storedKeys: [String: String]
        let computedShown: [FieldSchema]

        init(table: TableSchema, byFieldID: Bool, only: Set<String>?) {
            shown = only.map { only in table.fields.filter { only.contains($0.id) } } ?? table.fields
            var keys: [String: String] = Dictionary(minimumCapacity: shown.count)
            for field in shown where !field.type.isComputed { keys[field.id] = byFieldID ? field.id : field.name }
            storedKeys = keys
            computedShown = shown.filter(\.type.isComputed)
        }
    }

    /// The fields written, in the table's order (`only` applied once, not per record).
    private let shown: [FieldSchema]
    /// The output key (name or id) of each shown field whose value is a stored cell, by field id.
    private let storedKeys: [String: String]
    /// The shown fields worked out when read (autoNumber, createdTime, formulas, lookups…).
    private let computedShown: [FieldSchema]

    /// Checks a read's format options: `string` needs a known time zone and a locale.
    static func cellText(format: CellFormat, timeZone: String?, userLocale: String?) throws -> CellText? {
        guard format == .string else { return nil }
        guard let zoneName = timeZone, !zoneName.isEmpty, let locale = userLocale, !locale.isEmpty else {
            throw APIError.invalidRequest("cellFormat \"string\" needs both timeZone and userLocale")
        }
        guard let zone = TimeZones.named(zoneName) else {
            throw APIError.invalidRequest("timeZone \"\(zoneName)\" is not a known time zone")
        }
        return CellText(timeZone: zone, locale: locale)
    }

    /// The names a reading may parse cells straight into (`RecordRows.outputNames`): nil when a record's
    /// fields are more than its stored cells renamed (computed fields shown, or `cellFormat=string`).
    var directNames: JSONMemberNames? {
        guard text == nil, computedShown.isEmpty else { return nil }
        return JSONMemberNames(storedKeys)
    }

    func record(_ stored: StoredRecord) -> Record {
        if stored.cellsAreOutput { return Record(id: stored.id, createdTime: stored.createdTime, fields: stored.cells) }
        guard text == nil else { return textRecord(stored) }
        // A record's stored cells are fewer than its table's fields: each is looked up once, by id.
        var fields = Fields(minimumCapacity: min(stored.cells.count, storedKeys.count) + computedShown.count)
        for (id, value) in stored.cells {
            guard let key = storedKeys[id], !value.isEmptyCell else { continue }
            fields[key] = value
        }
        for field in computedShown {
            guard let value = computed.map({ $0.cell(field, of: stored, in: table) }) ?? stored.value(of: field),
                  !value.isEmptyCell
            else { continue }
            fields[byFieldID ? field.id : field.name] = value
        }
        return Record(id: stored.id, createdTime: stored.createdTime, fields: fields)
    }

    /// `record` for `cellFormat=string`: every shown field's cell as the text Airtable shows.
    private func textRecord(_ stored: StoredRecord) -> Record {
        var fields = Fields(minimumCapacity: only?.count ?? stored.cells.count)
        for field in shown {
            let cell = field.type.isComputed
                ? computed.map { $0.cell(field, of: stored, in: table) } ?? stored.value(of: field)
                : stored.cells[field.id]
            guard let text, var value = cell, !value.isEmptyCell else { continue }
            if field.type == .multipleRecordLinks, let linkNames, let ids = value.arrayValue?.compactMap(\.stringValue) {
                value = .array(linkNames(field, ids).map { .string($0.stringValue ?? JSONWriter.string($0)) })
            }
            let rendered = text.render(value, field: field)
            if !rendered.isEmpty { fields[byFieldID ? field.id : field.name] = .string(rendered) }
        }
        return Record(id: stored.id, createdTime: stored.createdTime, fields: fields)
    }
}
