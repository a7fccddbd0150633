import Airtable
import DrinkShopCore
import Foundation

/// What a seed did, per table.
public struct SeedReport: Sendable, Equatable {
    public struct Counts: Sendable, Equatable {
        public var created = 0
        public var updated = 0
        public var unchanged = 0

        public init(created: Int = 0, updated: Int = 0, unchanged: Int = 0) {
            self.created = created
            self.updated = updated
            self.unchanged = unchanged
        }
    }

    public var drinks = Counts()
    public var promotions = Counts()
    /// Adjustments written (upserted on their code).
    public var adjustments = 0
    /// The member program's settings written: stampCard, passes.
    public var memberProgram: [String] = []
    /// Add-ons, ingredients and sizes that were sold out and this seed restocked (their setting keys' items, as
    /// `加白玉`, `大杯`); empty when the file says `"keepSoldOut": true`.
    public var restocked: [String] = []
}

/// Loads seed files into the Drink and Promotion tables: a file with any error is refused whole,
/// before anything is written, and only real changes are written.
public struct Seeder: Sendable {
    private let drinks: CatalogTable
    private let promotions: CatalogTable
    private let catalog: Catalog
    private let extras: OrderExtras
    private let settings: SettingRecords
    /// How the program's settings are written together.
    private let commits: any CommitStrategy

    init(store: any RecordStore, catalog: Catalog, extras: OrderExtras, commits: any CommitStrategy) {
        self.commits = commits
        drinks = CatalogTable(store: store, table: ShopSchema.drinkTable)
        promotions = CatalogTable(store: store, table: ShopSchema.promotionTable)
        self.catalog = catalog
        self.extras = extras
        settings = SettingRecords(store: store)
    }

    /// Reads, validates and applies a seed file.
    /// - Parameter replace: false (the default): a drink or promotion already stored keeps every field
    ///   the file does not give (Airtable's upsert merges so); true: the file is the whole truth for
    ///   the records it names (fields it leaves out are cleared). Records it does not name stay either way.
    func seed(contentsOf path: String, replace: Bool = false) async throws(ShopError) -> SeedReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            let problem: SeedProblem = FileManager.default.fileExists(atPath: path) ? .fileUnreadable : .fileMissing
            throw .seed(SeedError(path: path, location: "file", problem: problem))
        }
        // One read of the Drink table serves both the names promotions may refer to and the comparison.
        let stored = try await drinks.all()
        let known = Set(stored.compactMap(CatalogTable.name(of:)))
        let file: SeedFile
        do { file = try SeedFile.parse(Array(data), path: path, knownDrinks: known) } catch { throw .seed(error) }
        return try await seed(file, storedDrinks: stored, replace: replace)
    }

    /// Upserts the file's drinks by name and promotions by name. Running the same file twice changes
    /// nothing the second time.
    /// - Parameter storedDrinks: the Drink records if the caller has just read them (spares a listing).
    func seed(_ file: SeedFile, storedDrinks: [Record]? = nil, replace: Bool = false) async throws(ShopError)
        -> SeedReport
    {
        var report = SeedReport()
        let drinkFields = file.drinks.map { drink in
            let fields = Self.only(replace ? nil : file.givenDrinkFields[drink.name], of: DrinkRecord.fields(of: drink))
            // What is sold out stays so, whatever the file says of it, when the owner asks.
            return file.keepSoldOut ? fields.filter { $0.key != DrinkField.soldOut.rawValue } : fields
        }
        let promotionFields = file.promotions.map { promotion in
            Self.only(replace ? nil : file.givenPromotionFields[promotion.name], of: PromotionRecord.fields(of: promotion))
        }
        report.drinks = try await upsertByName(drinks, drinkFields, stored: storedDrinks)
        report.promotions = try await upsertByName(promotions, promotionFields, stored: nil)
        try await extras.seed(file.till.adjustments)
        // The stamp card and passes are shared settings (sections the file leaves out stay as they were).
        let program = MemberProgram(stampPolicy: file.till.stampPolicy, passes: file.till.passes).settings
        if !program.isEmpty { try await settings.write(program, with: commits) }
        report.memberProgram = program.keys.sorted()
        report.adjustments = file.till.adjustments.count
        if !file.keepSoldOut { report.restocked = try await restockEverything() }
        await catalog.forget()
        return report
    }

    /// Marks every sold-out add-on, ingredient and size back in stock, with the menu's change signal, in one write
    /// (the seed's own audit entry says it was seeded). Returns what was restocked.
    private func restockEverything() async throws(ShopError) -> [String] {
        let stored: [String: String]
        do {
            stored = try await settings.fresh()
        } catch {
            // A store an earlier version made has no Setting table yet: nothing is sold out there but drinks.
            if case .store(let failure) = error, failure.apiError?.type.hasSuffix("NOT_FOUND") == true { return [] }
            throw error
        }
        let out = stored.filter { $0.key.hasPrefix(SoldOutItems.settingPrefix) && $0.value == SoldOutItems.outValue }
        guard !out.isEmpty else { return [] }
        var changes = out.mapValues { _ in SoldOutItems.inValue }
        changes[ShopSettings.menuChangedKey] = AirtableTimestamp.format(Date())
        try await settings.write(changes, with: commits)
        // `soldOut:addOn:加白玉` is 加白玉; `soldOut:size:大杯:熟成紅茶` is 熟成紅茶 大杯.
        return out.keys.sorted().map { key in
            let parts = key.dropFirst(SoldOutItems.settingPrefix.count).split(separator: ":").map(String.init)
            return parts.count == 3 ? "\(parts[2]) \(parts[1])" : parts.dropFirst().joined(separator: " ")
        }
    }

    /// The cells of `given` fields only (all when nil).
    private static func only(_ given: Set<String>?, of fields: Fields) -> Fields {
        guard let given else { return fields }
        return fields.filter { given.contains($0.key) }
    }

    /// Writes only the records that differ from what is stored, in one upsert on `name`.
    private func upsertByName(_ table: CatalogTable, _ wanted: [Fields], stored: [Record]?) async throws(ShopError)
        -> SeedReport.Counts
    {
        guard !wanted.isEmpty else { return SeedReport.Counts() }
        var counts = SeedReport.Counts()
        let existing: [Record]
        if let stored { existing = stored } else { existing = try await table.all() }
        var byName: [String: Record] = [:]
        for record in existing {
            if let name = CatalogTable.name(of: record) { byName[name] = record }
        }
        var changes: [Fields] = []
        for fields in wanted {
            guard let name = CatalogTable.name(of: fields) else { continue }
            if let record = byName[name] {
                if StoredCells.match(record, fields) {
                    counts.unchanged += 1
                } else {
                    counts.updated += 1
                    changes.append(StoredCells.toSend(fields, over: record))
                }
            } else {
                counts.created += 1
                changes.append(fields)
            }
        }
        try await table.upsertOnName(changes)
        return counts
    }
}
