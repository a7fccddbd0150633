import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation
import Synchronization

/// The menu and the promotions, read from the store and cached for `lifetime` seconds or until the shared
/// settings say the menu changed (other counters may change them). Offline, the last menu read is still the
/// menu: a counter restarted during an outage takes orders from the copy its outbox keeps.
public final class Catalog: Sendable {
    /// The menu and promotions as last read, and when.
    struct Snapshot {
        var menu: Menu
        var promotions: [Promotion]
        var problems: [String]
        /// The Drink records the menu was read from (for `menu --json`).
        var drinkRecords: [Record]
        var loadedAt: Date
        /// The `menuChangedAt` signal as read with the menu: a reading of the settings that holds another says
        /// the menu changed since (`follow`).
        var signal: String?
    }

    private let drinks: CatalogTable
    private let promotionRecords: CatalogTable
    /// The `Setting` table, where what has run out besides whole drinks is kept (`SoldOutItems`).
    private let settingRecords: CatalogTable
    private let clock: ShopClock
    private let delivery: DeliveryPolicy
    /// How long a running counter reuses the menu before it reads it again. Every change made through DrinkShop
    /// (sold out, restocked, repriced, seeded) also sets `menuChangedAt`, which drops the copy at the counter's next
    /// reading of the settings (`follow`); the lifetime bounds only changes made elsewhere (Airtable's grid).
    let lifetime: TimeInterval
    /// How long a one-shot command trusts the copy a process of this machine kept in the outbox (it has read no
    /// settings to follow before it).
    static let keptCopyLifetime: TimeInterval = 30
    /// The lifetime by default, and on Airtable itself, where each reading of the menu is three calls against the
    /// plan's monthly quota: there a running counter reads it again every 10 minutes unless the settings say it
    /// changed.
    public static let defaultLifetime: TimeInterval = 30
    public static let airtableLifetime: TimeInterval = 600
    private let cache = Mutex<Snapshot?>(nil)

    init(store: any RecordStore, clock: ShopClock, delivery: DeliveryPolicy, lifetime: TimeInterval = Catalog.defaultLifetime) {
        drinks = CatalogTable(store: store, table: ShopSchema.drinkTable)
        promotionRecords = CatalogTable(store: store, table: ShopSchema.promotionTable)
        settingRecords = CatalogTable(store: store, table: ShopSchema.settingTable)
        self.clock = clock
        self.delivery = delivery
        self.lifetime = lifetime
    }

    /// The menu; read from the store when the cached copy is older than `lifetime` or on `refresh`.
    public func menu(refresh: Bool = false) async throws(ShopError) -> Menu {
        try await snapshot(refresh: refresh).menu
    }

    /// Every promotion (active or not).
    public func promotions(refresh: Bool = false) async throws(ShopError) -> [Promotion] {
        try await snapshot(refresh: refresh).promotions
    }

    /// Records of the store that could not be read as drinks or promotions, and a menu copy that could
    /// not be kept.
    public func problems() async throws(ShopError) -> [String] {
        try await snapshot(refresh: false).problems
    }

    /// The banners to rotate now: active promotions and available seasonal drinks.
    public func banners() async throws(ShopError) -> [Banner] {
        let snapshot = try await snapshot(refresh: false)
        return Banner.banners(promotions: snapshot.promotions, menu: snapshot.menu, at: clock.now())
    }

    /// The Drink records as JSON (`[{"id":…,"fields":{…}}]`), freshly read, only those `select` keeps
    /// of the menu (all when nil). One listing serves both the menu and the records.
    public func menuJSON(selecting select: (@Sendable (Menu) -> [Drink])? = nil) async throws(ShopError) -> String {
        let snapshot = try await snapshot(refresh: true)
        let wanted = select.map { Set($0(snapshot.menu).map(\.name)) }
        let chosen = snapshot.drinkRecords.filter { record in
            wanted.map { $0.contains(CatalogTable.name(of: record) ?? "") } ?? true
        }
        return RecordJSON.text(chosen)
    }

    /// Forgets the cached copy when `settings` (a reading of the shared settings newer than it) hold another
    /// `menuChangedAt` than the copy was read with: a drink, add-on, ingredient or size sold out, restocked or
    /// repriced at another counter is seen at the next use, not after the copy's `lifetime`.
    func follow(_ settings: [String: String]) async {
        let signal = settings[ShopSettings.menuChangedKey]
        guard let cached = cache.withLock({ $0 }), cached.signal != signal else { return }
        await forget()
    }

    /// Forgets the cached copy (after a seed), and tells the next process on this machine not to trust
    /// the outbox's copy either.
    func forget() async {
        cache.withLock { $0 = nil }
        await delivery.outbox?.setMenuConfirmed(at: .distantPast)
    }

