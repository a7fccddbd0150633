import Airtable
import AirtableFormula
import Foundation

/// The order of a sorted listing.
///
/// By field type: numbers (number, currency, percent, duration, rating, autoNumber) numerically;
/// checkboxes unchecked before checked; single selects in the order of the field's choices, as
/// Airtable sorts them; collaborators by name, barcodes by their text, links by their record ids; dates and times chronologically (their stored ISO text sorts that way);
/// everything else as text, compared case-, width- and accent-insensitively first and then by the
/// exact Unicode scalars (so "apple" < "Banana" < "banana", and the order is total and repeatable).
/// Blank cells come first ascending and last descending. Ties keep creation order.
struct RecordOrder {
    struct Key {
        var field: FieldSchema
        var descending: Bool
    }

    enum Value: Comparable {
        case blank
        case number(Double)
        case text(folded: String, exact: String)

        static func < (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case (.blank, .blank): return false
            case (.blank, _): return true
            case (_, .blank): return false
            case (.number(let a), .number(let b)): return a < b
            case (.text(let a, let x), .text(let b, let y)):
                return a != b ? a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
                    : x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
    }

    let keys: [Key]
    /// Works out the cells of computed sort fields (formula, lookup...).
    let computed: ComputedCells?
    let table: TableSchema?

    init(keys: [Key], computed: ComputedCells? = nil, table: TableSchema? = nil) {
        self.keys = keys
        self.computed = computed
        self.table = table
    }

    /// Whether a sort field is computed from more than the record's row, so whole records are needed.
    var needsWholeRecords: Bool { keys.contains { !$0.field.type.isStoredInRow } }

    /// The sort values of one record, computed once per record rather than once per comparison.
    func values(of record: StoredRecord) -> [Value] {
        keys.map { key in
            if !key.field.type.isStoredInRow, let computed, let table {
                let field = key.field
                let resultType = field.options?["result"]?["type"]?.stringValue.flatMap(FieldType.init(rawValue:))
                let shown = resultType.map { FieldSchema(id: field.id, name: field.name, type: $0) } ?? field
                return Self.value(computed.cell(field, of: record, in: table), field: shown)
            }
            return Self.value(record.value(of: key.field), field: key.field)
        }
    }

    /// Whether the record with `a` sorts before the one with `b` (ties are left to the caller).
    func precedes(_ a: [Value], _ b: [Value]) -> Bool? {
        for (index, key) in keys.enumerated() where a[index] != b[index] {
            return key.descending ? b[index] < a[index] : a[index] < b[index]
        }
        return nil
    }

    static func value(_ cell: JSONValue?, field: FieldSchema) -> Value {
        guard let cell, !cell.isEmptyCell else { return .blank }
        switch (field.type, cell) {
        case (_, .number(let n)): return .number(n)
        case (.checkbox, .bool(let checked)): return .number(checked ? 1 : 0)
        case (.singleSelect, .string(let name)):
            return .number(Double(field.choices.firstIndex(of: name) ?? field.choices.count))
        case (.singleCollaborator, .object(let user)):
            return text(user["name"]?.stringValue ?? user["email"]?.stringValue ?? "")
        case (.multipleCollaborators, .array(let users)):
            return text(users.map { $0["name"]?.stringValue ?? $0["email"]?.stringValue ?? "" }.joined(separator: ", "))
        case (.barcode, .object(let code)):
            return text(code["text"]?.stringValue ?? "")
        case (.multipleAttachments, .array(let items)):
            return text(items.compactMap { $0["filename"]?.stringValue }.joined(separator: ", "))
        case (_, .array(let items)):
            return text(items.map { $0.stringValue ?? JSONWriter.string($0) }.joined(separator: ", "))
        case (_, .string(let s)): return text(s)
        default: return text(JSONWriter.string(cell))
        }
    }

    private static func text(_ s: String) -> Value {
        .text(folded: s.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil),
              exact: s)
    }
}
