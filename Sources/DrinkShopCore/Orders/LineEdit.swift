/// A change to an order line: every property left nil stays as it is.
public struct LineEdit: Sendable, Hashable {
    /// The new size.
    public var size: CupSize?
    /// The new ice level or temperature.
    public var ice: IceLevel?
    /// The new sugar level.
    public var sugar: SugarLevel?
    /// The new add-ons, replacing the old ones; an empty array removes them all.
    public var addOns: [AddOn]?
    /// The new number of cups.
    public var quantity: Int?
    /// The new note; an empty (or all-whitespace) note removes it.
    public var note: String?

    /// An edit changing only the properties given.
    public init(
        size: CupSize? = nil,
        ice: IceLevel? = nil,
        sugar: SugarLevel? = nil,
        addOns: [AddOn]? = nil,
        quantity: Int? = nil,
        note: String? = nil
    ) {
        self.size = size
        self.ice = ice
        self.sugar = sugar
        self.addOns = addOns
        self.quantity = quantity
        self.note = note
    }

    /// Whether the edit changes nothing at all.
    public var isEmpty: Bool {
        size == nil && ice == nil && sugar == nil && addOns == nil && quantity == nil && note == nil
    }

    /// `choices` with this edit applied.
    public func applied(to choices: DrinkChoices) -> DrinkChoices {
        var result = choices
        if let size { result.size = size }
        if let ice { result.ice = ice }
        if let sugar { result.sugar = sugar }
        if let addOns { result.addOns = addOns }
        if let quantity { result.quantity = quantity }
        if let note { result.note = note }
        return result
    }
}
