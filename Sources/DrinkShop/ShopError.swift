import Airtable
import DrinkShopCore

/// Everything the shop's services can refuse, with a message a person at the counter understands.
public enum ShopError: Error, Sendable, CustomStringConvertible {
    /// The store failed (unreachable, refused, rate limited…).
    case store(AirtableError)
    /// A record in the store cannot be read as the shop expects; names the table, record and field.
    case storedData(String)
    /// A seed file was refused; nothing was written.
    case seed(SeedError)
    /// The drink named is not on the menu, or is ambiguous.
    case drink(DrinkLookupError, line: Int?)
    /// A drink-shop rule was broken (options, add-ons, hot drinks, sold out…).
    case rule(OrderRuleViolation, drink: String, line: Int?)
    /// A status change that the order's status does not allow.
    case status(OrderStatusError)
    /// Another order problem (line numbers, names…).
    case order(String)
    /// No order with this number today.
    case noSuchOrder(OrderNumber)
    /// The store lacks tables or fields the shop needs.
    case missingSchema([String])

    public var description: String {
        switch self {
        case .store(let error): return error.description
        case .storedData(let detail): return "unusable data in the store: \(detail)"
        case .seed(let error): return "seed refused, nothing changed: \(error)"
        case .drink(let error, let line): return prefix(line) + error.description
        case .rule(let violation, let drink, let line): return prefix(line) + "\(drink): \(violation)"
        case .status(let error): return error.description
        case .order(let detail): return detail
        case .noSuchOrder(let number): return "there is no order \(number) today"
        case .missingSchema(let missing):
            return "the base lacks what the shop needs: " + missing.joined(separator: "; ")
                + " (run `drinkshop setup`)"
        }
    }

    private func prefix(_ line: Int?) -> String { line.map { "drink \($0): " } ?? "" }
}

extension ShopError {
    /// Wraps any error from the domain or the store.
    static func wrap(_ error: any Error) -> ShopError {
        switch error {
        case let error as ShopError: return error
        case let error as AirtableError: return .store(error)
        case let error as OrderStatusError: return .status(error)
        case let error as SeedError: return .seed(error)
        default: return .order("\(error)")
        }
    }
}
