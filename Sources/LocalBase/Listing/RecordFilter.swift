import Airtable
import Foundation

/// Which records a listing keeps: SQL conditions on stored values and creation times pick the
/// candidates (through indexes), then `keeps` decides exactly. The conditions are only ever necessary
/// conditions of `keeps`, so the result is `keeps`' alone; they just spare the scan.
struct RecordFilter {
    var conditions: [CandidateCondition] = []
    /// Throws `APIError` when the records cannot be decided (a formula's step budget is spent).
    var test: ((StoredRecord) throws -> Bool)?
    /// Whether the conditions say exactly what `test` says (a formula made only of index conditions:
    /// `FormulaFilter.isExact`), so the rows SQL finds need no evaluation.
    var conditionsAreExact = false
    /// The stored cells `test` reads (field ids), so a listing reads only those and the asked fields.
    var fieldIDs: Set<String> = []

    static var all: RecordFilter { RecordFilter() }

    /// Whether `keeps` looks at the record at all.
    var evaluates: Bool { test != nil && !conditionsAreExact }

    func keeps(_ record: StoredRecord) throws -> Bool {
        guard let test, !conditionsAreExact else { return true }
        return try test(record)
    }

    /// Records both filters keep.
    func and(_ other: RecordFilter) -> RecordFilter {
        var both = RecordFilter()
        both.conditions = conditions + other.conditions
        both.fieldIDs = fieldIDs.union(other.fieldIDs)
        // SQL applies the first `anyOf` only (`CandidateCondition.branches`): two are not exact together.
        let anyOfs = both.conditions.filter { if case .anyOf = $0 { true } else { false } }.count
        both.conditionsAreExact = (conditionsAreExact || test == nil) && (other.conditionsAreExact || other.test == nil)
            && anyOfs <= 1
        switch (test, other.test) {
        case (nil, nil): both.test = nil
        case (let one?, nil), (nil, let one?): both.test = one
        case (let first?, let second?): both.test = { try first($0) && second($0) }
        }
        return both
    }
}
