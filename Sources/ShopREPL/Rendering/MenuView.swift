import DrinkShopCore
import LineEditor

/// The menu as tables, one per category, aligned by display width.
enum MenuView {
    /// The drinks a `menu` filter selects: a whole category, or a name search.
    static func select(_ menu: Menu, filter: String) -> [Drink] {
        if let category = DrinkCategory(parsing: filter) { return menu.drinks(in: category) }
        return menu.search(filter)
    }

    /// - Parameter width: the screen's columns (nil: a pipe, every column whole). The drink, its prices
    ///   and its marks always show; the English name narrows, then goes.
    static func render(_ drinks: [Drink], soldOut: SoldOutItems = .none, style: ColorPolicy, width: Int? = nil) -> String {
        var out = ""
        for category in DrinkCategory.allCases {
            let inCategory = drinks.filter { $0.category == category }
            guard !inCategory.isEmpty else { continue }
            out += style.paint("\(category.rawValue) \(category.englishName)", .bold, .cyan) + "\n"
            var table = TextTable(columns: [
                .init("Drink"), .init("English", minWidth: 12, dropRank: 0), .init("中 M", alignment: .right), .init("大 L", alignment: .right),
                .init(""),
            ])
            for drink in inCategory {
                var marks: [String] = []
                if drink.hotAvailable { marks.append("♨ hot ok") }
                if !drink.available {
                    marks.append(style.paint("售完 sold out", .red))
                } else if let ingredient = drink.missingIngredient {
                    marks.append(style.paint("售完（\(ingredient)已售完）sold out", .red))
                }
                // A size out in every drink is said once, below; here only this drink's own.
                let ownSizes = drink.soldOutSizes.filter { !soldOut.contains(.size($0)) }
                for size in CupSize.allCases where ownSizes.contains(size) {
                    marks.append(style.paint("\(size.rawValue)售完 \(size.englishLabel) sold out", .red))
                }
                table.append([drink.name, drink.englishName ?? "", "$\(drink.mediumPrice)",
                              drink.largePrice.map { "$\($0)" } ?? "—", marks.joined(separator: "  ")])
            }
            out += table.render(style: style, width: width) + "\n"
        }
        guard !out.isEmpty else { return out }
        // What is out in every drink: the sizes (the cups ran out) and the ingredients, said once.
        let everywhere = soldOut.listed.filter { if case .size = $0 { true } else if case .ingredient = $0 { true } else { false } }
        if !everywhere.isEmpty {
            out += style.paint("售完 Sold out: " + everywhere.map(\.choiceLabel).joined(separator: " · "), .red) + "\n"
        }
        // Every drink takes the same add-ons at the same price (per cup).
        let outAddOns = soldOut.addOns
        let addOns = AddOn.allCases.map { "\($0.rawValue) \($0.englishLabel)" + (outAddOns.contains($0) ? " " + style.paint("售完 sold out", .red) : "") }
        let title = style.paint("加料 Add-ons", .bold, .cyan) + " +$\(AddOn.price) each per cup:"
        guard let width else { return out + title + " " + addOns.joined(separator: " · ") + "\n" }
        // At a screen, one add-on is never split across lines.
        var lines = [title]
        for addOn in addOns {
            let last = lines[lines.count - 1]
            if last.displayWidth + 3 + addOn.displayWidth <= width {
                lines[lines.count - 1] = last + (last == title ? " " : " · ") + addOn
            } else {
                lines.append("  " + addOn)
            }
        }
        return out + lines.joined(separator: "\n") + "\n"
    }
}

/// One promotion or seasonal drink, above the prompt.
enum BannerView {
    static func line(_ banner: Banner, style: ColorPolicy) -> String {
        style.paint("★ \(banner.text)", .yellow)
    }
}
