import Airtable
import DrinkShop
import Foundation
import LocalBase

/// The embedded store: a LocalBase file, created with the shop's tables and seeded from `Seeds/` the
/// first time it is opened.
struct EmbeddedStore {
    let base: LocalBase
    let path: String

    /// Opens (or creates) the store at `path`. Notes about first-run set-up go to `notes`.
    ///
    /// Several counters may start on one new store at the same moment: the set-up (tables, then seeding)
    /// runs under the store's setup lock, so one process does it and the others wait, then find the
    /// tables made and the menu seeded. A store is new when its base has no tables yet, decided under
    /// that lock (not by whether the file existed, which another process may have just created).
    static func open(path: String, environment: [String: String], notes: (String) -> Void) async throws -> EmbeddedStore {
        try StoreLocation.prepareParent(of: path)
        let (base, note) = try await LocalBase.withSetupLock(path: path) { () async throws -> (LocalBase, String?) in
            let base = try await LocalBase.open(path: path)
            let isNew = try await base.schema().tables.isEmpty
            let shop = Shop(store: base)
            let created = try await shop.createMissingSchema()
            guard isNew else {
                return (base, created.isEmpty ? nil : "Added to the store: " + created.joined(separator: ", "))
            }
            guard let seeds = StoreLocation.seedsDirectory(environment: environment) else {
                return (base, "New store at \(path) with an empty menu: no Seeds/menu.json found (set DRINKSHOP_SEEDS, "
                    + "or load one with: drinkshop seed FILE.json)")
            }
            var drinks = 0
            var promotions = 0
            for file in ["menu.json", "promotions.json"] where FileManager.default.fileExists(atPath: "\(seeds)/\(file)") {
                let report = try await shop.seed(contentsOf: "\(seeds)/\(file)")
                drinks += report.drinks.created
                promotions += report.promotions.created
            }
            return (base, "New store at \(path), seeded from \(seeds): \(drinks) drinks, \(promotions) promotions")
        }
        if let note { notes(note) }
        return EmbeddedStore(base: base, path: path)
    }
}
