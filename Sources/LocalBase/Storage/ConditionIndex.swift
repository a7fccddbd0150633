import Airtable
import AirtableFormula

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
        if let suffix = Self.partialSuffix(conditions) { name += suffix }
        var sql = "CREATE INDEX IF NOT EXISTS \"\(name)\" ON \(BaseFile.recordTable(tableID)) ("
            + fields.map(BaseFile.cellExpression).joined(separator: ", ") + ")"
        if !terms.isEmpty { sql += " WHERE " + terms.joined(separator: " AND ") }
        self.name = name
        createSQL = sql
    }

    /// The ending of the name of a partial index made for `conditions` (whatever its columns): `_where` and
    /// the digest of its clause; nil when the conditions hold no `IS NOT` or stored-cell term.
    static func partialSuffix(_ conditions: [CandidateCondition]) -> String? {
        let terms = conditions.compactMap { condition -> String? in
            switch condition {
            case .cellDiffers, .cellPresent: return condition.sql(parameter: 0)
            default: return nil
            }
        }.sorted()
        return terms.isEmpty ? nil : "_where" + digest(terms.joined(separator: " AND "))
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
        try connection.schemaHas("index", named: name)
    }

    /// The partial index that answers a conjunction with no equality, `IS NOT` terms only (`{status} != 'a'`
    /// and so on): one made for another conjunction with exactly those terms, whose rows are the ones this
    /// conjunction reads (the open orders: those a number lookup's partial index already holds). Nil when
    /// there is none or the conjunction has its own index to read through.
    func partialIndex(tableID: String, for conditions: [CandidateCondition]) throws -> String? {
        for condition in conditions {
            switch condition {
            case .cellEquals, .createdTime: return nil
            default: continue
            }
        }
        guard let suffix = ConditionIndex.partialSuffix(conditions) else { return nil }
        return try connection.textValue(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?1 AND substr(name, -length(?2)) = ?2 "
                + "ORDER BY name LIMIT 1",
            [.text("records_\(tableID)"), .text(suffix)])
    }

    /// Creates every index a listing with these conditions reads through, when missing: the creation-time
    /// index, and each branch's `ConditionIndex` or, for a branch that has none, one per equality field (a
    /// branch with its own index reads through it alone, so single-field indexes made for it would only
    /// cost every insert a page).
    func ensureIndexes(tableID: String, for conditions: [CandidateCondition]) throws {
        for branch in CandidateCondition.branches(conditions) {
            let own = ConditionIndex(tableID: tableID, conditions: branch)
            for condition in branch {
                switch condition {
                case .cellEquals(let fieldID, _) where try own == nil && !hasIndex(tableID: tableID, fieldID: fieldID):
                    try connection.writeTransaction { try ensureIndex(tableID: tableID, fieldID: fieldID) }
                case .createdTime where try !hasCreatedIndex(tableID: tableID):
                    try connection.writeTransaction { try ensureCreatedIndex(tableID: tableID) }
                default:
                    break
                }
            }
            if let index = own, try !hasIndex(named: index.name) {
                try connection.writeTransaction { try connection.execute(index.createSQL) }
            }
        }
    }
}

extension BaseFile {
    /// Drops the single-field indexes of these fields (`ensureIndex`'s), when present: what an upgrade does
    /// with indexes an earlier version made for lookups that now read through others.
    func retireIndexes(tableID: String, fieldIDs: [String]) throws {
        for fieldID in fieldIDs where try hasIndex(tableID: tableID, fieldID: fieldID) {
            try connection.writeTransaction { try connection.execute("DROP INDEX IF EXISTS \"index_\(tableID)_\(fieldID)\"") }
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
