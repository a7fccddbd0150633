import DrinkShopCore

/// The menu by category, and one drink's form with the shop's real choices.
enum MenuPages {
    /// Every drink by category (季節限定 first, as the menu orders them); a sold-out drink is shown, greyed,
    /// without a link.
    static func menu(shop: String, group: GroupID, menu: Menu) -> String {
        let e = PageLayout.escape
        let categories = DrinkCategory.allCases.filter { !menu.drinks(in: $0).isEmpty }
        var body = "<nav class=\"tabs\" aria-label=\"分類 Categories\">"
        for category in categories {
            body += "<a href=\"#c\(category.displayOrder)\">\(e(category.rawValue))</a>"
        }
        body += "</nav>\n<h1>菜單 <span class=\"en\">Menu</span></h1>\n"
        body += "<p><a href=\"\(GroupPaths.base(group))\">← 回訂單 Back to the order</a></p>\n"
        for category in categories {
            body += "<section class=\"category\" id=\"c\(category.displayOrder)\">\n"
            body += "<h2>\(e(category.rawValue)) <span class=\"en\">\(e(category.englishName))</span></h2>\n<ul class=\"drinks\">\n"
            for drink in menu.drinks(in: category) {
                let price = drink.largePrice.map { "中 $\(drink.mediumPrice) / 大 $\($0)" } ?? "中 $\(drink.mediumPrice)"
                let hot = drink.hotAvailable ? "<span class=\"tag\">♨ 可熱</span>" : ""
                let english = drink.englishName.map { " <span class=\"en\">\(e($0))</span>" } ?? ""
                if drink.isOnSale {
                    body += """
                    <li><a class="drink" href="\(e(GroupPaths.drink(group, drink.name)))"><span><span class="name">\(e(drink.name))</span>\(english)\(hot)</span><span class="price">\(price)</span></a></li>

                    """
                } else {
                    body += """
                    <li><div class="drink soldout" aria-disabled="true"><span><span class="name">\(e(drink.name))</span>\(english)<span class="tag out">\(e(soldOutTag(drink)))</span></span><span class="price">\(price)</span></div></li>

                    """
                }
            }
            body += "</ul>\n</section>\n"
        }
        return PageLayout.document(title: "菜單", shop: shop, body: body)
    }

    /// "售完 Sold out", or with the ingredient that ran out: "售完（白玉已售完）Sold out".
    static func soldOutTag(_ drink: Drink) -> String {
        drink.missingIngredient.map { "售完（\($0)已售完）Sold out" } ?? "售完 Sold out"
    }

    /// What the form shows chosen: a new line's (nothing chosen), a refused form's (as sent), or a line's.
    struct Chosen {
        var size: CupSize?
        var ice: IceLevel?
        var sugar: SugarLevel?
        var addOns: [AddOn] = []
        var cups = 1
        var note = ""

        init() {}

        init(_ choices: DrinkChoices) {
            size = choices.size
            ice = choices.ice
            sugar = choices.sugar
            addOns = choices.addOns
            cups = choices.quantity
            note = choices.note ?? ""
        }
    }

