/// The promotion an order got, with the discount on each of its lines, so each discount can be
/// stored beside the line's price.
public struct AppliedPromotion: Sendable, Hashable {
    /// The promotion's name.
    public let name: String
    /// NT$ off each line, in line order.
    public let lineDiscounts: [Int]

    /// The promotion `name` with `lineDiscounts[i]` NT$ off line `i`.
    public init(name: String, lineDiscounts: [Int]) {
        self.name = name
        self.lineDiscounts = lineDiscounts
    }

    /// NT$ off the whole order.
    public var totalDiscount: Int { lineDiscounts.reduce(0, +) }

    /// The discount on line `index`; 0 for a line it does not list.
    public func discount(forLine index: Int) -> Int {
        lineDiscounts.indices.contains(index) ? lineDiscounts[index] : 0
    }
}
