import DrinkShopCore
import Foundation

/// What the drink form's line costs in its group: the price the group's page then shows for it, with the promotion
/// the counter would give the group's lines with this one among them (`Pricing.bestPromotion`, the counter's one
/// rule), worked out here on the server for every choice the form can make, so the page's script only looks a
/// price up and prices nothing itself.
struct LinePricing: Sendable {
    /// The group's lines before and after the form's line (a new line comes last; a changed one keeps its place).
    var before: [OrderLine] = []
    var after: [OrderLine] = []
    /// Every promotion (the inactive ones are left out by the rule, at `now`).
    var promotions: [Promotion] = []
    var now = Date(timeIntervalSince1970: 0)

    /// What the line costs: its total with the promotion's discount on it taken off, and its total before.
    struct Price: Equatable, Sendable {
        var due: Int
        var beforePromotion: Int
    }

    /// The price of `cups` cups of `drink` in `size` with `addOns`; nil when the size is not sold (or the line could
    /// not be priced).
    func price(of drink: Drink, size: CupSize, addOns: [AddOn], cups: Int) -> Price? {
        guard let unitPrice = OrderLine.unitPrice(of: drink, size: size, addOns: addOns),
              // Ice, sugar and note take nothing off and add nothing; the stored form skips the ordering rules
              // (the form's post checks them), so a choice the shop refuses still shows what it would cost.
              let line = try? OrderLine(drinkName: drink.name, category: drink.category, size: size, ice: .regular,
                                        sugar: .full, addOns: addOns, quantity: cups, unitPrice: unitPrice, note: nil)
        else { return nil }
        let discount = Pricing.bestPromotion(for: before + [line] + after, among: promotions, at: now)?
            .discount(forLine: before.count) ?? 0
        return Price(due: line.lineTotal - discount, beforePromotion: line.lineTotal)
    }

    /// Every price the form can show, for its script: `{"<size>": {"<add-ons joined by ,>": [one cup, two cups, …]}}`,
    /// add-ons in the form's order, each entry `due` or `[due, beforePromotion]` when the promotion takes something
    /// off. Choices past the shop's rules (more add-ons than allowed, cups out of `cups`) are left out.
    func table(for drink: Drink, cups: ClosedRange<Int>) -> String {
        var sizes: [String] = []
        for size in CupSize.allCases where drink.price(for: size) != nil {
            var rows: [String] = []
            for addOns in Self.addOnChoices {
                let entries = cups.map { count -> String in
                    guard let price = price(of: drink, size: size, addOns: addOns, cups: count) else { return "null" }
                    return price.due == price.beforePromotion ? "\(price.due)" : "[\(price.due),\(price.beforePromotion)]"
                }
                rows.append(Self.quoted(addOns.map(\.rawValue).joined(separator: ",")) + ":[" + entries.joined(separator: ",") + "]")
            }
            sizes.append(Self.quoted(size.rawValue) + ":{" + rows.joined(separator: ",") + "}")
        }
        return "{" + sizes.joined(separator: ",") + "}"
    }

    /// Every set of add-ons a line may have (up to `OrderRules.maximumAddOns`), each in the form's order.
    static let addOnChoices: [[AddOn]] = {
        var choices: [[AddOn]] = [[]]
        for addOn in AddOn.allCases {
            choices += choices.filter { $0.count < OrderRules.maximumAddOns }.map { $0 + [addOn] }
        }
        return choices
    }()

    /// A JSON string of the shop's own words (sizes, add-ons): no quote, backslash or control among them, checked.
    private static func quoted(_ text: String) -> String {
        let data = (try? JSONEncoder().encode(text)).flatMap { String(data: $0, encoding: .utf8) }
        return data ?? "\"\""
    }
}
