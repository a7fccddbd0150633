/// A section of the menu. The raw value is the string stored in Airtable's `category` field, and
/// the cases are declared in the shop's display order: 季節限定, 單品茶, 調茶, 雲蓋, 歐蕾.
public enum DrinkCategory: String, CaseIterable, Sendable, Hashable, Comparable {
    case seasonal = "季節限定"
    case classicTea = "單品茶"
    case mixedTea = "調茶"
    case creamCap = "雲蓋"
    case milkTea = "歐蕾"

    /// The English name shown beside the Chinese one.
    public var englishName: String {
        switch self {
        case .seasonal: "Seasonal"
        case .classicTea: "Classic Tea"
        case .mixedTea: "Mixed Tea"
        case .creamCap: "Cream Cap"
        case .milkTea: "Milk Tea"
        }
    }

    /// Every spelling `init(parsing:)` accepts besides the raw value and the English name:
    /// short forms, simplified Chinese and English synonyms.
    public var aliases: [String] {
        switch self {
        case .seasonal: ["季節", "季节限定", "限定", "season", "limited", "seasonal special"]
        case .classicTea: ["單品", "单品茶", "classic", "pure tea", "single tea"]
        case .mixedTea: ["调茶", "mixed", "mix", "blended tea"]
        case .creamCap: ["云盖", "cream", "creamcap", "cream-cap", "cloud cap"]
        case .milkTea: ["欧蕾", "au lait", "milk", "latte"]
        }
    }

    /// The position in the display order (季節限定 first).
    public var displayOrder: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    public static func < (lhs: DrinkCategory, rhs: DrinkCategory) -> Bool {
        lhs.displayOrder < rhs.displayOrder
    }

    /// Reads a category from its Chinese name, its English name or an alias, ignoring case and
    /// surrounding whitespace; nil when the text names no category.
    public init?(parsing text: String) {
        let key = text.matchingKey
        guard !key.isEmpty,
              let match = Self.allCases.first(where: { category in
                  category.spellings.contains { $0.matchingKey == key }
              })
        else { return nil }
        self = match
    }

    /// Like `init(parsing:)`, but an unknown name is an error that lists the valid ones.
    public static func parse(_ text: String) throws(DrinkValidationError) -> DrinkCategory {
        guard let category = DrinkCategory(parsing: text) else { throw .unknownCategory(text) }
        return category
    }

    /// Every accepted spelling: the raw value, the English name and the aliases.
    public var spellings: [String] { [rawValue, englishName] + aliases }

    /// "歐蕾 Milk Tea", for headings and error messages.
    public var label: String { "\(rawValue) \(englishName)" }
}
