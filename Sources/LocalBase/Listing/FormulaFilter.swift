import Airtable
import Foundation

/// filterByFormula as a record filter: the compiled formula decides, and the simple equalities it
/// requires (`{f} = 'x'` alone or inside a top-level AND) are pushed down to SQL to pick candidates.
enum FormulaFilter {
    static func make(_ formula: String, table: TableSchema, now: Date) throws -> RecordFilter {
        let compiled: CompiledFormula
        do {
            compiled = try CompiledFormula(formula, fields: table.fields)
        } catch {
            throw APIError.invalidFormula(error.message)
        }
        var filter = RecordFilter()
        filter.equalities = requiredEqualities(compiled.expression, table: table)
        filter.test = { stored in
            // Airtable evaluates formulas in UTC unless the formula itself sets a zone.
            compiled.matches(FormulaRecord(id: stored.id, createdTime: stored.createdTime, cells: stored.allCells(table),
                                           now: now, timeZone: FormulaRecord.utc))
        }
        return filter
    }

    /// Equalities every matching record satisfies, as SQL values of stored cells.
    ///
    /// Only cases where the evaluator's `=` is plain equality of the stored JSON value qualify (see
    /// FormulaComparison): a text-like field against non-empty text (exact, case-sensitive), a number
    /// field against a non-zero number (blank equals 0, so 0 is left to the evaluator), and a date field
    /// against a `YYYY-MM-DD` literal (both sides are that day's midnight in one zone, so equal instants
    /// mean equal text). Anything else is left to the evaluator alone.
    static func requiredEqualities(_ expression: FormulaExpression, table: TableSchema)
        -> [(fieldID: String, value: SQLiteValue)]
    {
        switch expression {
        case .call("AND", let arguments):
            return arguments.flatMap { requiredEqualities($0, table: table) }
        case .binary(.equal, .field(let name), let literal), .binary(.equal, let literal, .field(let name)):
            guard let field = table.field(name), let value = storedValue(literal, for: field) else { return [] }
            return [(field.id, value)]
        default:
            return []
        }
    }

    private static func storedValue(_ literal: FormulaExpression, for field: FieldSchema) -> SQLiteValue? {
        switch (field.type, literal) {
        case (.singleLineText, .text(let s)), (.multilineText, .text(let s)), (.richText, .text(let s)),
            (.email, .text(let s)), (.url, .text(let s)), (.phoneNumber, .text(let s)), (.singleSelect, .text(let s)):
            return s.isEmpty ? nil : .text(s)
        case (.number, .number(let n)), (.currency, .number(let n)), (.percent, .number(let n)),
            (.duration, .number(let n)), (.rating, .number(let n)):
            return n == 0 || !n.isFinite ? nil : .real(n)
        case (.date, .text(let s)):
            return isCalendarDay(s) ? .text(s) : nil
        default:
            return nil
        }
    }

    /// Exactly `YYYY-MM-DD`, a real day.
    private static func isCalendarDay(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return false }
        let digits = [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy { bytes[$0] >= 48 && bytes[$0] <= 57 }
        return digits && AirtableTimestamp.parse(text) != nil
    }
}
