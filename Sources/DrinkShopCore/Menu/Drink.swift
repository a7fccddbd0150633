/// A drink on the menu, as the `Drink` table holds it.
///
/// The name, category and prices are fixed at creation, where they are validated; the other
/// properties can change (a drink sells out, gets a new picture) without breaking any rule.
public struct Drink: Sendable, Hashable {
    /// The Chinese name, unique on the menu; order lines refer to the drink by it.
    public let name: String
    /// The English name, if the menu has one.
    public let englishName: String?
    public var description: String
    /// The menu section the drink is listed under.
    public let category: DrinkCategory
    /// The price of a 中杯 in NT$.
    public let mediumPrice: Int
    /// The price of a 大杯 in NT$; nil for drinks sold in one size only.
    public let largePrice: Int?
    /// Picture URLs (Airtable's attachment field `image`); the first is the main one.
    public var imageURLs: [String]
    /// Whether the drink can be made 溫 or 熱. 常溫 is allowed for every drink.
    public var hotAvailable: Bool
    /// False while the drink itself is sold out (the `soldOut` cell); see `isOnSale` for what else can stop it.
    public var available: Bool
    /// The ingredients the drink is made with (`"contains": ["白玉"]` in the seed file): when one runs out,
    /// so does the drink.
    public let contains: [String]

    /// What has run out for this drink, set by the menu from the shop's `SoldOutItems` (never stored with
    /// the drink): its sizes that are out, the add-ons that are out, and the first of its ingredients that
    /// is out (which makes the drink sold out, however its own cell reads).
    public internal(set) var soldOutSizes: Set<CupSize> = []
    public internal(set) var soldOutAddOns: Set<AddOn> = []
    public internal(set) var missingIngredient: String? = nil

    /// Whether the drink can be ordered now: not sold out itself, and none of its ingredients out.
    public var isOnSale: Bool { available && missingIngredient == nil }

    /// The sizes that can be ordered now.
    public var sizesOnSale: [CupSize] { sizes.filter { !soldOutSizes.contains($0) } }

    /// Validates and creates a drink.
    ///
    /// Names are trimmed, and an empty English name counts as none.
    /// - Throws: `DrinkValidationError` naming the field: an empty name, a price that is not
    ///   positive, or a large price below the medium one.
    public init(
        name: String,
        englishName: String? = nil,
        description: String = "",
        category: DrinkCategory,
        mediumPrice: Int,
        largePrice: Int? = nil,
        imageURLs: [String] = [],
        hotAvailable: Bool = false,
        available: Bool = true,
        contains: [String] = []
    ) throws(DrinkValidationError) {
        let name = name.trimmed
        guard !name.isEmpty else { throw .emptyName }
        guard !name.containsControlCharacter else { throw .nameHasControlCharacters(name) }
        guard mediumPrice > 0 else { throw .nonPositivePrice(field: "medium", value: mediumPrice) }
        if let largePrice {
            guard largePrice > 0 else { throw .nonPositivePrice(field: "large", value: largePrice) }
            guard largePrice >= mediumPrice else { throw .largeBelowMedium(medium: mediumPrice, large: largePrice) }
        }
        let english = englishName?.trimmed
        self.name = name
        self.englishName = (english?.isEmpty ?? true) ? nil : english
        self.description = description.trimmed
        self.category = category
        self.mediumPrice = mediumPrice
        self.largePrice = largePrice
        self.imageURLs = imageURLs
        self.hotAvailable = hotAvailable
        self.available = available
        var seen: Set<String> = []
        self.contains = contains.map(\.trimmed).filter { !$0.isEmpty && seen.insert($0.matchingKey).inserted }
    }

    /// The price of one cup of `size` in NT$, without add-ons; nil when the drink does not come
    /// in that size.
    public func price(for size: CupSize) -> Int? {
        switch size {
        case .medium: mediumPrice
        case .large: largePrice
        }
    }

    /// The sizes the drink comes in.
    public var sizes: [CupSize] { CupSize.allCases.filter { price(for: $0) != nil } }

    /// Whether the drink is a 季節限定 (seasonal) one.
    public var isSeasonal: Bool { category == .seasonal }

    /// "白玉歐蕾 White Jade Latte", or the Chinese name alone.
    public var displayName: String {
        englishName.map { "\(name) \($0)" } ?? name
    }
}
