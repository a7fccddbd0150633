#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a drink name typed at the counter refers to.
public enum DrinkLookup: Sendable, Hashable {
    /// Exactly one drink matches.
    case found(Drink)
    /// Several drinks match equally well; the person must say which.
    case ambiguous([Drink])
    /// Nothing matches; `suggestions` are the closest names by edit distance, best first.
    case notFound(suggestions: [String])
}

/// A drink name that could not be resolved to one drink.
public enum DrinkLookupError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case unknownDrink(String, suggestions: [String])
    case ambiguousDrink(String, candidates: [String])

    public var description: String {
        switch self {
        case .unknownDrink(let text, let suggestions):
            let hint = suggestions.isEmpty ? "" : "; did you mean \(suggestions.joined(separator: " or "))?"
            return "no drink called \"\(Self.excerpt(text))\" on the menu (菜單上沒有這個飲品)\(hint)"
        case .ambiguousDrink(let text, let candidates):
            return "\"\(Self.excerpt(text))\" matches several drinks: \(candidates.joined(separator: ", ")) "
                + "(符合的飲品不只一個); type more of the name"
        }
    }

    public var errorDescription: String? { description }

    /// At most 40 characters of what was typed, so a huge paste is never echoed whole.
    static func excerpt(_ text: String) -> String {
        text.count > 40 ? text.prefix(40) + "… (\(text.count) characters)" : text
    }
}

extension Menu {
    /// How many suggestions a failed lookup offers at most.
    public static let maximumSuggestions = 3

    /// Finds the drink a person meant by `text`.
    ///
    /// Tried in order, the first stage with any match decides: the exact Chinese or English
    /// name, then names starting with the text, then names containing it. All comparisons ignore
    /// case and surrounding whitespace. One match is `.found`, several are `.ambiguous` (in menu
    /// order). With no match, the suggestions are names within a small edit distance.
    public func lookup(_ text: String) -> DrinkLookup {
        let key = text.matchingKey
        guard !key.isEmpty else { return .notFound(suggestions: []) }
        if let exact = positionsByKey[key] {
            return exact.count == 1 ? .found(drinks[exact[0]]) : .ambiguous(exact.map { drinks[$0] })
        }
        let stages: [(String) -> Bool] = [
            { $0.hasPrefix(key) },
            { $0.contains(key) },
        ]
        for matches in stages {
            let hits = keyedDrinks.filter { $0.1.contains(where: matches) }.map(\.0)
            if hits.count == 1 { return .found(hits[0]) }
            if hits.count > 1 { return .ambiguous(hits) }
        }
        return .notFound(suggestions: suggestions(for: key))
    }

    /// `lookup(_:)` for callers that want an error: the drink, or an error that names the
    /// candidates or suggests the closest names ("did you mean 白玉歐蕾?").
    public func resolve(_ text: String) throws(DrinkLookupError) -> Drink {
        switch lookup(text) {
        case .found(let drink): return drink
        case .ambiguous(let drinks): throw .ambiguousDrink(text.trimmed, candidates: drinks.map(\.name))
        case .notFound(let suggestions): throw .unknownDrink(text.trimmed, suggestions: suggestions)
        }
    }

    /// The drinks `menu <text>` shows.
    ///
    /// Empty text lists the whole menu; a category name (in any spelling `DrinkCategory`
    /// accepts) lists that category; any other text lists the drinks whose Chinese or English
    /// name contains it, ignoring case. Results keep menu order; no match gives an empty list.
    public func search(_ text: String) -> [Drink] {
        let key = text.matchingKey
        if key.isEmpty { return drinks }
        if let category = DrinkCategory(parsing: key) { return drinks(in: category) }
        return keyedDrinks.filter { $0.1.contains { $0.contains(key) } }.map(\.0)
    }

    /// Names close to `key`, closest first (ties in menu order).
    ///
    /// A name qualifies when at most half its characters (or of the query, if shorter) need
    /// editing, so "白玉歐雷" suggests 白玉歐蕾 while "coffee" suggests nothing on a tea menu.
    private func suggestions(for key: String) -> [String] {
        var scored: [(distance: Int, position: Int, name: String)] = []
        for (position, drink) in drinks.enumerated() {
            let candidates = [(drink.name.matchingKey, drink.name)]
                + (drink.englishName.map { [($0.matchingKey, $0)] } ?? [])
            // A name whose length differs from the query's by more than the allowance cannot qualify
            // (the distance is at least the difference), so a huge query costs no edit distances.
            let best = candidates
                .filter { abs($0.0.count - key.count) <= max(1, min(key.count, $0.0.count) / 2) }
                .map { (distance: editDistance(key, $0.0), name: $0.1, length: $0.0.count) }
                .min { $0.distance < $1.distance }
            guard let best else { continue }
            let allowance = max(1, min(key.count, best.length) / 2)
            if best.distance <= allowance, best.distance < best.length {
                scored.append((best.distance, position, best.name))
            }
        }
        var seen: Set<String> = []
        return scored
            .sorted { ($0.distance, $0.position) < ($1.distance, $1.position) }
            .map(\.name)
            .filter { seen.insert($0).inserted }
            .prefix(Self.maximumSuggestions)
            .map { $0 }
    }
}