    /// One drink's form: size, ice/temperature and sugar as radio buttons (required, as the KEBUKE app marks
    /// them), add-ons as checkboxes, cups and a note, and the price of the line as chosen: what the group's page
    /// will show for it, the promotion taken off (`pricing`; the price before it struck through beside it). It posts
    /// to `action`; the page's script looks each choice's price up in the table `pricing` makes (it prices nothing
    /// itself); without JavaScript the price shown is the one as first drawn, and the group's page says the line's.
    static func drink(shop: String, group: GroupID, drink: Drink, action: String, chosen: Chosen, editing: Bool,
                      message: String?, missing: Set<OptionGroup>, limits: OrderPageLimits, pricing: LinePricing,
                      token: String) -> String
    {
        let e = PageLayout.escape
        var body = "<p><a href=\"\(GroupPaths.menu(group))\">← 菜單 Menu</a> · <a href=\"\(GroupPaths.base(group))\">訂單 Order</a></p>\n"
        body += "<h1>\(e(drink.name))\(drink.englishName.map { " <span class=\"en\">\(e($0))</span>" } ?? "")</h1>\n"
        if !drink.description.isEmpty { body += "<p class=\"muted\">\(e(drink.description))</p>\n" }
        if let message { body += PageLayout.notice(message) + "\n" }
        body += "<form method=\"post\" action=\"\(e(action))\" id=\"drink-form\">\(token)\n"
        body += "<input type=\"hidden\" name=\"drink\" value=\"\(e(drink.name))\">\n"

        body += legend(OptionGroup.size, english: "Size", missing: missing)
        body += "<div class=\"choices\">\n"
        for size in CupSize.allCases {
            guard let price = drink.price(for: size) else { continue }
            let out = drink.soldOutSizes.contains(size)
            let extra = out ? "售完 Sold out" : size == .large ? "+$\(price - drink.mediumPrice)" : "$\(price)"
            body += choice(type: "radio", name: "size", value: size.rawValue, title: size.rawValue, subtitle: size.englishLabel,
                           extra: extra, checked: chosen.size == size, disabled: out)
        }
        body += "</div></fieldset>\n"

        body += legend(OptionGroup.ice, english: "Ice / temperature", missing: missing)
        body += "<div class=\"choices\">\n"
        for ice in IceLevel.allCases {
            let unavailable = ice.isHot && !drink.hotAvailable
            body += choice(type: "radio", name: "ice", value: ice.rawValue, title: ice.rawValue, subtitle: ice.englishLabel,
                           extra: unavailable ? "不可熱" : nil, checked: chosen.ice == ice, disabled: unavailable)
        }
        body += "</div></fieldset>\n"

        body += legend(OptionGroup.sugar, english: "Sugar", missing: missing)
        body += "<div class=\"choices\">\n"
        for sugar in SugarLevel.allCases {
            body += choice(type: "radio", name: "sugar", value: sugar.rawValue, title: sugar.rawValue, subtitle: sugar.englishLabel,
                           checked: chosen.sugar == sugar)
        }
        body += "</div></fieldset>\n"

        body += "<fieldset><legend>加料 <span class=\"en\">Add-ons</span><span class=\"need\">最多 \(OrderRules.maximumAddOns) 項</span></legend>\n"
        body += "<div class=\"choices\">\n"
        for addOn in AddOn.allCases {
            let subtitle = addOn.englishLabel + (addOn.canBeServedHot ? "" : " · 不可做溫熱飲")
            let out = drink.soldOutAddOns.contains(addOn)
            body += choice(type: "checkbox", name: "addon", value: addOn.rawValue, title: addOn.shortName, subtitle: subtitle,
                           extra: out ? "售完 Sold out" : "+$\(AddOn.price)", checked: chosen.addOns.contains(addOn), disabled: out)
        }
        body += "</div></fieldset>\n"

        let price = pricing.price(of: drink, size: chosen.size ?? .medium, addOns: chosen.addOns, cups: max(1, chosen.cups))
        let was = price.flatMap { $0.due == $0.beforePromotion ? nil : PageLayout.money($0.beforePromotion) } ?? ""
        body += """
        <label class="field" for="cups">杯數 <span class="en">Cups</span></label>
        <input type="number" id="cups" name="cups" value="\(chosen.cups)" min="\(limits.cupsPerLine.lowerBound)" max="\(limits.cupsPerLine.upperBound)" inputmode="numeric" required>
        <label class="field" for="note">備註（選填）<span class="en">Note (optional)</span></label>
        <input type="text" id="note" name="note" value="\(e(chosen.note))" maxlength="\(limits.noteLength)">
        <div class="total-bar"><div class="inner"><span class="sum"><s class="was" id="price-was">\(was)</s><span id="price">\(price.map { PageLayout.money($0.due) } ?? "—")</span></span>
        <button type="submit">\(editing ? "更新 Update" : "加入訂單 Add")</button></div></div>
        </form>

        """
        return PageLayout.document(title: drink.name, shop: shop, body: body, script: .price,
                                   scriptData: ["prices": pricing.table(for: drink, cups: limits.cupsPerLine)])
    }

    private static func legend(_ group: OptionGroup, english: String, missing: Set<OptionGroup>) -> String {
        let flag = missing.contains(group) ? "need missing" : "need"
        return "<fieldset><legend>\(group.chineseName) <span class=\"en\">\(english)</span><span class=\"\(flag)\">必填</span></legend>\n"
    }

    private static func choice(type: String, name: String, value: String, title: String, subtitle: String, extra: String? = nil,
                               checked: Bool, disabled: Bool = false) -> String
    {
        let e = PageLayout.escape
        let attributes = (checked && !disabled ? " checked" : "") + (disabled ? " disabled" : "")
        return """
        <label class="choice\(disabled ? " disabled" : "")"><input type="\(type)" name="\(name)" value="\(e(value))"\(attributes)><span>\(e(title))<small>\(e(subtitle))</small></span>\(extra.map { "<span class=\"extra\">\(e($0))</span>" } ?? "")</label>

        """
    }
}
