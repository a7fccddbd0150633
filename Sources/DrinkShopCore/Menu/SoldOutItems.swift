/// One thing on the menu a manager can sell out or restock: a whole drink, an add-on, an ingredient (and
/// with it every drink made with it, and the add-on of its name), a size in every drink (the cups ran out)
/// or one drink's size.
public enum StockItem: Sendable, Hashable {
    case drink(String)
    case addOn(AddOn)
    case ingredient(String)
    case size(CupSize)
    case drinkSize(String, CupSize)

    /// What staff read: "白玉歐蕾", "加白玉", "白玉", "大杯", "熟成紅茶 大杯".
    public var name: String {
        switch self {
        case .drink(let name), .ingredient(let name): name
        case .addOn(let addOn): addOn.rawValue
        case .size(let size): size.rawValue
        case .drinkSize(let drink, let size): "\(drink) \(size.rawValue)"
        }
    }

    /// What kind of thing it is, in both languages: "add-on 加料".
    public var kind: String {
        switch self {
        case .drink: "drink 飲品"
        case .addOn: "add-on 加料"
        case .ingredient: "ingredient 原料"
        case .size: "size in every drink 尺寸"
        case .drinkSize: "one drink's size 單品尺寸"
        }
    }

    /// "加白玉 (add-on 加料)": a choice as a list of them shows it.
    public var choiceLabel: String { "\(name) (\(kind))" }
}

/// What has run out besides whole drinks (a drink's own sold-out mark is its record's): add-ons, ingredients,
/// sizes in every drink, one drink's sizes. Kept in the shared `Setting` table, one key per item (two counters
/// selling out two things never overwrite each other), so every counter, the customers' page and the make line
/// read the same.
public struct SoldOutItems: Sendable, Hashable {
    /// The setting keys' prefix: `soldOut:addOn:加白玉`, `soldOut:ingredient:白玉`, `soldOut:size:大杯`,
    /// `soldOut:size:大杯:熟成紅茶`.
    public static let settingPrefix = "soldOut:"
    /// The value of a key whose item is out (anything else: in stock).
    public static let outValue = "out"
    public static let inValue = "in"

    /// The items out now (never `.drink`).
    public private(set) var items: Set<StockItem>

    public init(_ items: Set<StockItem> = []) {
        self.items = items.filter { if case .drink = $0 { false } else { true } }
    }

    /// The items the settings mark out; keys that name nothing known are left out.
    public init(settings: [String: String]) {
        var items: Set<StockItem> = []
        for (key, value) in settings where value == Self.outValue {
            if let item = Self.item(settingKey: key) { items.insert(item) }
        }
        self.init(items)
    }

    /// Nothing out.
    public static let none = SoldOutItems()

    public var isEmpty: Bool { items.isEmpty }

    public func contains(_ item: StockItem) -> Bool {
        if case .ingredient(let name) = item { return ingredientKeys.contains(name.matchingKey) }
        return items.contains(item)
    }

    /// The setting key that holds `item`'s state; nil for a drink (its own record holds it).
    public static func settingKey(for item: StockItem) -> String? {
        switch item {
        case .drink: nil
        case .addOn(let addOn): settingPrefix + "addOn:" + addOn.rawValue
        case .ingredient(let name): settingPrefix + "ingredient:" + name
        case .size(let size): settingPrefix + "size:" + size.rawValue
        case .drinkSize(let drink, let size): settingPrefix + "size:" + size.rawValue + ":" + drink
        }
    }

    static func item(settingKey key: String) -> StockItem? {
        guard key.hasPrefix(settingPrefix) else { return nil }
        let parts = key.dropFirst(settingPrefix.count).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[1].isEmpty else { return nil }
        switch parts[0] {
        case "addOn": return AddOn(rawValue: parts[1]).map(StockItem.addOn)
        case "ingredient":
            let name = parts.dropFirst().joined(separator: ":")
            return name.trimmed.isEmpty ? nil : .ingredient(name)
        case "size":
            guard let size = CupSize(rawValue: parts[1]) else { return nil }
            if parts.count == 3 { return parts[2].trimmed.isEmpty ? nil : .drinkSize(parts[2], size) }
            return .size(size)
        default: return nil
        }
    }

    /// Every item out, for the menu and the make line: sizes, add-ons, ingredients, drinks' sizes.
    public var listed: [StockItem] {
        items.sorted { (Self.rank($0), $0.name) < (Self.rank($1), $1.name) }
    }

    private static func rank(_ item: StockItem) -> Int {
        switch item {
        case .size: 0
        case .addOn: 1
        case .ingredient: 2
        case .drinkSize: 3
        case .drink: 4
        }
    }

    private var ingredientKeys: Set<String> {
        Set(items.compactMap { if case .ingredient(let name) = $0 { name.matchingKey } else { nil } })
    }

    /// The add-ons out: marked out themselves, or their ingredient (加白玉's is 白玉) is.
    public var addOns: Set<AddOn> {
        let ingredients = ingredientKeys
        return Set(AddOn.allCases.filter { items.contains(.addOn($0)) || ingredients.contains($0.shortName.matchingKey) })
    }

    /// `drink` with what is out for it filled in (`Drink.soldOutSizes`, `soldOutAddOns`, `missingIngredient`).
    public func applied(to drink: Drink) -> Drink {
        var drink = drink
        drink.soldOutSizes = Set(drink.sizes.filter { items.contains(.size($0)) || items.contains(.drinkSize(drink.name, $0)) })
        drink.soldOutAddOns = addOns
        let ingredients = ingredientKeys
        drink.missingIngredient = drink.contains.first { ingredients.contains($0.matchingKey) }
        return drink
    }

    /// Why the add-on is out, when its ingredient is: "白玉".
    public func ingredientOut(for addOn: AddOn) -> String? {
        items.contains(.addOn(addOn)) ? nil : (ingredientKeys.contains(addOn.shortName.matchingKey) ? addOn.shortName : nil)
    }
}

extension Menu {
    /// What of `line` (already ordered) is sold out now: its drink ("白玉歐蕾（白玉已售完）"), its size ("大杯"), its
    /// add-ons ("加白玉"); empty when nothing is. The make line flags such a line, so staff ask the customer; the
    /// order itself is left as it was taken.
    public func soldOutNow(in line: OrderLine) -> [String] {
        guard let drink = drink(named: line.drinkName) else { return [] }
        var out: [String] = []
        if !drink.available {
            out.append(drink.name)
        } else if let ingredient = drink.missingIngredient {
            out.append("\(drink.name)（\(ingredient)已售完）")
        }
        if drink.soldOutSizes.contains(line.size) { out.append(line.size.rawValue) }
        out += line.addOns.filter { drink.soldOutAddOns.contains($0) }.map(\.rawValue)
        return out
    }
}
