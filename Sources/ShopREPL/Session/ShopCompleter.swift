import DrinkShop
import DrinkShopCore
import LineEditor
import Synchronization

/// Tab completion for the REPL, by context (each command's own in its `CommandSpec`): command names first; after `order` the drinks on sale (never a
/// sold-out one) and, once a drink is named, its own sizes, sugars, ices and add-ons (a size it lacks or a
/// hot ice it cannot be served at is not offered; multi-word English spellings such as `less ice` are);
/// after `edit`/`advance`/`cancel`/`void`/`delete` the open order numbers; after `seed` file names;
/// categories for `menu`, statuses for `orders`, commands for `help`. The REPL refreshes the menu and the
/// open numbers as they change.
public final class ShopCompleter: Sendable {
    private struct State {
        var drinks: [Drink] = []
        var openNumbers: [String] = []
    }
    private let state = Mutex(State())
    private let listFiles: @Sendable (String) -> [String]

    /// - Parameter listFiles: the file names that complete a partial path (the REPL lists the folder).
    public init(listFiles: @escaping @Sendable (String) -> [String] = { _ in [] }) {
        self.listFiles = listFiles
    }

    /// Replaces the drinks offered (sold-out ones are never offered).
    public func update(menu: Menu) {
        state.withLock { $0.drinks = menu.drinks.filter(\.isOnSale) }
    }

    /// Replaces the open order numbers offered after edit, advance, cancel, void and delete (`#12`, `#6@2026-11-30`).
    public func update(openNumbers: [String]) {
        state.withLock { $0.openNumbers = openNumbers }
    }

    /// Candidates for the word that ends at `cursor` in `line`.
    public func complete(line: String, cursor: Int) -> [String] {
        let before = String(line.prefix(cursor))
        let words = before.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let partial = before.last == " " || before.isEmpty ? "" : (words.last ?? "")
        let previous = partial.isEmpty ? words : Array(words.dropLast())
        guard let command = previous.first else {
            return CommandSpec.all.filter { !$0.runsFromTheShell }.map(\.name).filter { $0.hasPrefix(partial.lowercased()) }
        }
        guard let spec = CommandSpec.find(command) else { return [] }
        let (drinks, numbers) = state.withLock { ($0.drinks, $0.openNumbers) }
        return spec.completion(CompletionContext(previous: previous, partial: partial, drinks: drinks, openNumbers: numbers,
                                                 listFiles: listFiles))
    }

    /// The drink the words name, by the longest run of them that is a drink's Chinese or English name.
    static func drinkNamed(in words: [String], drinks: [Drink]) -> Drink? {
        guard !words.isEmpty else { return nil }
        for length in stride(from: words.count, through: 1, by: -1) {
            for start in 0...(words.count - length) {
                let phrase = words[start..<(start + length)].joined(separator: " ").lowercased()
                if let drink = drinks.first(where: { $0.name.lowercased() == phrase || $0.englishName?.lowercased() == phrase }) {
                    return drink
                }
            }
        }
        return nil
    }

    /// The spellings (Chinese and English, multi-word too) of the options `drink` can take, leaving out
    /// the kinds of option already given (one size, one sugar, one ice; add-ons may repeat up to the rule).
    static func optionWords(for drink: Drink, excluding given: [String]) -> [String] {
        var chosen: Set<String> = []
        var index = 0
        while index < given.count {
            if let match = OptionVocabulary.match(given, at: index) {
                switch match.option {
                case .size: chosen.insert("size")
                case .sugar: chosen.insert("sugar")
                case .ice: chosen.insert("ice")
                case .addOn: break
                }
                index += match.tokenCount
            } else {
                index += 1
            }
        }
        var options: [DrinkOption] = []
        if !chosen.contains("size") { options += CupSize.allCases.filter { $0 != .large || drink.largePrice != nil }.map(DrinkOption.size) }
        if !chosen.contains("sugar") { options += SugarLevel.allCases.map(DrinkOption.sugar) }
        if !chosen.contains("ice") { options += IceLevel.allCases.filter { !$0.isHot || drink.hotAvailable }.map(DrinkOption.ice) }
        options += AddOn.allCases.map(DrinkOption.addOn)
        var seen: Set<String> = []
        return options.flatMap { [$0.storedValue, $0.englishLabel.lowercased()] }.filter { seen.insert($0).inserted }
    }
}

/// What a command's completion (`CommandSpec.completion`) knows: the words typed before the one being completed
/// (the command's name first), that word so far, and what the counter offers now.
struct CompletionContext {
    let previous: [String]
    let partial: String
    /// The drinks on sale.
    let drinks: [Drink]
    /// The open order numbers (`#12`, `#6@2026-11-30`).
    let openNumbers: [String]
    let listFiles: @Sendable (String) -> [String]

    /// The candidates that begin with the word so far (any case).
    func matching(_ candidates: [String]) -> [String] {
        let key = partial.lowercased()
        return candidates.filter { $0.lowercased().hasPrefix(key) }
    }

    /// The open order numbers right after the command's name, else `rest`.
    func afterOrderNumber(_ rest: @autoclosure () -> [String]) -> [String] {
        previous.count == 1 ? matching(openNumbers) : rest()
    }

    /// After `order`: the drinks on sale, and once the words since the last comma name one, its own options.
    func orderWords() -> [String] {
        // The words of the current drink: those after the last comma.
        let typed = previous.dropFirst().joined(separator: " ")
        let segment = (typed.split(separator: ",", omittingEmptySubsequences: false).last ?? "")
            .split(separator: "，", omittingEmptySubsequences: false).last.map { $0.split(separator: " ").map(String.init) } ?? []
        if let drink = ShopCompleter.drinkNamed(in: segment, drinks: drinks) {
            return matching(ShopCompleter.optionWords(for: drink, excluding: segment)) + matching(["for", "note"])
        }
        return matching(drinks.flatMap { [$0.name] + ($0.englishName.map { [$0] } ?? []) })
    }
}
