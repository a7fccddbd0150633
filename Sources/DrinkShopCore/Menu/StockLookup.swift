#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a name typed in a manager's command (`soldout`, `restock`, `price`) refers to. A manager's command
/// never acts on a guess: only a name that says exactly one thing is `.found`.
public enum StockLookup: Sendable, Hashable {
    /// The text names exactly this, by its own name (or one of its spellings: `L` for 大杯, `tapioca` for 加白玉).
    case found(StockItem)
    /// The text names several things exactly, or only part of a name: the manager must say which.
    case choose([StockItem], exact: Bool)
    /// Nothing is called that; `suggestions` are the closest names.
    case notFound(suggestions: [String])
}

/// A manager's name that names no one thing; nothing was changed.
public enum StockLookupError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case notOneThing(String, choices: [StockItem], exact: Bool)
    case nothingCalled(String, suggestions: [String])

    public var description: String {
        switch self {
        case .notOneThing(let text, let choices, let exact):
            let how = exact ? "names more than one thing" : "is only part of a name"
            let list = choices.map(\.choiceLabel).joined(separator: "; ")
            return "\"\(DrinkLookupError.excerpt(text))\" \(how): \(list) (名稱不明確，未變更); nothing was changed, "
                + "type the whole name of the one you mean"
        case .nothingCalled(let text, let suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
            return "nothing on the menu is called \"\(DrinkLookupError.excerpt(text))\" (菜單上沒有這個品項)\(hint)"
        }
    }

    public var errorDescription: String? { description }
}

extension Menu {
    /// What `text` names among the things `allowed` keeps (all kinds when nil): drinks, add-ons, ingredients,
    /// sizes, and a drink with a size (`熟成紅茶 大杯`, `大杯 熟成紅茶`).
    ///
    /// Exact names (any spelling the counter accepts for an add-on or size) decide: one is `.found`, several
    /// are `.choose(exact: true)`. An ingredient and the add-on of its name (白玉, 加白玉) named by the same word
    /// are one thing, the ingredient (it takes the add-on with it). Without an exact name, names that start with
    /// or contain the text are `.choose(exact: false)`, even one alone: a prefix is a guess, and is asked.
    public func stockLookup(_ text: String, allowed: ((StockItem) -> Bool)? = nil) -> StockLookup {
        let key = text.matchingKey
        guard !key.isEmpty else { return .notFound(suggestions: []) }
        let keep = allowed ?? { _ in true }
        var exact: [StockItem] = []
        for position in positionsByKey[key] ?? [] { exact.append(.drink(drinks[position].name)) }
        switch OptionVocabulary.option(for: text) {
        case .addOn(let addOn)?: exact.append(.addOn(addOn))
        case .size(let size)?: exact.append(.size(size))
        default: break
        }
        if let ingredient = ingredients.first(where: { $0.matchingKey == key }) {
            exact.removeAll { if case .addOn(let addOn) = $0 { addOn.shortName.matchingKey == key } else { false } }
            exact.append(.ingredient(ingredient))
        }
        exact += drinkSizes(text, exactDrink: true)
        exact = unique(exact.filter(keep))
        if exact.count == 1 { return .found(exact[0]) }
        if exact.count > 1 { return .choose(exact, exact: true) }

        var partial: [StockItem] = []
        for matches in [{ (name: String) in name.hasPrefix(key) }, { (name: String) in name.contains(key) }] {
            partial += keyedDrinks.filter { $0.1.contains(where: matches) }.map { .drink($0.0.name) }
            partial += AddOn.allCases.filter { matches($0.rawValue.matchingKey) || matches($0.englishLabel.matchingKey) }.map { .addOn($0) }
            partial += ingredients.filter { matches($0.matchingKey) }.map { .ingredient($0) }
        }
        partial += drinkSizes(text, exactDrink: false)
        partial = unique(partial.filter(keep))
        if !partial.isEmpty { return .choose(partial, exact: false) }
        let suggestions = lookup(text)
        if case .notFound(let names) = suggestions { return .notFound(suggestions: names) }
        return .notFound(suggestions: [])
    }

    /// `stockLookup` for callers that want an error: the one thing named, or an error listing the choices.
    public func resolveStock(_ text: String, allowed: ((StockItem) -> Bool)? = nil) throws(StockLookupError) -> StockItem {
        switch stockLookup(text, allowed: allowed) {
        case .found(let item): return item
        case .choose(let items, let exact): throw .notOneThing(text.trimmed, choices: items, exact: exact)
        case .notFound(let suggestions): throw .nothingCalled(text.trimmed, suggestions: suggestions)
        }
    }

    /// Whether `item` is on this menu (a drink of that exact name, a size it sells…): what a change checks
    /// before it is made, so a name chosen on an older copy of the menu changes nothing else.
    public func has(_ item: StockItem) -> Bool {
        switch item {
        case .drink(let name): drink(named: name)?.name == name
        case .addOn, .size: true
        case .ingredient(let name): ingredients.contains { $0.matchingKey == name.matchingKey }
        case .drinkSize(let name, let size): drink(named: name).map { $0.name == name && $0.price(for: size) != nil } ?? false
        }
    }

    /// A drink with a size: the size's spelling first or last, the rest the drink's whole name (or, when not
    /// `exactDrink`, part of it).
    private func drinkSizes(_ text: String, exactDrink: Bool) -> [StockItem] {
        let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count >= 2 else { return [] }
        var found: [StockItem] = []
        for (sizeWord, rest) in [(words[words.count - 1], words.dropLast()), (words[0], words.dropFirst())] {
            guard case .size(let size)? = OptionVocabulary.option(for: sizeWord) else { continue }
            let name = rest.joined(separator: " ")
            if exactDrink {
                if let drink = drink(named: name), drink.price(for: size) != nil { found.append(.drinkSize(drink.name, size)) }
            } else if drink(named: name) == nil {
                let nameKey = name.matchingKey
                found += keyedDrinks.filter { $0.1.contains { $0.contains(nameKey) } && $0.0.price(for: size) != nil }
                    .map { .drinkSize($0.0.name, size) }
            }
        }
        return found
    }

    private func unique(_ items: [StockItem]) -> [StockItem] {
        var seen: Set<StockItem> = []
        return items.filter { seen.insert($0).inserted }
    }
}
