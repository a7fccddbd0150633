import DrinkShopCore
import LineEditor
import Synchronization

/// Tab completion for the REPL: command names first, then per command its words: drink names and
/// options for `order` and `edit`, categories for `menu`, statuses for `orders`, commands for `help`.
/// The drink names are refreshed by the REPL as the menu changes.
public final class ShopCompleter: Sendable {
    private let drinkNames = Mutex<[String]>([])

    public init() {}

    /// Replaces the drink names offered.
    public func update(drinkNames names: [String]) {
        drinkNames.withLock { $0 = names }
    }

    /// Candidates for the word that ends at `cursor` in `line`.
    public func complete(line: String, cursor: Int) -> [String] {
        let before = String(line.prefix(cursor))
        let words = before.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let partial = before.last == " " || before.isEmpty ? "" : (words.last ?? "")
        let previous = partial.isEmpty ? words : Array(words.dropLast())
        guard let command = previous.first else {
            return CommandName.allCases.map(\.rawValue).filter { $0.hasPrefix(partial.lowercased()) }
        }
        let key = partial.lowercased()
        let matching = { (candidates: [String]) in
            candidates.filter { $0.lowercased().hasPrefix(key) }
        }
        guard let name = CommandName.find(command) else { return [] }
        switch name {
        case .order:
            return matching(drinkNames.withLock { $0 }) + matching(optionWords) + matching(["for", "note"])
        case .edit:
            return matching(optionWords) + matching(["note", "no add-ons"])
        case .menu:
            return matching(DrinkCategory.allCases.map(\.rawValue) + drinkNames.withLock { $0 })
        case .orders:
            return matching(["open", "all", "--date", "--from", "--to"] + OrderStatus.allCases.map(\.rawValue))
        case .report, .log:
            return matching(["--date", "--from", "--to"])
        case .help:
            return matching(CommandName.allCases.map(\.rawValue))
        case .banner:
            return matching(["next", "prev"])
        case .advance, .cancel, .void, .delete, .seed, .promos, .login, .logout, .quit:
            return []
        }
    }

    /// Single-word option spellings (multi-word ones cannot be completed as one word).
    private var optionWords: [String] {
        OptionVocabulary.allSpellings.filter { !$0.contains(" ") }
    }
}