    /// The outbox's copy, when a process of this machine read it from the store less than `keptCopyLifetime`
    /// ago: a one-shot command then takes orders without reading the menu again, as a running counter reuses
    /// its own copy.
    private func recentlyKept(at now: Date) async -> Snapshot? {
        guard let outbox = delivery.outbox, let confirmed = await outbox.menuConfirmedAt(),
              now >= confirmed, now.timeIntervalSince(confirmed) < min(lifetime, Self.keptCopyLifetime),
              let drinkRecords = try? await outbox.remembered(ShopSchema.drinkTable) else { return nil }
        let promotions = (try? await outbox.remembered(ShopSchema.promotionTable)) ?? []
        let stock = (try? await outbox.remembered(ShopSchema.settingTable)) ?? []
        return snapshot(drinkRecords: drinkRecords, promotions: promotions, stock: stock, problems: [], loadedAt: confirmed)
    }

    func snapshot(refresh: Bool) async throws(ShopError) -> Snapshot {
        let now = clock.now()
        let cached = cache.withLock { $0 }
        if !refresh, let cached, now.timeIntervalSince(cached.loadedAt) < lifetime, now >= cached.loadedAt {
            return cached
        }
        if let cached, !delivery.shouldTryStore(at: now) { return cached }
        if cached == nil, !refresh, let kept = await recentlyKept(at: now) {
            cache.withLock { $0 = kept }
            return kept
        }
        var drinkRecords: [Record]
        var promotions: [Record]
        var stock: [Record]
        var problems: [String] = []
        if let outbox = delivery.outboxWithoutTrying(at: now), let remembered = try? await outbox.remembered(ShopSchema.drinkTable) {
            // The store was found away moments ago (this command's first read): the menu as last read, without
            // waiting on the store again.
            drinkRecords = remembered
            promotions = (try? await outbox.remembered(ShopSchema.promotionTable)) ?? []
            stock = (try? await outbox.remembered(ShopSchema.settingTable)) ?? []
        } else {
            do throws(ShopError) {
                drinkRecords = try await drinks.all()
                promotions = try await promotionRecords.all()
                stock = Self.stockRecords(try await stockSettings())
            } catch {
                guard let outbox = delivery.outbox(after: error, at: now) else { throw error }
                if let cached { return cached }
                // Restarted during an outage: the menu as this counter last read it.
                guard let remembered = try await outbox.remembered(ShopSchema.drinkTable) else { throw error }
                drinkRecords = remembered
                promotions = try await outbox.remembered(ShopSchema.promotionTable) ?? []
                stock = try await outbox.remembered(ShopSchema.settingTable) ?? []
            }
        }
        if let outbox = delivery.outbox {
            // A copy that cannot be kept (the outbox's own file failing) is said, and costs nothing else:
            // the store answered, so it is not offline and the menu is good.
            do throws(ShopError) {
                try await outbox.remember(drinkRecords, of: ShopSchema.drinkTable)
                try await outbox.remember(promotions, of: ShopSchema.promotionTable)
                try await outbox.remember(stock, of: ShopSchema.settingTable)
                if !delivery.isOffline { await outbox.setMenuConfirmed(at: now) }
            } catch {
                problems.append("the menu could not be kept in \(outbox.location) for offline use: \(error)")
            }
        }
        let snapshot = snapshot(drinkRecords: drinkRecords, promotions: promotions, stock: stock, problems: problems, loadedAt: now)
        cache.withLock { $0 = snapshot }
        return snapshot
    }

    /// The menu and promotions read from their records; records that cannot be read become problems.
    private func snapshot(drinkRecords: [Record], promotions: [Record], stock: [Record], problems: [String], loadedAt: Date)
        -> Snapshot
    {
        var problems = problems
        var settings: [String: String] = [:]
        for record in stock {
            guard let key = record.fields[SettingField.key]?.stringValue else { continue }
            settings[key] = record.fields[SettingField.value]?.stringValue
        }
        var menuDrinks: [Drink] = []
        for record in drinkRecords {
            do { menuDrinks.append(try DrinkRecord.drink(from: record)) } catch { problems.append(error.description) }
        }
        let names = Set(menuDrinks.map(\.name))
        var running: [Promotion] = []
        for record in promotions {
            do {
                running.append(try PromotionRecord.promotion(from: record.fields, knownDrinks: names))
            } catch {
                problems.append("promotion record \(record.id): \(error)")
            }
        }
        return Snapshot(menu: Menu(drinks: menuDrinks, soldOut: SoldOutItems(settings: settings)), promotions: running,
                        problems: problems, drinkRecords: drinkRecords, loadedAt: loadedAt,
                        signal: settings[ShopSettings.menuChangedKey])
    }

    /// The `Setting` table's records; none on a store made before the table (until the schema step adds it, nothing
    /// can have been sold out there but whole drinks).
    private func stockSettings() async throws(ShopError) -> [Record] {
        do { return try await settingRecords.all() } catch {
            if case .store(let failure) = error, failure.isNotFound { return [] }
            throw error
        }
    }

    /// The `Setting` records the menu needs: what is sold out, and the signal it was read with.
    private static func stockRecords(_ records: [Record]) -> [Record] {
        records.filter { record in
            guard let key = record.fields[SettingField.key]?.stringValue else { return false }
            return key.hasPrefix(SoldOutItems.settingPrefix) || key == ShopSettings.menuChangedKey
        }
    }
}
