/// What a customer asked for about one line, before it is checked against the drink: the
/// options (any may still be missing), the number of cups and a note.
public struct DrinkChoices: Sendable, Hashable {
    /// The cup size, if chosen.
    public var size: CupSize?
    /// The ice level or temperature, if chosen.
    public var ice: IceLevel?
    /// The sugar level, if chosen.
    public var sugar: SugarLevel?
    /// Add-ons in the order chosen; duplicates are kept so the rules can report them.
    public var addOns: [AddOn]
    /// The number of cups; 1 unless told.
    public var quantity: Int
    /// A note for the person making the drink; nil or empty for none.
    public var note: String?

    /// Choices made so far; anything left out is still to choose.
    public init(
        size: CupSize? = nil,
        ice: IceLevel? = nil,
        sugar: SugarLevel? = nil,
        addOns: [AddOn] = [],
        quantity: Int = 1,
        note: String? = nil
    ) {
        self.size = size
        self.ice = ice
        self.sugar = sugar
        self.addOns = addOns
        self.quantity = quantity
        self.note = note
    }

    /// Records one option as typed. Repeating the same value is harmless; a second, different
    /// size, ice or sugar is refused (and the choices stay as they were). Add-ons accumulate.
    /// - Throws: `OrderRuleViolation.conflictingChoice`.
    public mutating func choose(_ option: DrinkOption) throws(OrderRuleViolation) {
        switch option {
        case .size(let size):
            if let current = self.size, current != size {
                throw .conflictingChoice(.size, first: current.rawValue, second: size.rawValue)
            }
            self.size = size
        case .ice(let ice):
            if let current = self.ice, current != ice {
                throw .conflictingChoice(.ice, first: current.rawValue, second: ice.rawValue)
            }
            self.ice = ice
        case .sugar(let sugar):
            if let current = self.sugar, current != sugar {
                throw .conflictingChoice(.sugar, first: current.rawValue, second: sugar.rawValue)
            }
            self.sugar = sugar
        case .addOn(let addOn):
            addOns.append(addOn)
        }
    }

    /// The note as it will be stored: trimmed, and nil when empty.
    public var normalizedNote: String? {
        guard let text = note?.trimmed, !text.isEmpty else { return nil }
        return text
    }
}
