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
    static func open(path: String, environment: [String: String], notes: (String) -> Void) async throws -> EmbeddedStore {
        let isNew = !FileManager.default.fileExists(atPath: path)
        if isNew { try StoreLocation.prepareParent(of: path) }
        let base = try LocalBase(path: path)
        let shop = Shop(store: base)
        let created = try await shop.createMissingSchema()
        if isNew {
            if let seeds = StoreLocation.seedsDirectory(environment: environment) {
                var drinks = 0
                var promotions = 0
                for file in ["menu.json", "promotions.json"] where FileManager.default.fileExists(atPath: "\(seeds)/\(file)") {
                    let report = try await shop.seeder.seed(contentsOf: "\(seeds)/\(file)")
                    drinks += report.drinks.created
                    promotions += report.promotions.created
                }
                notes("New store at \(path), seeded from \(seeds): \(drinks) drinks, \(promotions) promotions")
            } else {
                notes("New store at \(path) with an empty menu: no Seeds/menu.json found (set DRINKSHOP_SEEDS, "
                    + "or load one with: drinkshop seed FILE.json)")
            }
        } else if !created.isEmpty {
            notes("Added to the store: " + created.joined(separator: ", "))
        }
        return EmbeddedStore(base: base, path: path)
    }
}
