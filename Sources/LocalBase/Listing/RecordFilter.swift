import Airtable
import Foundation

/// Which records a listing keeps: SQL conditions on stored values and creation times pick the
/// candidates (through indexes), then `keeps` decides exactly. The conditions are only ever necessary
/// conditions of `keeps`, so the result is `keeps`' alone; they just spare the scan.
struct RecordFilter {
    var conditions: [CandidateCondition] = []
    var test: ((StoredRecord) -> Bool)?

    static var all: RecordFilter { RecordFilter() }

    func keeps(_ record: StoredRecord) -> Bool { test?(record) ?? true }

    /// Records both filters keep.
    func and(_ other: RecordFilter) -> RecordFilter {
        var both = RecordFilter()
        both.conditions = conditions + other.conditions
        switch (test, other.test) {
        case (nil, nil): both.test = nil
        case (let one?, nil), (nil, let one?): both.test = one
        case (let first?, let second?): both.test = { first($0) && second($0) }
        }
        return both
    }
}
