import Airtable
import Foundation

/// Which records a listing keeps: SQL equalities on stored field values pick the candidates (through
/// expression indexes), then `keeps` decides exactly. The equalities are only ever a necessary
/// condition of `keeps`, so the result is `keeps`' alone; they just spare the scan.
struct RecordFilter {
    var equalities: [(fieldID: String, value: SQLiteValue)] = []
    var test: ((StoredRecord) -> Bool)?

    static var all: RecordFilter { RecordFilter() }

    func keeps(_ record: StoredRecord) -> Bool { test?(record) ?? true }
}
