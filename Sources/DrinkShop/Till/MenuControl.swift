import Airtable
import DrinkShopCore
import Foundation

/// Menu control from the counter: sold out, restock, a new price. Written to the `Drink` table (so every
/// counter and the Airtable base see it) through the drink's record cells; a refused change writes nothing.
public struct MenuControl: Sendable {
    let drinks: CatalogTable
    let catalog: Catalog

    /// How a change and its entry are written together.
    let commits: any CommitStrategy

    init(store: any RecordStore, catalog: Catalog, commits: any CommitStrategy) {
        self.commits = commits
        drinks = CatalogTable(store: store, table: ShopSchema.drinkTable)
        self.catalog = catalog
    }

    /// What staff asked for.
    public enum Request: Sendable, Equatable {
        case soldOut
        case restock
        case price(CupSize, Int)
    }

    /// What a change did: the change, the drink after it (for a drink's change), and what went off sale or came
    /// back with it (the add-on and drinks of an ingredient, "加白玉", "白玉歐蕾").
    public struct Made: Sendable, Hashable {
        public let change: MenuChange
        public let drink: Drink?
        public let along: [String]
    }

    /// What `text` names for `request` (a price only for drinks), on the menu as the store has it now.
    func lookup(_ text: String, for request: Request) async throws(TillError) -> StockLookup {
        let menu: Menu
        do { menu = try await catalog.menu(refresh: true) } catch { throw .shop(error) }
        return menu.stockLookup(text, allowed: Self.allowed(for: request))
    }

    /// The things `request` can change: a price belongs to a drink.
    static func allowed(for request: Request) -> (@Sendable (StockItem) -> Bool)? {
        guard case .price = request else { return nil }
        return { if case .drink = $0 { true } else { false } }
    }

    /// Applies `request` to `item` (named without doubt: see `lookup`) and writes it with the audit entry `entry`
    /// makes of the change. A drink's change is its record (on the embedded store in one commit with the entry;
    /// over the API the drink, then the entry, and the drink's cells put back when the entry cannot be written:
    /// `ShopError.auditNotWrittenNothingChanged`, or when that fails too `ShopError.auditNotWritten`, the change
    /// made); any other item's is its key in the shared settings, with the `menuChangedAt` signal, written the
    /// same way (`ShopSettings.writeStock`).
    func change(_ item: StockItem, _ request: Request, audit: AuditTrail, settings: ShopSettings,
                entry: @Sendable (MenuChange) -> AuditEntry) async throws(TillError) -> Made
    {
        let menu: Menu
        do { menu = try await catalog.menu(refresh: true) } catch { throw .shop(error) }
        guard menu.has(item) else { throw .stock(.nothingCalled(item.name, suggestions: [])) }
        guard case .drink(let name) = item else {
            let out: Bool
            switch request {
            case .soldOut: out = true
            case .restock: out = false
            case .price: throw .stock(.nothingCalled(item.name, suggestions: []))
            }
            if !out, case .addOn(let addOn) = item, let ingredient = menu.soldOut.ingredientOut(for: addOn) {
                throw .menu(.nothingToChange(drink: addOn.rawValue, state: "out because \(ingredient) is; restock \(ingredient)"))
            }
            let change: MenuChange
            do { change = try MenuChange.availability(of: item, soldOut: out, now: menu.soldOut) } catch { throw .menu(error) }
            do { try await settings.writeStock(item, out: out, entry: entry(change)) } catch {
                await catalog.forget()
                throw .shop(error)
            }
            await catalog.forget()
            let after = (try? await catalog.menu()) ?? menu
            return Made(change: change, drink: nil, along: Self.along(item, before: menu, after: after))
        }
        guard let drink = menu.drink(named: name), drink.name == name else { throw .stock(.nothingCalled(name, suggestions: [])) }
        if case .restock = request, drink.available, let ingredient = drink.missingIngredient {
            throw .menu(.nothingToChange(drink: drink.name, state: "out because \(ingredient) is; restock \(ingredient)"))
        }
        let (change, changed) = try Self.changed(drink, request)
        let record = entry(change)
        let upsert = { (drink: Drink) in
            RecordWrite.upsert(table: ShopSchema.drinkTable, [DrinkRecord.fields(of: drink)], mergeOn: [CatalogTable.nameField])
        }
        let putBack = upsert(drink)
        let written = AuditedChange([upsert(changed)], to: drinks.store, undo: { _ in [putBack] })
        do { _ = try await written.write(with: commits, trail: audit) { _ in [record] } } catch {
            await catalog.forget()
            throw .shop(error)
        }
        await catalog.forget()
        return Made(change: change, drink: changed, along: [])
    }

    /// `change` of the drink named exactly `name`, without its audit entry (tests of the change itself).
    func change(_ name: String, _ request: Request) async throws(TillError) -> (MenuChange, Drink) {
        let menu: Menu
        do { menu = try await catalog.menu(refresh: true) } catch { throw .shop(error) }
        guard let drink = menu.drink(named: name) else { throw .stock(.nothingCalled(name, suggestions: [])) }
        let (change, changed) = try Self.changed(drink, request)
        do { try await drinks.upsertOnName([DrinkRecord.fields(of: changed)]) } catch { throw .shop(error) }
        await catalog.forget()
        return (change, changed)
    }

    /// The change `request` makes to `drink`, checked; nothing written.
    private static func changed(_ drink: Drink, _ request: Request) throws(TillError) -> (MenuChange, Drink) {
        do {
            switch request {
            case .soldOut: return try MenuChange.availability(of: drink, available: false)
            case .restock: return try MenuChange.availability(of: drink, available: true)
            case .price(let size, let price): return try MenuChange.price(of: drink, size: size, to: price)
            }
        } catch {
            throw .menu(error)
        }
    }

    /// What went off sale (or came back) with `item`: the add-ons and drinks whose state changed.
    private static func along(_ item: StockItem, before: Menu, after: Menu) -> [String] {
        guard case .ingredient = item else { return [] }
        let addOns = AddOn.allCases.filter { before.soldOut.addOns.contains($0) != after.soldOut.addOns.contains($0) }.map(\.rawValue)
        let drinks = after.drinks.filter { drink in before.drink(named: drink.name)?.isOnSale != drink.isOnSale }.map(\.name)
        return addOns + drinks
    }
}
