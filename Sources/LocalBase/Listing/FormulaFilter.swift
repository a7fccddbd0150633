import Airtable
import AirtableFormula
import Foundation

/// filterByFormula as a record filter: the compiled formula decides, and the simple equalities it
/// requires (`{f} = 'x'` alone or inside a top-level AND) are pushed down to SQL to pick candidates.
enum FormulaFilter {
    /// The primary values of the records a link field's cell names (what a formula sees of links).
    typealias LinkNames = (FieldSchema, [String]) -> [JSONValue]

    static func make(_ formula: String, table: TableSchema, now: Date, linkNames: LinkNames? = nil,
                     computed: ComputedCells? = nil) throws -> RecordFilter
    {
        let compiled: CompiledFormula
        do {
            compiled = try CompiledFormula(formula, fields: table.fields)
        } catch {
            throw APIError.invalidFormula(error.message)
        }
        var filter = RecordFilter()
        filter.conditions = requiredConditions(compiled.expression, table: table)
        filter.fieldIDs = compiled.referencedFieldIDs
        filter.conditionsAreExact = isExact(compiled.expression, table: table)
        let links = table.fields.filter { $0.type == .multipleRecordLinks }
        let computedFields = table.fields.filter {
            compiled.referencedFieldIDs.contains($0.id) && $0.type.isComputed && !$0.type.isStoredInRow
        }
        // One budget for every record this listing evaluates: a pattern too slow for it answers 422, not a
        // core held for minutes.
        let budget = FormulaBudget()
        filter.test = { stored in
            var cells = stored.allCells(table)
            if let linkNames {
                for field in links {
                    guard let ids = cells[field.id]?.arrayValue?.compactMap(\.stringValue) else { continue }
                    cells[field.id] = .array(linkNames(field, ids))
                }
            }
            // Airtable evaluates formulas in UTC unless the formula itself sets a zone.
            var record = FormulaRecord(id: stored.id, createdTime: stored.createdTime, cells: cells, now: now,
                                       timeZone: FormulaRecord.utc, lastModifiedTime: stored.modifiedTime)
            if let computed {
                for field in computedFields { record.values[field.id] = computed.value(field, of: stored, in: table) }
            }
            let kept = compiled.matches(record, budget: budget)
            if budget.isSpent { throw APIError.invalidFormula(FormulaBudget.spentMessage) }
            return kept
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
    ///
    /// Creation-time bounds qualify too, in the form the shop's "today" filter and the formula builders
    /// write them: `IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('…Z'))`, `IS_AFTER(…)`, and either under
    /// `NOT`, with a full UTC timestamp literal (`YYYY-MM-DDTHH:MM:SS.sssZ`), which is an exact instant.
    ///
    /// `{f} != 'x'` on a text-like field qualifies as "the stored value is not x" (a blank cell is not x
    /// either, as in the evaluator), `{f} != BLANK()` on a field kept in the cells as "the cell is there", and an `OR` whose every branch is narrowed by an index qualifies as
    /// `anyOf` (`#6 of today or still open`; a day range written as one `OR` per day): the rows are then
    /// found branch by branch (`RecordRows.scan`).
    static func requiredConditions(_ expression: FormulaExpression, table: TableSchema) -> [CandidateCondition] {
        let conditions = conditions(expression, table: table)
        // An `anyOf` a branch of which no index narrows (even with the conditions beside it) would be a
        // scan per branch: it is left out, and the rest narrow alone.
        let common = conditions.filter { if case .anyOf = $0 { false } else { true } }
        let commonIndexed = common.contains(where: \.isIndexed)
        return conditions.filter { condition in
            guard case .anyOf(let groups) = condition else { return true }
            return commonIndexed || groups.allSatisfy { $0.contains(where: \.isIndexed) }
        }
    }

    /// Whether the conditions `requiredConditions` finds say exactly what the formula says, so the rows
    /// SQL finds with them need no evaluation: an `AND` of exact parts with at most one `OR`, whose
    /// branches are each an exact leaf or an `AND` of them. Exact leaves: a text-like field equal to
    /// non-empty text (the evaluator's `=` between two texts is code-point equality, SQLite's binary
    /// `=`), and a creation-time bound at a whole second (`Double(ms) / 1000` against a whole number of
    /// seconds is exact, so `created_ms < t` and the evaluator's `IS_BEFORE` agree to the millisecond).
    /// Anything else, or an `OR` that `requiredConditions` leaves out, keeps the evaluator.
    static func isExact(_ expression: FormulaExpression, table: TableSchema) -> Bool {
        let found = conditions(expression, table: table)
        let required = requiredConditions(expression, table: table)
        let anyOfs = { (list: [CandidateCondition]) in list.filter { if case .anyOf = $0 { true } else { false } }.count }
        guard !required.isEmpty, anyOfs(found) == anyOfs(required), anyOfs(required) <= 1 else { return false }
        return isExactConjunction(expression, table: table, allowingOr: true)
    }

    private static func isExactConjunction(_ expression: FormulaExpression, table: TableSchema, allowingOr: Bool) -> Bool {
        switch expression {
        case .call(let name, let arguments) where name.uppercased() == "AND":
            return !arguments.isEmpty && arguments.allSatisfy { isExactConjunction($0, table: table, allowingOr: allowingOr) }
        case .call(let name, let arguments) where name.uppercased() == "OR":
            return allowingOr && !arguments.isEmpty
                && arguments.allSatisfy { isExactConjunction($0, table: table, allowingOr: false) }
        default:
            return isExactLeaf(expression, table: table)
        }
    }

    private static func isExactLeaf(_ expression: FormulaExpression, table: TableSchema) -> Bool {
        switch expression {
        case .binary(.equal, .field(let name), let literal), .binary(.equal, let literal, .field(let name)):
            guard let field = table.field(name), case .text? = storedValue(literal, for: field) else { return false }
            return field.type != .date
        case .call(let name, let arguments) where name.uppercased() == "NOT" && arguments.count == 1:
            return isWholeSecond(timeBound(arguments[0], negated: true))
        default:
            return isWholeSecond(timeBound(expression, negated: false))
        }
    }

    private static func isWholeSecond(_ bound: CandidateCondition?) -> Bool {
        guard case .createdTime(_, let milliseconds)? = bound else { return false }
        return milliseconds.truncatingRemainder(dividingBy: 1000) == 0
    }

    private static func conditions(_ expression: FormulaExpression, table: TableSchema) -> [CandidateCondition] {
        switch expression {
        case .call(let name, let arguments) where name.uppercased() == "AND":
            return arguments.flatMap { conditions($0, table: table) }
        case .call(let name, let arguments) where name.uppercased() == "OR" && !arguments.isEmpty:
            var groups: [[CandidateCondition]] = []
            for argument in arguments {
                // A branch with nothing to narrow it lets any row through: the OR narrows nothing.
                let group = requiredConditions(argument, table: table).filter { if case .anyOf = $0 { false } else { true } }
                guard !group.isEmpty else { return [] }
                groups.append(group)
            }
            return groups.count == 1 ? groups[0] : [.anyOf(groups)]
        case .binary(.equal, .field(let name), let literal), .binary(.equal, let literal, .field(let name)):
            guard let field = table.field(name) else { return [] }
            if isBlank(literal), isTextLike(field.type) { return [.cellNotText(fieldID: field.id)] }
            guard let value = storedValue(literal, for: field) else { return [] }
            return [.cellEquals(fieldID: field.id, value: value)]
        case .binary(.notEqual, .field(let name), let literal), .binary(.notEqual, let literal, .field(let name)):
            guard let field = table.field(name) else { return [] }
            // An absent cell is blank, so it is never != BLANK(); computed fields have no stored cell.
            if isBlank(literal) { return field.type.isComputed ? [] : [.cellPresent(fieldID: field.id)] }
            guard case .text(let text)? = storedValue(literal, for: field) else { return [] }
            return [.cellDiffers(fieldID: field.id, text: text)]
        case .call(let name, let arguments) where name.uppercased() == "NOT" && arguments.count == 1:
            return timeBound(arguments[0], negated: true, table: table).map { [$0] } ?? []
        default:
            return timeBound(expression, negated: false, table: table).map { [$0] } ?? []
        }
    }

    /// `IS_BEFORE`/`IS_AFTER` between a time and an exact instant, as a candidate bound: CREATED_TIME() as a
    /// bound on created_ms; a dateTime field as a bound on its stored text (a dateTime cell is kept as UTC
    /// `YYYY-MM-DDTHH:MM:SS.sssZ`, whose text order is time order; a blank cell or a text of another shape is
    /// let through for the evaluator). Without `table`, only CREATED_TIME().
    private static func timeBound(_ expression: FormulaExpression, negated: Bool, table: TableSchema? = nil)
        -> CandidateCondition?
    {
        guard case .call(let name, let arguments) = expression, arguments.count == 2 else { return nil }
        let isBefore: Bool
        switch name.uppercased() {
        case "IS_BEFORE": isBefore = true
        case "IS_AFTER": isBefore = false
        default: return nil
        }
        // The time compared (nil: CREATED_TIME(), else the dateTime field), on which side, and the instant.
        func time(_ operand: FormulaExpression) -> FieldSchema?? {
            if isCreatedTime(operand) { return .some(nil) }
            guard case .field(let fieldName) = operand, let field = table?.field(fieldName), field.type == .dateTime else { return nil }
            return .some(field)
        }
        let timeFirst: Bool
        let field: FieldSchema?
        let instant: Double
        if let found = time(arguments[0]), let value = exactInstant(arguments[1]) {
            (timeFirst, field, instant) = (true, found, value)
        } else if let found = time(arguments[1]), let value = exactInstant(arguments[0]) {
            (timeFirst, field, instant) = (false, found, value)
        } else {
            return nil
        }
        // time < t when the time is before t (or t is after it); the rest follows.
        let below = isBefore == timeFirst
        let comparison: CandidateCondition.Comparison = switch (below, negated) {
        case (true, false): .less
        case (true, true): .greaterOrEqual
        case (false, false): .greater
        case (false, true): .lessOrEqual
        }
        guard let field else { return .createdTime(comparison, milliseconds: instant) }
        return .cellTime(fieldID: field.id, comparison, text: AirtableTimestamp.format(Date(timeIntervalSince1970: instant / 1000)))
    }

    private static func isCreatedTime(_ expression: FormulaExpression) -> Bool {
        if case .call(let name, let arguments) = expression { return name.uppercased() == "CREATED_TIME" && arguments.isEmpty }
        return false
    }

    /// Milliseconds of `DATETIME_PARSE('YYYY-MM-DDTHH:MM:SS.sssZ')`, the only literal form trusted here.
    private static func exactInstant(_ expression: FormulaExpression) -> Double? {
        guard case .call(let name, let arguments) = expression, name.uppercased() == "DATETIME_PARSE",
              arguments.count == 1, case .text(let text) = arguments[0], text.utf8.count == 24, text.hasSuffix("Z"),
              let date = AirtableTimestamp.parse(text), AirtableTimestamp.format(date) == text
        else { return nil }
        return (date.timeIntervalSince1970 * 1000).rounded()
    }

    private static func isBlank(_ expression: FormulaExpression) -> Bool {
        if case .call(let name, let arguments) = expression { return name.uppercased() == "BLANK" && arguments.isEmpty }
        return false
    }

    /// Fields whose cell the evaluator reads as text: `{f} = BLANK()` holds for them only when the cell
    /// is not non-empty text (text against blank compares as text, "" for blank).
    private static func isTextLike(_ type: FieldType) -> Bool {
        switch type {
        case .singleLineText, .multilineText, .richText, .email, .url, .phoneNumber, .singleSelect: return true
        default: return false
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
