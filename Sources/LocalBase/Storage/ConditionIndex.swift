import Airtable

/// The one index that answers a conjunction of candidate conditions when a single-field index would
/// not: one over every field the conjunction holds equal (`#6 of today` is `pickupNumber` and
/// `businessDay` together, where either alone finds a row per stored day), made partial by the
/// conjunction's `IS NOT` terms (`#6 still open` is an index of only the orders not picked up or
/// cancelled, which stays small however many days the file holds) and its stored-cell terms (a day's
/// orders with audit entries is an index of only the lines that have one).
///
/// Its name is made from its shape, so every process and every start finds the same index, and the
/// listing names it (`INDEXED BY`): with no statistics gathered, SQLite cannot tell it beats the
/// single-field index on the same first column.
struct ConditionIndex: Equatable {
    let name: String
    let createSQL: String

    /// The index for these conditions, or nil when they need none beyond the single-field and
    /// creation-time indexes (one equality alone, a creation-time bound, or no equality at all).
    init?(tableID: String, conditions: [CandidateCondition]) {
        var equal = Set<String>()
        var differs = Set<String>()
        for condition in conditions {
            switch condition {
            case .cellEquals(let fieldID, _): equal.insert(fieldID)
            case .cellDiffers, .cellPresent: differs.insert(condition.sql(parameter: 0))
            case .createdTime: return nil
            case .anyOf, .cellNotText, .cellTime: continue
            }
        }
        guard !equal.isEmpty, equal.count > 1 || !differs.isEmpty else { return nil }
        let fields = equal.sorted()
        let terms = differs.sorted()
        var name = "index_\(tableID)_" + fields.joined(separator: "_")
        if !terms.isEmpty { name += "_where" + Self.digest(terms.joined(separator: " AND ")) }
        var sql = "CREATE INDEX IF NOT EXISTS \"\(name)\" ON \(BaseFile.recordTable(tableID)) ("
            + fields.map(BaseFile.cellExpression).joined(separator: ", ") + ")"
        if !terms.isEmpty { sql += " WHERE " + terms.joined(separator: " AND ") }
        self.name = name
        createSQL = sql
    }

    /// FNV-1a of the partial clause, in hex: the same words give the same name in every process.
    private static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}

extension BaseFile {
    /// Whether an index of this name exists in the file.
    func hasIndex(named name: String) throws -> Bool {
        try connection.integerValue("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?1",
                                    [.text(name)]) == 1
    }

    /// Creates every index a listing with these conditions reads through, when missing (one per
    /// equality field, the creation-time index, and each branch's `ConditionIndex`).
    func ensureIndexes(tableID: String, for conditions: [CandidateCondition]) throws {
        for branch in CandidateCondition.branches(conditions) {
            for condition in branch {
                switch condition {
                case .cellEquals(let fieldID, _) where try !hasIndex(tableID: tableID, fieldID: fieldID):
                    try connection.writeTransaction { try ensureIndex(tableID: tableID, fieldID: fieldID) }
                case .createdTime where try !hasCreatedIndex(tableID: tableID):
                    try connection.writeTransaction { try ensureCreatedIndex(tableID: tableID) }
                default:
                    break
                }
            }
            if let index = ConditionIndex(tableID: tableID, conditions: branch), try !hasIndex(named: index.name) {
                try connection.writeTransaction { try connection.execute(index.createSQL) }
            }
        }
    }
}

extension LocalBase {
    /// The SQL indexes the file holds on the records of table `tableName` (what `drinkshop check` and
    /// the upgrade tests look at; the listing makes them on first use, `Shop.prepareLookups` at opening).
    public func indexNames(of tableName: String) async throws(AirtableError) -> [String] {
        try await perform { context in
            let tableID = try context.table(tableName).id
            var names: [String] = []
            try context.file.connection.query(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 ORDER BY name",
                [.text("records_\(tableID)")]) { row in names.append(row.text(0) ?? "") }
            return names
        }
    }
}
