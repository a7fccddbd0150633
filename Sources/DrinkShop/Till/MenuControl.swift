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

    /// Applies `request` to the drink `name` names (as `order` resolves names) and writes the drink with
    /// the audit entry `entry` makes of the change: on the embedded store in one commit (both or neither);
    /// over the API the drink, then the entry: an entry that cannot be written puts the drink's cells back
    /// (`ShopError.auditNotWrittenNothingChanged`), or, when that fails too, is the command's error with the
    /// change made (`ShopError.auditNotWritten`).
    /// - Returns: the change made and the drink after it.
    func change(_ name: String, _ request: Request, audit: AuditTrail,
                entry: @Sendable (MenuChange) -> AuditEntry) async throws(TillError) -> (MenuChange, Drink)
    {
        let (change, drink, before) = try await changed(name, request)
        let record = entry(change)
        let upsert = { (drink: Drink) in
            RecordWrite.upsert(table: ShopSchema.drinkTable, [DrinkRecord.fields(of: drink)], mergeOn: [CatalogTable.nameField])
        }
        let putBack = upsert(before)
        let written = AuditedChange([upsert(drink)], to: drinks.store, undo: { _ in [putBack] })
        do { _ = try await written.write(to: drinks.store, trail: audit) { _ in [record] } } catch {
            await catalog.forget()
            throw .shop(error)
        }
        await catalog.forget()
        return (change, drink)
    }

    /// `change` without its audit entry (tests of the change itself).
    func change(_ name: String, _ request: Request) async throws(TillError) -> (MenuChange, Drink) {
        let (change, drink, _) = try await changed(name, request)
        do { try await drinks.upsertOnName([DrinkRecord.fields(of: drink)]) } catch { throw .shop(error) }
        await catalog.forget()
        return (change, drink)
    }

    /// The change `request` makes to the drink `name` names, checked, and the drink before it; nothing written.
    private func changed(_ name: String, _ request: Request) async throws(TillError) -> (MenuChange, Drink, before: Drink) {
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
        return (result.0, result.1, drink)
    }
}
