/// What a person is to the shop.
public enum UserRole: String, CaseIterable, Sendable, Hashable {
    /// Works the counter and places orders (`login NAME` in the REPL).
    case staff
    /// A registered customer.
    case customer
    /// A walk-in known by a name only, as the KEBUKE app's guest login.
    case guest

    /// Whether the person may place and change orders at the counter.
    public var canPlaceOrders: Bool { self == .staff }
}

/// A person the shop knows by name.
public struct User: Sendable, Hashable {
    /// The name, trimmed.
    public let name: String
    /// What the person is to the shop.
    public let role: UserRole

    /// Validates the name (see `PersonName`) and creates the user.
    /// - Throws: `PersonNameError` when the name is empty, too long or not one line.
    public init(name: String, role: UserRole) throws(PersonNameError) {
        self.name = try PersonName.validated(name, field: "name")
        self.role = role
    }
}
