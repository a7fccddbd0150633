#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One message of the rotating banner above the prompt.
public struct Banner: Sendable, Hashable, Identifiable {
    /// Stable across rebuilds ("promotion:第二杯半價", "drink:金蘋春芽"), so the rotator can tell
    /// whether the banner it shows is still in a changed list.
    public let id: String
    /// The one line shown above the prompt.
    public let text: String

    /// A banner with a stable `id` and its text.
    public init(id: String, text: String) {
        self.id = id
        self.text = text
    }

    /// The banner announcing `promotion`.
    public init(promotion: Promotion) {
        self.init(id: "promotion:\(promotion.name)", text: promotion.banner ?? "\(promotion.name): \(promotion.summary)")
    }

    /// The banner featuring a seasonal drink, with its prices.
    public init(seasonalDrink drink: Drink) {
        let prices = drink.largePrice.map { "中 $\(drink.mediumPrice) / 大 $\($0)" } ?? "$\(drink.mediumPrice)"
        self.init(
            id: "drink:\(drink.name)",
            text: "\(DrinkCategory.seasonal.rawValue) \(drink.displayName) \(prices)")
    }

    /// The banners to rotate at `date`: the promotions running then (in the order given), then
    /// the seasonal drinks that are not sold out (in menu order).
    public static func banners(promotions: [Promotion], menu: Menu, at date: Date) -> [Banner] {
        promotions.filter { $0.isActive(at: date) }.map(Banner.init(promotion:))
            + menu.availableSeasonalDrinks.map(Banner.init(seasonalDrink:))
    }
}
