import Foundation

/// A rule a server holds for the records created in one table, checked inside the write's own commit (on a store
/// that commits several calls as one, `AtomicRecordStore`), where no other writer can come between the check and the
/// write: `drinkshop serve` takes no payment for a cancelled order. It is checked for every record of a create and of
/// an upsert (which may create). A server that holds guards names them in
/// `CreateGuards.header` on every answer; a client that has seen a guard's name relies on its rule and needs no
/// read-back of its own (the payer's read of the order's status after its payment).
public protocol CreateGuard: Sendable {
    /// The name said in `CreateGuards.header`.
    var name: String { get }
    /// The table (its name) whose creates it checks.
    var table: String { get }
    /// Why `fields` may not be created now (the whole request is then refused and nothing written), read inside
    /// the create's commit; nil when it may.
    func refusal(of fields: Fields, in transaction: any RecordTransaction) throws(AirtableError) -> APIError?
}

/// The names of the guards a server holds (`CreateGuard`), as said in its header.
public enum CreateGuards {
    /// The response header naming them (several separated by commas).
    public static let header = "X-DrinkShop-Create-Guards"

    /// The names the header's value lists.
    public static func names(header value: String) -> Set<String> {
        Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }
}

/// A store that says which create guards the server behind it holds (`CreateGuards.header`).
public protocol CreateGuardsReporting: Sendable {
    /// The guards the server has said it holds; empty until it has said so (or if it never does).
    var createGuards: Set<String> { get }
}

extension RecordStore {
    /// Whether the store, or the one it forwards to, holds the create guard named `name`.
    public func holdsCreateGuard(named name: String) -> Bool {
        if let reporting = self as? any CreateGuardsReporting { return reporting.createGuards.contains(name) }
        if let forwarding = self as? any ForwardingRecordStore { return forwarding.underlying.holdsCreateGuard(named: name) }
        return false
    }
}
