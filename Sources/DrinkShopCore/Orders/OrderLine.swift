/// One line of an order: a drink with its options, times a number of cups.
///
/// The unit price is a snapshot taken when the line was ordered or last edited, so a later price
/// change on the menu does not alter an order already taken.
public struct OrderLine: Sendable, Hashable {
    /// The drink's Chinese name (`drinkName` in `OrderDrink`).
    public let drinkName: String
    /// The drink's category when ordered; promotions scoped to a category use it.
    public let category: DrinkCategory
    /// The cup size.
    public let size: CupSize
    /// The ice level or temperature.
    public let ice: IceLevel
    /// The sugar level.
    public let sugar: SugarLevel
    /// The add-ons, in the order chosen.
    public let addOns: [AddOn]
    /// The number of cups (`numberOfCups` in `OrderDrink`).
    public let quantity: Int
    /// One cup with its add-ons, in NT$: the size's price plus `AddOn.price` per add-on.
    public let unitPrice: Int
    /// A note for the person making the drink, trimmed; nil for none.
    public let note: String?

    /// Checks `choices` against `drink` and prices the line.
    /// - Throws: the first `OrderRuleViolation`, in the order `OrderRules.violations` lists them.
    public init(drink: Drink, choices: DrinkChoices) throws(OrderRuleViolation) {
        try self.init(drink: drink, choices: choices, ordered: nil)
    }

    /// Rebuilds a line read from storage, as it was stored. Ordering rules are not checked (the
    /// line was valid when ordered and the menu may have changed since), only sane bounds.
    /// - Throws: `StoredOrderError` for an empty drink name, or a quantity or unit price
    ///   outside `StoredOrderError.quantityRange` / `.unitPriceRange`.
    public init(
        drinkName: String,
        category: DrinkCategory,
        size: CupSize,
        ice: IceLevel,
        sugar: SugarLevel,
        addOns: [AddOn],
        quantity: Int,
        unitPrice: Int,
        note: String?
    ) throws(StoredOrderError) {
        guard !drinkName.trimmed.isEmpty else { throw .emptyDrinkName }
        guard StoredOrderError.quantityRange.contains(quantity) else { throw .quantityOutOfRange(quantity) }
        guard StoredOrderError.unitPriceRange.contains(unitPrice) else { throw .unitPriceOutOfRange(unitPrice) }
        self.drinkName = drinkName
        self.category = category
        self.size = size
        self.ice = ice
        self.sugar = sugar
        self.addOns = addOns
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.note = note
    }

    private init(drink: Drink, choices: DrinkChoices, ordered: DrinkChoices?) throws(OrderRuleViolation) {
        try OrderRules.check(choices, for: drink, ordered: ordered)
        // The rules above guarantee these; the guard only keeps a broken invariant from trapping.
        guard let size = choices.size, let ice = choices.ice, let sugar = choices.sugar else {
            throw .missingRequired(OptionGroup.allCases.filter(\.isRequired))
        }
        guard let unitPrice = OrderLine.unitPrice(of: drink, size: size, addOns: choices.addOns) else {
            throw .sizeUnavailable(drink: drink.name, size: size)
        }
        self.drinkName = drink.name
        self.category = drink.category
        self.size = size
        self.ice = ice
        self.sugar = sugar
        self.addOns = choices.addOns
        self.quantity = choices.quantity
        self.unitPrice = unitPrice
        self.note = choices.normalizedNote
    }

    /// The price of one cup of `drink` in `size` with `addOns`; nil when the size is not sold.
    public static func unitPrice(of drink: Drink, size: CupSize, addOns: [AddOn]) -> Int? {
        drink.price(for: size).map { $0 + AddOn.price * addOns.count }
    }

    /// unitPrice × quantity: what the KEBUKE app stores as `price`, before any discount.
    public var lineTotal: Int { unitPrice * quantity }

    /// One cup without its add-ons; the pair promotions discount only this part.
    public var cupPrice: Int { unitPrice - AddOn.price * addOns.count }

    /// The line's choices, as `edit` starts from them.
    public var choices: DrinkChoices {
        DrinkChoices(size: size, ice: ice, sugar: sugar, addOns: addOns, quantity: quantity, note: note)
    }

    /// The options joined the way the KEBUKE app shows them: "大杯•少冰•半糖•加白玉".
    public var optionSummary: String {
        ([size.rawValue, ice.rawValue, sugar.rawValue] + addOns.map(\.rawValue)).joined(separator: "•")
    }

    /// The line after `edit`, checked again against `drink` (the drink as the menu has it now)
    /// and repriced at its current prices.
    ///
    /// A drink (or its size or add-on) that sold out after the line was ordered can still be edited,
    /// unless the edit asks for more of what is out (more cups, that size, that add-on).
    /// - Throws: `OrderRuleViolation` for the first rule the edited line breaks, or
    ///   `OrderError.wrongDrink` when `drink` is not the line's drink.
    public func editing(_ edit: LineEdit, drink: Drink) throws -> OrderLine {
        guard drink.name == drinkName else { throw OrderError.wrongDrink(line: drinkName, given: drink.name) }
        let edited = edit.applied(to: choices)
        return try OrderLine(drink: drink, choices: edited, ordered: choices)
    }
}
