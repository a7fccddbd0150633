/// The shop's rules for one line of an order, checked against the drink as the menu has it now.
public enum OrderRules {
    /// At most this many add-ons per cup (加料最多選擇2項).
    public static let maximumAddOns = 2
    /// The number of cups one line may have.
    public static let quantityRange = 1...99
    /// The longest note, in UTF-8 bytes (100 Chinese characters; a combining mark counts, so a note cannot
    /// hide kilobytes behind one "character").
    public static let maximumNoteBytes = 300

    /// Every rule `choices` breaks for `drink`, in a fixed order: sold out (the drink, an ingredient), missing
    /// options, size, temperature, add-ons, quantity, note. Empty when the line may be ordered.
    ///
    /// - Parameter ordered: the line as it was ordered, when re-checking an edit of it: what has sold out since
    ///   is refused only where the edit asks for more of it (more cups, another size, an add-on it did not
    ///   have), so a drink that sells out later does not freeze the orders already taken.
    public static func violations(
        of choices: DrinkChoices, for drink: Drink, ordered: DrinkChoices? = nil
    ) -> [OrderRuleViolation] {
        var found: [OrderRuleViolation] = []
        let more = ordered.map { choices.quantity > $0.quantity } ?? true
        if more, !drink.available {
            found.append(.soldOut(drink: drink.name))
        } else if more, let ingredient = drink.missingIngredient {
            found.append(.ingredientSoldOut(drink: drink.name, ingredient: ingredient))
        }

        var missing: [OptionGroup] = []
        if choices.size == nil { missing.append(.size) }
        if choices.ice == nil { missing.append(.ice) }
        if choices.sugar == nil { missing.append(.sugar) }
        if !missing.isEmpty { found.append(.missingRequired(missing)) }

        if let size = choices.size, drink.price(for: size) == nil {
            found.append(.sizeUnavailable(drink: drink.name, size: size))
        }
        if let size = choices.size, drink.soldOutSizes.contains(size), more || ordered?.size != size {
            found.append(.sizeSoldOut(drink: drink.name, size: size))
        }
        if let ice = choices.ice, ice.isHot, !drink.hotAvailable {
            found.append(.notServedHot(drink: drink.name, ice: ice))
        }
        if choices.addOns.count > maximumAddOns { found.append(.tooManyAddOns(count: choices.addOns.count)) }
        var seen: Set<AddOn> = []
        for addOn in choices.addOns where !seen.insert(addOn).inserted {
            found.append(.duplicateAddOn(addOn))
            break
        }
        if let out = choices.addOns.first(where: { drink.soldOutAddOns.contains($0) && (more || ordered?.addOns.contains($0) != true) }) {
            found.append(.addOnSoldOut(out))
        }
        if let ice = choices.ice, ice.isHot,
           let melting = choices.addOns.first(where: { !$0.canBeServedHot }) {
            found.append(.addOnNotServedHot(melting, ice: ice))
        }
        if !quantityRange.contains(choices.quantity) { found.append(.quantityOutOfRange(choices.quantity)) }
        if let note = choices.normalizedNote {
            if note.utf8.count > maximumNoteBytes { found.append(.noteTooLong(length: note.utf8.count)) }
            if note.containsControlCharacter { found.append(.noteHasControlCharacters) }
        }
        return found
    }

    /// Throws the first rule `choices` breaks for `drink`, if any (see `violations`).
    public static func check(
        _ choices: DrinkChoices, for drink: Drink, ordered: DrinkChoices? = nil
    ) throws(OrderRuleViolation) {
        if let first = violations(of: choices, for: drink, ordered: ordered).first { throw first }
    }
}
