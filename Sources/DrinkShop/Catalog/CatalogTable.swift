import Airtable

/// Storage of a table whose records are keyed by their `name` (Drink, Promotion): listed whole and
/// upserted on `name`. What the cells mean belongs to `DrinkRecord` and `PromotionRecord`.
struct CatalogTable: Sendable {
    /// The key both tables declare in `ShopSchema` (`DrinkField.name`, `PromotionField.name`).
    static let nameField = DrinkField.name.rawValue

    let store: any RecordStore
    let table: String

    /// Every record of the table.
    func all() async throws(ShopError) -> [Record] {
        do { return try await store.allRecords(in: table) } catch { throw .store(error) }
    }

    /// Writes `records` in one upsert on `name`.
    func upsertOnName(_ records: [Fields]) async throws(ShopError) {
        guard !records.isEmpty else { return }
        do {
            _ = try await store.upsertRecords(in: table, records.map { UpsertRecord(fields: $0) },
                                              mergeOn: [CatalogTable.nameField], replace: false,
                                              options: WriteOptions(typecast: true))
        } catch {
            throw .store(error)
        }
    }

    /// The record's name, if it has one.
    static func name(of record: Record) -> String? { record.fields[nameField]?.stringValue }
    static func name(of fields: Fields) -> String? { fields[nameField]?.stringValue }
}
