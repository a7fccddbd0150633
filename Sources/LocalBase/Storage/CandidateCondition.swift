/// A condition on stored rows that SQL checks through an index, to pick the candidates a listing or an
/// upsert then examines exactly. Only ever a necessary condition: it narrows the scan, never decides.
enum CandidateCondition {
    /// The field's stored value equals this SQL value.
    case cellEquals(fieldID: String, value: SQLiteValue)
    /// The record's creation time (milliseconds since 1970) compares so with this bound.
    case createdTime(Comparison, milliseconds: Double)

    enum Comparison: String {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// The SQL of the condition, with its value bound as parameter `?parameter`.
    func sql(parameter: Int) -> String {
        switch self {
        case .cellEquals(let fieldID, _): return "\(BaseFile.cellExpression(fieldID)) = ?\(parameter)"
        case .createdTime(let comparison, _): return "created_ms \(comparison.rawValue) ?\(parameter)"
        }
    }

    var value: SQLiteValue {
        switch self {
        case .cellEquals(_, let value): return value
        case .createdTime(_, let milliseconds): return .real(milliseconds)
        }
    }

    /// Appends `AND <condition>` for each, binding values after those already in `values`.
    static func append(_ conditions: [CandidateCondition], to sql: inout String, values: inout [SQLiteValue]) {
        for condition in conditions {
            values.append(condition.value)
            sql += " AND " + condition.sql(parameter: values.count)
        }
    }
}
