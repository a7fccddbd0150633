import Airtable
import DrinkShopCore
import Foundation
import Synchronization

/// The shop's services over any `RecordStore`: the menu, promotions, orders, seeding and staff. The REPL,
/// one-shot commands and tests all go through here; storage is reached only through the record API.
public final class Shop: Sendable {
    public let store: any RecordStore
    public let clock: ShopClock
    let pickupNumbers: PickupNumbers
    let makeOrderRef: @Sendable () -> String
    /// Where orders wait while the store cannot be reached; nil when the store is local (it always is).
    public let outbox: Outbox?
    let connection = ConnectionState()
    private let catalogCache = Mutex<Catalog?>(nil)

    /// The menu and promotions as last read, and when.
    struct Catalog {
        var menu: Menu
        var promotions: [Promotion]
        var problems: [String]
        var loadedAt: Date
    }

    /// How long the menu is reused before it is read again (other counters may change it).
    static let catalogLifetime: TimeInterval = 30

    public init(store: any RecordStore, clock: ShopClock = ShopClock(), outbox: Outbox? = nil,
                makeOrderRef: @escaping @Sendable () -> String = { AirtableID.make("ord") }) {
        self.store = store
        self.clock = clock
        self.outbox = outbox
        self.makeOrderRef = makeOrderRef
        pickupNumbers = PickupNumbers(store: store)
    }

    // MARK: - Schema

    /// The tables and fields the shop needs that the base lacks, as readable items.
    public func missingSchema() async throws(ShopError) -> [String] {
        let schema: BaseSchema
        do { schema = try await store.schema() } catch { throw .store(error) }
        var missing: [String] = []
        for spec in ShopSchema.tables {
            guard let table = schema.table(spec.name) else {
                missing.append("table \(spec.name)")
                continue
            }
            for field in spec.fields where table.field(field.name) == nil {
                missing.append("field \(spec.name).\(field.name) (\(field.type.rawValue))")
            }
        }
        return missing
    }

    /// Creates whatever tables and fields are missing, when the store allows it. Returns what it created.
    @discardableResult
    public func createMissingSchema() async throws(ShopError) -> [String] {
        guard let editor = store as? any SchemaEditing else { throw .missingSchema(try await missingSchema()) }
        let schema: BaseSchema
        do { schema = try await store.schema() } catch { throw .store(error) }
        var created: [String] = []
        do {
            for spec in ShopSchema.tables {
                if let table = schema.table(spec.name) {
                    for field in spec.fields where table.field(field.name) == nil {
                        _ = try await editor.createField(in: table.id, field)
                        created.append("field \(spec.name).\(field.name)")
                    }
                } else {
                    _ = try await editor.createTable(spec)
                    created.append("table \(spec.name)")
                }
            }
        } catch {
            throw .store(error)
        }
        return created
    }

    // MARK: - Menu and promotions

    /// The menu; read from the store when the cached copy is older than `catalogLifetime` or on `refresh`.
    public func menu(refresh: Bool = false) async throws(ShopError) -> Menu {
        try await catalog(refresh: refresh).menu
    }

    /// Every promotion (active or not).
    public func promotions(refresh: Bool = false) async throws(ShopError) -> [Promotion] {
        try await catalog(refresh: refresh).promotions
    }

    /// Records of the store that could not be read as drinks or promotions.
    public func catalogProblems() async throws(ShopError) -> [String] {
        try await catalog(refresh: false).problems
    }

    /// The banners to rotate now: active promotions and available seasonal drinks.
    public func banners() async throws(ShopError) -> [Banner] {
        let catalog = try await catalog(refresh: false)
        return Banner.banners(promotions: catalog.promotions, menu: catalog.menu, at: clock.now())
    }

    func catalog(refresh: Bool) async throws(ShopError) -> Catalog {
        let now = clock.now()
        let cached = catalogCache.withLock { $0 }
        if !refresh, let cached, now.timeIntervalSince(cached.loadedAt) < Shop.catalogLifetime, now >= cached.loadedAt {
            return cached
        }
        // Offline, the last menu read is still the menu: orders keep being taken from it.
        if let cached, outbox != nil, !connection.shouldTry(at: now) { return cached }
        var drinkRecords: [Record]
        var promotionRecords: [Record]
        do throws(ShopError) {
            do {
                drinkRecords = try await store.allRecords(in: ShopSchema.drinkTable)
                promotionRecords = try await store.allRecords(in: ShopSchema.promotionTable)
            } catch {
                throw ShopError.store(error)
            }
            if let outbox {
                try await outbox.remember(drinkRecords, of: ShopSchema.drinkTable)
                try await outbox.remember(promotionRecords, of: ShopSchema.promotionTable)
            }
        } catch {
            let failure = error
            guard let outbox, ConnectionState.isUnreachable(failure) else { throw failure }
            connection.markOffline(at: now)
            if let cached { return cached }
            // Restarted during an outage: the menu as this counter last read it.
            guard let drinks = try await outbox.remembered(ShopSchema.drinkTable) else { throw failure }
            drinkRecords = drinks
            promotionRecords = try await outbox.remembered(ShopSchema.promotionTable) ?? []
        }
        var problems: [String] = []
        var drinks: [Drink] = []
        for record in drinkRecords {
            do { drinks.append(try DrinkRecord.drink(from: record)) } catch { problems.append(error.description) }
        }
        let names = Set(drinks.map(\.name))
        var promotions: [Promotion] = []
        for record in promotionRecords {
            do {
                promotions.append(try PromotionRecord.promotion(from: record.fields, knownDrinks: names))
            } catch {
                problems.append("promotion record \(record.id): \(error)")
            }
        }
        let catalog = Catalog(menu: Menu(drinks: drinks), promotions: promotions, problems: problems, loadedAt: now)
        catalogCache.withLock { $0 = catalog }
        return catalog
    }

    func forgetCatalog() {
        catalogCache.withLock { $0 = nil }
    }

    /// The raw `Drink` records, for `menu --json`.
    public func drinkRecords() async throws(ShopError) -> [Record] {
        do { return try await store.allRecords(in: ShopSchema.drinkTable) } catch { throw .store(error) }
    }
}
