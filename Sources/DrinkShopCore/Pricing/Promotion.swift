#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A promotion the shop runs for a while: what it takes off, on which drinks, and when.
///
/// Money stays in whole NT$ and every discount rounds down, in the customer's disfavour by less
/// than one dollar: half a cup is `cupPrice / 2` (a NT$55 cup gets NT$27 off), and a percentage
/// of a line is `lineTotal * percent / 100`.
public struct Promotion: Sendable, Hashable {
    /// The name customers see ("第二杯半價"); promotions are told apart by it.
    public let name: String
    /// What it takes off.
    public let kind: PromotionKind
    /// The drinks it covers; nil for the whole menu.
    public let scope: PromotionScope?
    /// When it starts (inclusive); nil for "already running".
    public let startsAt: Date?
    /// When it ends (exclusive); nil for "until further notice".
    public let endsAt: Date?
    /// The text shown in the banner rotation; nil shows the name and summary.
    public let banner: String?

    /// Validates and creates a promotion.
    /// - Throws: `PromotionValidationError`: an empty name, a percentage outside 1...100, a
    ///   drink scope without a name, or a window that ends at or before its start.
    public init(
        name: String,
        kind: PromotionKind,
        scope: PromotionScope? = nil,
        startsAt: Date? = nil,
        endsAt: Date? = nil,
        banner: String? = nil
    ) throws(PromotionValidationError) {
        let name = name.trimmed
        guard !name.isEmpty else { throw .emptyName }
        if case .percentOff(let percent) = kind, !(1...100).contains(percent) {
            throw .percentOutOfRange(percent)
        }
        var scope = scope
        if case .drink(let drink) = scope {
            guard !drink.trimmed.isEmpty else { throw .emptyDrinkScope }
            scope = .drink(drink.trimmed)
        }
        if let startsAt, let endsAt, endsAt <= startsAt { throw .windowEndsBeforeStart }
        self.name = name
        self.kind = kind
        self.scope = scope
        self.startsAt = startsAt
        self.endsAt = endsAt
        let banner = banner?.trimmed
        self.banner = (banner?.isEmpty ?? true) ? nil : banner
    }

    /// Whether the promotion runs at `date`: from `startsAt` (inclusive) to `endsAt` (exclusive).
    public func isActive(at date: Date) -> Bool {
        if let startsAt, date < startsAt { return false }
        if let endsAt, date >= endsAt { return false }
        return true
    }

    /// Whether the promotion covers the line's drink.
    public func covers(_ line: OrderLine) -> Bool {
        scope?.covers(line) ?? true
    }

    /// The discount on each line, in NT$ (same order as `lines`), ignoring the time window.
    ///
    /// Pair kinds count cups, so a line of 2 cups is a pair by itself. The covered cups are
    /// ranked by price without add-ons, dearest first (ties by line order); ranks 2, 4, 6...
    /// are the cheaper cup of their pair and get the discount.
    public func lineDiscounts(for lines: [OrderLine]) -> [Int] {
        var discounts = [Int](repeating: 0, count: lines.count)
        switch kind {
        case .percentOff(let percent):
            for (index, line) in lines.enumerated() where covers(line) {
                discounts[index] = line.lineTotal * percent / 100
            }
        case .secondCupHalfPrice, .buyOneGetOne:
            // Rank the covered lines dearest cup first (ties by line order). A line's cups then
            // take the ranks [first, first + quantity), counting from 0; the odd ranks are the
            // cheaper cup of their pair.
            // Counting instead of listing cups keeps this cheap for any quantity.
            let ranked = lines.indices
                .filter { covers(lines[$0]) && lines[$0].quantity > 0 }
                .sorted { (lines[$1].cupPrice, $0) < (lines[$0].cupPrice, $1) }
            var first = 0
            for index in ranked {
                let line = lines[index]
                let end = first + line.quantity
                let discountedCups = end / 2 - first / 2
                let perCup = kind == .buyOneGetOne ? line.cupPrice : line.cupPrice / 2
                discounts[index] = discountedCups * perCup
                first = end
            }
        }
        return discounts
    }

    /// One line for the promotions list and the banner: "second cup half price on 歐蕾 Milk Tea".
    public var summary: String {
        switch kind {
        case .secondCupHalfPrice: scope.map { "second cup half price on \($0.label)" } ?? "second cup half price"
        case .buyOneGetOne: scope.map { "buy one, get one free on \($0.label)" } ?? "buy one, get one free"
        case .percentOff(let percent): "\(percent)% off " + (scope?.label ?? "everything")
        }
    }
}
