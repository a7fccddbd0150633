#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A change to the menu made from the counter (sold out, restock, a new price): checked against
/// the drink as the menu has it, and described for the audit trail. Every counter and the store
/// see the resulting drink once the service writes it.
public enum MenuChange: Sendable, Hashable {
    case soldOut(drink: String)
    case restock(drink: String)
    case price(drink: String, size: CupSize, from: Int, to: Int)
    /// An add-on, ingredient or size sold out (`soldOut: true`) or restocked.
    case item(StockItem, soldOut: Bool)

    /// The permission it needs (all three need a manager once PINs are set).
    public var action: ShopAction {
        switch self {
        case .soldOut, .item(_, soldOut: true): .soldOut
        case .restock, .item(_, soldOut: false): .restock
        case .price: .changePrice
        }
    }

    /// What changed: the drink's name, or the item's ("加白玉", "熟成紅茶 大杯").
    public var drinkName: String {
        switch self {
        case .soldOut(let name), .restock(let name), .price(let name, _, _, _): name
        case .item(let item, _): item.name
        }
    }

    /// The audit trail's detail: "sold out", "restocked", "中杯 35 -> 40".
    public var detail: String {
        switch self {
        case .soldOut: "sold out"
        case .restock: "restocked"
        case .price(_, let size, let from, let to): "\(size.rawValue) \(from) -> \(to)"
        case .item(let item, let soldOut): "\(soldOut ? "sold out" : "restocked") (\(item.kind))"
        }
    }

    /// The entry recorded for this change.
    public func auditEntry(by staff: String, at date: Date) -> AuditEntry {
        AuditEntry(at: date, by: staff, action: action, subject: drinkName, detail: detail)
    }

    /// Marks `drink` sold out (or back in stock with `available: true`).
    /// - Returns: the change and the drink after it.
    /// - Throws: `MenuChangeError.nothingToChange` when it already is.
    public static func availability(of drink: Drink, available: Bool) throws(MenuChangeError) -> (MenuChange, Drink) {
        guard drink.available != available else {
            throw .nothingToChange(drink: drink.name, state: available ? "in stock" : "sold out")
        }
        var changed = drink
        changed.available = available
        return (available ? .restock(drink: drink.name) : .soldOut(drink: drink.name), changed)
    }

    /// Marks `item` (not a drink: see `availability(of:available:)`) sold out or back in stock, as `soldOut`
    /// (the items out now) holds it.
    /// - Throws: `MenuChangeError.nothingToChange` when it already is.
    public static func availability(of item: StockItem, soldOut out: Bool, now soldOut: SoldOutItems)
        throws(MenuChangeError) -> MenuChange
    {
        guard soldOut.contains(item) != out else {
            throw .nothingToChange(drink: item.name, state: out ? "sold out" : "in stock")
        }
        return .item(item, soldOut: out)
    }

    /// Sets the price of `size` of `drink`.
    /// - Returns: the change and the drink after it.
    /// - Throws: `MenuChangeError`: a price below 1, a size the drink does not come in, the same
    ///   price, or a large cup cheaper than the medium one.
    public static func price(of drink: Drink, size: CupSize, to newPrice: Int) throws(MenuChangeError)
        -> (MenuChange, Drink)
    {
        guard newPrice > 0 else { throw .priceNotPositive(newPrice) }
        guard let old = drink.price(for: size) else { throw .sizeNotSold(drink: drink.name, size: size) }
        guard old != newPrice else {
            throw .nothingToChange(drink: drink.name, state: "\(size.rawValue) already \(newPrice)")
        }
        do {
            let changed = try Drink(
                name: drink.name, englishName: drink.englishName, description: drink.description,
                category: drink.category, mediumPrice: size == .medium ? newPrice : drink.mediumPrice,
                largePrice: size == .large ? newPrice : drink.largePrice, imageURLs: drink.imageURLs,
                hotAvailable: drink.hotAvailable, available: drink.available, contains: drink.contains)
            return (.price(drink: drink.name, size: size, from: old, to: newPrice), changed)
        } catch {
            throw .invalidPrice(error.description)
        }
    }
}

public enum MenuChangeError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case priceNotPositive(Int)
    case sizeNotSold(drink: String, size: CupSize)
    case nothingToChange(drink: String, state: String)
    case invalidPrice(String)

    public var description: String {
        switch self {
        case .priceNotPositive(let price): "a price must be at least NT$1, not \(price) (價格至少 1 元)"
        case .sizeNotSold(let drink, let size): "\(drink) does not come in \(size.rawValue) \(size.englishLabel) (\(drink)沒有\(size.rawValue))"
        case .nothingToChange(let drink, let state): "\(drink) is \(state); nothing changed (未變更)"
        case .invalidPrice(let problem): "\(problem) (價格不合規則)"
        }
    }

    public var errorDescription: String? { description }
}
