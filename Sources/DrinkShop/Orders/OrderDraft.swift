import DrinkShopCore

/// An order as staff typed it, before the menu and the rules have looked at it.
public struct OrderDraft: Sendable, Equatable {
    /// Who the order is for; nil means the customer gave no name (the staff member's name is used).
    public var orderName: String?
    public var lines: [LineDraft]

    public init(orderName: String? = nil, lines: [LineDraft]) {
        self.orderName = orderName
        self.lines = lines
    }
}

/// One drink of an order as typed: the words naming the drink, the options recognised, and extras.
public struct LineDraft: Sendable, Equatable {
    /// The drink as typed ("白玉歐蕾", "white jade", "熟成").
    public var drink: String
    public var options: [DrinkOption]
    public var quantity: Int?
    public var note: String?

    public init(drink: String, options: [DrinkOption] = [], quantity: Int? = nil, note: String? = nil) {
        self.drink = drink
        self.options = options
        self.quantity = quantity
        self.note = note
    }
}

/// Changes to one line of a placed order, as typed after `edit #N [line]`.
public struct LineChangeDraft: Sendable, Equatable {
    /// Another drink for the line, as typed (`edit #70 1 熟成紅茶 …`); nil keeps the line's drink.
    public var drink: String?
    public var options: [DrinkOption]
    /// `no add-ons`: remove every add-on.
    public var clearAddOns: Bool
    public var quantity: Int?
    public var note: String?

    public init(drink: String? = nil, options: [DrinkOption] = [], clearAddOns: Bool = false, quantity: Int? = nil, note: String? = nil) {
        self.drink = drink
        self.options = options
        self.clearAddOns = clearAddOns
        self.quantity = quantity
        self.note = note
    }

    public var isEmpty: Bool { drink == nil && options.isEmpty && !clearAddOns && quantity == nil && note == nil }
}
