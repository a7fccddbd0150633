import Airtable

/// Which version of the shop's tables and fields a store holds. The embedded store records it when the
/// schema step (`Shop.createMissingSchema`) has brought it up to date, so the shop knows from it which
/// fields are there: no schema read at opening, no write refused to find out. A store made before the
/// version was recorded is upgraded in place (whatever is missing added, nothing dropped), then recorded.
/// A base over the API keeps no version: its schema is read instead (`drinkshop setup`, `MissingOrderFields`).
public enum ShopSchemaVersion {
    /// The name the version is recorded under in the store.
    static let name = "shop"

    /// How many tables and fields the schema step creates. Tables and fields are only ever added (never
    /// renamed or dropped), so it grows with each one, and a new field raises it without anyone remembering to.
    public static let current = ShopSchema.embeddedTables.reduce(0) { $0 + 1 + $1.fields.count }

    /// The version recorded in `store`; nil when it keeps none (a remote base) or none was recorded yet.
    public static func recorded(in store: any RecordStore) async throws(ShopError) -> Int? {
        guard let keeper = store.schemaVersions else { return nil }
        do { return try await keeper.schemaVersion(named: name) } catch { throw .store(error) }
    }

    /// Whether `store` records a version at least this one: every table and field of this version is there.
    public static func isCurrent(in store: any RecordStore) async throws(ShopError) -> Bool {
        (try await recorded(in: store)).map { $0 >= current } ?? false
    }

    /// Records this version in `store`, when it keeps versions (never lowering a newer one).
    /// - Returns: whether it was recorded (false for a remote base).
    @discardableResult
    static func record(in store: any RecordStore) async throws(ShopError) -> Bool {
        guard let keeper = store.schemaVersions else { return false }
        guard !(try await isCurrent(in: store)) else { return true }
        do { try await keeper.recordSchemaVersion(current, named: name) } catch { throw .store(error) }
        return true
    }
}
