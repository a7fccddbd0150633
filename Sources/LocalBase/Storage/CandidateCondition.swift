/// A condition on stored rows that SQL checks through an index, to pick the candidates a listing or an
/// upsert then examines exactly. Only ever a necessary condition: it narrows the scan, never decides.
enum CandidateCondition {
    /// The field's stored value equals this SQL value.
    case cellEquals(fieldID: String, value: SQLiteValue)
    /// The field's stored value is not this text (a blank cell is not it either). The text is written
    /// into the SQL as a literal, not bound, so that a partial index made with the same words
    /// (`ConditionIndex`) is one SQLite may use.
    case cellDiffers(fieldID: String, text: String)
    /// The field's stored value is not non-empty text (absent, empty, or not text at all): what a
    /// text-like field equal to BLANK() needs. Not indexed; it spares the records' parsing only.
    case cellNotText(fieldID: String)
    /// The field has a stored value at all: what `{f} != BLANK()` needs of a field kept in the cells (an
    /// absent cell is blank). Not indexed; it spares parsing the records whose cell is absent.
    case cellPresent(fieldID: String)
    /// The field's stored dateTime text compares so with this instant's (`YYYY-MM-DDTHH:MM:SS.sssZ`), or
    /// the cell is blank or not of that shape (left to the evaluator). Not indexed; it spares parsing.
    case cellTime(fieldID: String, Comparison, text: String)
    /// The record's creation time (milliseconds since 1970) compares so with this bound.
    case createdTime(Comparison, milliseconds: Double)
    /// At least one of these groups holds in full (a formula's `OR`). The rows are found group by group,
    /// each by its own index, rather than by one SQL `OR` the planner might answer with a scan.
    case anyOf([[CandidateCondition]])

    enum Comparison: String {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// The SQL of the condition, with its value (if any) bound as parameter `?parameter`.
    func sql(parameter: Int) -> String {
        switch self {
        case .cellEquals(let fieldID, _): return "\(BaseFile.cellExpression(fieldID)) = ?\(parameter)"
        case .cellDiffers(let fieldID, let text): return "\(BaseFile.cellExpression(fieldID)) IS NOT \(Self.literal(text))"
        case .cellNotText(let fieldID):
            let path = "'$.\(fieldID)'"
            return "(json_type(cells, \(path)) IS NOT 'text' OR json_extract(cells, \(path)) = '')"
        case .cellPresent(let fieldID): return "json_type(cells, '$.\(fieldID)') IS NOT NULL"
        case .cellTime(let fieldID, let comparison, let text):
            let cell = BaseFile.cellExpression(fieldID)
            return "(json_type(cells, '$.\(fieldID)') IS NOT 'text' OR \(cell) NOT GLOB '\(Self.timestampShape)' "
                + "OR \(cell) \(comparison.rawValue) \(Self.literal(text)))"
        case .createdTime(let comparison, _): return "created_ms \(comparison.rawValue) ?\(parameter)"
        case .anyOf: return "1"  // never reaches SQL: `branches` splits it first
        }
    }

    /// The value bound for the condition, or nil when its SQL has none.
    var value: SQLiteValue? {
        switch self {
        case .cellEquals(_, let value): return value
        case .createdTime(_, let milliseconds): return .real(milliseconds)
        case .cellDiffers, .cellNotText, .cellPresent, .cellTime, .anyOf: return nil
        }
    }

    /// Whether an index finds the rows of this condition (so a group holding one is not a scan).
    var isIndexed: Bool {
        switch self {
        case .cellEquals, .createdTime: return true
        case .cellDiffers, .cellNotText, .cellPresent, .cellTime, .anyOf: return false
        }
    }

    /// The GLOB pattern of a dateTime cell as stored: UTC to the millisecond.
    static let timestampShape = "[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9].[0-9][0-9][0-9]Z"

    /// A SQL text literal; the quote is the only character that needs doubling.
    static func literal(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "''") + "'" }

    /// Appends `AND <condition>` for each, binding values after those already in `values`.
    static func append(_ conditions: [CandidateCondition], to sql: inout String, values: inout [SQLiteValue]) {
        for condition in conditions {
            if let value = condition.value {
                values.append(value)
                sql += " AND " + condition.sql(parameter: values.count)
            } else if case .anyOf = condition {
                continue
            } else {
                sql += " AND " + condition.sql(parameter: 0)
            }
        }
    }

    /// The plain conjunctions whose union holds every row the conditions keep: the conditions as they are
    /// when they hold no `anyOf`, else one per group of the first `anyOf`, each with the other conditions
    /// (further `anyOf`s are left out: a candidate condition may always be dropped, it only narrows).
    static func branches(_ conditions: [CandidateCondition]) -> [[CandidateCondition]] {
        var common: [CandidateCondition] = []
        var groups: [[CandidateCondition]]?
        for condition in conditions {
            if case .anyOf(let found) = condition {
                if groups == nil { groups = found }
            } else {
                common.append(condition)
            }
        }
        guard let groups else { return [common] }
        return groups.map { common + $0.filter { if case .anyOf = $0 { false } else { true } } }
    }
}
