import Airtable
import DrinkShopCore
import Foundation

/// Menu control from the counter: sold out, restock, a new price. Written to the `Drink` table (so every
/// counter and the Airtable base see it) through the drink's record cells; a refused change writes nothing.
public struct MenuControl: Sendable {
    let drinks: CatalogTable
    let catalog: Catalog

    init(store: any RecordStore, catalog: Catalog) {
        drinks = CatalogTable(store: store, table: ShopSchema.drinkTable)
        self.catalog = catalog
    }

    /// What staff asked for.
    public enum Request: Sendable, Equatable {
        case soldOut
        case restock
        case price(CupSize, Int)
    }

    /// Applies `request` to the drink `name` names (as `order` resolves names) and writes the drink.
    /// - Returns: the change made (for the audit trail) and the drink after it.
    public func change(_ name: String, _ request: Request) async throws(TillError) -> (MenuChange, Drink) {
        let menu: Menu
        do { menu = try await catalog.menu(refresh: true) } catch { throw .shop(error) }
        let drink: Drink
        do { drink = try menu.resolve(name) } catch { throw .shop(.drink(error, line: nil)) }
        let result: (MenuChange, Drink)
        do {
            switch request {
            case .soldOut: result = try MenuChange.availability(of: drink, available: false)
            case .restock: result = try MenuChange.availability(of: drink, available: true)
            case .price(let size, let price): result = try MenuChange.price(of: drink, size: size, to: price)
            }
        } catch {
            throw .menu(error)
        }
        do {
            try await drinks.upsertOnName([DrinkRecord.fields(of: result.1)])
        } catch {
            throw .shop(error)
        }
        await catalog.forget()
        return result
    }
}
