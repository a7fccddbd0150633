/// The drinks on offer, in display order: by category (季節限定 first), then in the order given.
public struct Menu: Sendable, Hashable {
    /// All drinks, sold-out ones included, in display order, each with what is out for it filled in.
    public let drinks: [Drink]
    /// What has run out besides whole drinks (add-ons, ingredients, sizes).
    public let soldOut: SoldOutItems
    /// Each drink's Chinese and English names as lookups compare them, worked out once per menu (not
    /// per lookup: a lookup compares every drink).
    let keys: [[String]]
    /// The positions in `drinks` of the drinks with each name key, in menu order (a drink once).
    let positionsByKey: [String: [Int]]

    /// Orders `drinks` for display. Duplicate names are kept (a base edited by hand may hold
    /// them); looking such a name up reports it as ambiguous rather than picking one silently.
    public init(drinks: [Drink], soldOut: SoldOutItems = .none) {
        // Sorting by (category, original position) keeps the given order inside a category.
        self.soldOut = soldOut
        self.drinks = drinks.enumerated()
            .sorted { ($0.element.category, $0.offset) < ($1.element.category, $1.offset) }
            .map { soldOut.applied(to: $0.element) }
        keys = self.drinks.map(\.matchingKeys)
        var positionsByKey: [String: [Int]] = [:]
        for (position, names) in keys.enumerated() {
            for key in Set(names) { positionsByKey[key, default: []].append(position) }
        }
        self.positionsByKey = positionsByKey
    }

    /// The drinks, each with its names as lookups compare them.
    var keyedDrinks: Zip2Sequence<[Drink], [[String]]> { zip(drinks, keys) }

    /// Whether the menu has no drinks at all.
    public var isEmpty: Bool { drinks.isEmpty }
    /// The number of drinks, sold-out ones included.
    public var count: Int { drinks.count }

    /// The drinks of one category, in display order.
    public func drinks(in category: DrinkCategory) -> [Drink] {
        drinks.filter { $0.category == category }
    }

    /// The drink whose Chinese or English name is exactly `name` (ignoring case and surrounding
    /// whitespace); the first one if the name is duplicated.
    public func drink(named name: String) -> Drink? {
        positionsByKey[name.matchingKey]?.first.map { drinks[$0] }
    }

    /// Every Chinese and English drink name, for Tab completion.
    public var names: [String] {
        drinks.flatMap { [$0.name] + ($0.englishName.map { [$0] } ?? []) }
    }

    /// The seasonal (季節限定) drinks that can be ordered now.
    public var availableSeasonalDrinks: [Drink] {
        drinks.filter { $0.isSeasonal && $0.isOnSale }
    }

    /// The ingredients a manager can sell out: every drink's (`contains`), in menu order, then each add-on's
    /// own (白玉 of 加白玉); one spelling each.
    public var ingredients: [String] {
        var seen: Set<String> = []
        return (drinks.flatMap(\.contains) + AddOn.allCases.map(\.shortName)).filter { seen.insert($0.matchingKey).inserted }
    }
}

extension Drink {
    /// The name keys a person may type for this drink.
    var matchingKeys: [String] {
        [name.matchingKey] + (englishName.map { [$0.matchingKey] } ?? [])
    }
}
