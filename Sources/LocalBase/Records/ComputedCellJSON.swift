import Airtable
import AirtableFormula
import Foundation

/// A computed value as Airtable's API writes it in a record: numbers as JSON numbers, NaN and the
/// infinities as `{"specialValue": …}`, an error as `{"error": "#ERROR!"}`, dates as ISO timestamps
/// (a result typed as a date as its UTC day), lists as arrays; blank and empty text are left out.
/// True and false are 1 and 0, as Airtable's formulas give them.
enum ComputedCellJSON {
    static func cell(_ value: FormulaValue, result: JSONValue?) -> JSONValue? {
        switch value {
        case .blank: return nil
        case .number(let n):
            if n.isNaN { return ["specialValue": "NaN"] }
            if n.isInfinite { return ["specialValue": .string(n > 0 ? "Infinity" : "-Infinity")] }
            return .number(n)
        case .text(let text): return text.isEmpty ? nil : .string(text)
        case .bool(let b): return .number(b ? 1 : 0)
        case .date(let date):
            let stamp = AirtableTimestamp.format(date)
            return result?["type"]?.stringValue == "date" ? .string(String(stamp.prefix(10))) : .string(stamp)
        case .array(let items):
            let cells = items.compactMap { cell($0, result: result) }
            return cells.isEmpty ? nil : .array(cells)
        case .error: return ["error": "#ERROR!"]
        }
    }
}
