/// An option recognised in a sequence of tokens, and how many tokens it spans.
public struct OptionMatch: Sendable, Hashable {
    /// The option the tokens spell.
    public let option: DrinkOption
    /// How many tokens the spelling used ("less ice" uses 2).
    public let tokenCount: Int

    /// A match of `option` spanning `tokenCount` tokens.
    public init(option: DrinkOption, tokenCount: Int) {
        self.option = option
        self.tokenCount = tokenCount
    }
}

/// The words staff may type for each option: the stored Chinese values, short forms, and English
/// labels and aliases, several words long for some ("room temperature", "half sugar").
///
/// Matching ignores case and takes the longest spelling first, so `half ice` is 微冰 while
/// `half` alone is 半糖. No spelling means two options (a test holds the table to that).
public enum OptionVocabulary {
    /// Recognises the option that starts at `tokens[start]`, trying the longest spelling first.
    /// - Returns: the option and how many tokens it used, or nil when no spelling starts there
    ///   (or `start` is outside `tokens`).
    public static func match(_ tokens: [String], at start: Int) -> OptionMatch? {
        guard start >= 0, start < tokens.count else { return nil }
        // Each token's key once; a phrase's key is its tokens' keys joined by one space (keys are
        // trimmed with inner runs collapsed, so that is the phrase's own key). Longer phrases are only
        // tried from a word that starts a spelling of several words (or a quoted token that is empty or
        // holds a space).
        let first = tokens[start].matchingKey
        var keys = [first]
        if firstWordsOfPhrases.contains(first) || first.isEmpty || first.utf8.contains(0x20) {
            for token in tokens[(start + 1)..<(start + min(longestSpelling, tokens.count - start))] {
                keys.append(token.matchingKey)
            }
        }
        for length in stride(from: keys.count, through: 1, by: -1) {
            let phrase = keys[0..<length].filter { !$0.isEmpty }.joined(separator: " ")
            if let option = table[phrase] { return OptionMatch(option: option, tokenCount: length) }
        }
        return nil
    }

    /// The option a whole phrase spells ("less ice", "半糖", "L"), or nil.
    public static func option(for phrase: String) -> DrinkOption? {
        table[phrase.matchingKey]
    }

    /// Every accepted spelling of `option`, the stored value first.
    public static func spellings(of option: DrinkOption) -> [String] {
        entries.first { $0.option == option }?.spellings ?? []
    }

    /// Every accepted spelling of every option, in lowercase where it has case ("less ice",
    /// "m"), without duplicates, sorted: the words Tab completion offers.
    public static let allSpellings: [String] = table.keys.sorted()

    /// The spellings that start with `prefix`, ignoring case (all of them for an empty prefix).
    public static func completions(for prefix: String) -> [String] {
        let key = prefix.lowercased()
        return allSpellings.filter { $0.hasPrefix(key) }
    }

    /// Each option with its spellings. The stored value and the English label always count.
    static let entries: [(option: DrinkOption, spellings: [String])] = DrinkOption.allCases.map { option in
        (option, [option.storedValue, option.englishLabel] + aliases(of: option))
    }

    /// Spelling (as a matching key) to option. Should two entries share a spelling, the first
    /// wins rather than trapping; the vocabulary tests make sure none do.
    private static let table: [String: DrinkOption] = Dictionary(
        entries.flatMap { entry in entry.spellings.map { ($0.matchingKey, entry.option) } },
        uniquingKeysWith: { first, _ in first })

    private static let longestSpelling: Int = table.keys.map { $0.split(separator: " ").count }.max() ?? 1

    /// The first words of the spellings of several words ("less" of "less ice").
    private static let firstWordsOfPhrases: Set<String> = Set(table.keys.compactMap { key in
        key.contains(" ") ? key.split(separator: " ").first.map(String.init) : nil
    })

    private static func aliases(of option: DrinkOption) -> [String] {
        switch option {
        case .size(.medium): ["中", "M", "med"]
        case .size(.large): ["大", "L"]
        case .ice(.regular): ["normal ice", "full ice"]
        case .ice(.less): []
        case .ice(.half): ["light ice"]
        case .ice(.iceFree): ["no ice", "ice free"]
        case .ice(.noIce): ["zero ice", "全去冰"]
        case .ice(.roomTemperature): ["room temp", "room-temp", "常温"]
        case .ice(.warm): ["温"]
        case .ice(.hot): ["热"]
        case .sugar(.full): ["全糖", "100%", "full sugar", "regular sugar", "normal sugar"]
        case .sugar(.less): ["七分糖", "70%", "less sugar"]
        case .sugar(.half): ["五分糖", "50%", "half", "half sugar"]
        case .sugar(.light): ["三分糖", "30%", "light sugar"]
        case .sugar(.twenty): ["兩分糖", "20%"]
        case .sugar(.ten): ["10%"]
        case .sugar(.free): ["无糖", "0%", "0% sugar", "no sugar", "sugar free", "zero sugar", "unsweetened"]
        case .addOn(.whiteTapioca): ["白玉", "+白玉", "white tapioca", "tapioca", "white pearl"]
        case .addOn(.agarPearl): ["水玉", "+水玉", "agar", "agar pearls"]
        case .addOn(.fruitJelly): ["菓玉", "+菓玉", "果玉", "加果玉", "konjac", "fruit jelly", "jelly"]
        }
    }
}
