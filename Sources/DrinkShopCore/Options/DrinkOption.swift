/// One choice a customer makes about a cup: its size, ice level, sugar level or an add-on.
public enum DrinkOption: Sendable, Hashable {
    case size(CupSize)
    case ice(IceLevel)
    case sugar(SugarLevel)
    case addOn(AddOn)

    /// The group the option belongs to.
    public var group: OptionGroup {
        switch self {
        case .size: .size
        case .ice: .ice
        case .sugar: .sugar
        case .addOn: .addOns
        }
    }

    /// The string stored in Airtable ("大杯", "少冰", "半糖", "加白玉").
    public var storedValue: String {
        switch self {
        case .size(let size): size.rawValue
        case .ice(let ice): ice.rawValue
        case .sugar(let sugar): sugar.rawValue
        case .addOn(let addOn): addOn.rawValue
        }
    }

    /// The English label of the KEBUKE app ("Large", "Less Ice").
    public var englishLabel: String {
        switch self {
        case .size(let size): size.englishLabel
        case .ice(let ice): ice.englishLabel
        case .sugar(let sugar): sugar.englishLabel
        case .addOn(let addOn): addOn.englishLabel
        }
    }

    /// Every option, group by group, in the KEBUKE app's order.
    public static var allCases: [DrinkOption] {
        CupSize.allCases.map(DrinkOption.size) + IceLevel.allCases.map(DrinkOption.ice)
            + SugarLevel.allCases.map(DrinkOption.sugar) + AddOn.allCases.map(DrinkOption.addOn)
    }
}

/// The option groups of the KEBUKE app; size, ice and sugar are required (必填).
public enum OptionGroup: String, CaseIterable, Sendable, Hashable {
    case size
    case ice
    case sugar
    case addOns

    /// The group's name in English messages.
    public var englishName: String {
        switch self {
        case .size: "size"
        case .ice: "ice/temperature"
        case .sugar: "sugar"
        case .addOns: "add-ons"
        }
    }

    /// The group's name in the KEBUKE app (尺寸, 溫度, 甜度, 加料).
    public var chineseName: String {
        switch self {
        case .size: "尺寸"
        case .ice: "溫度"
        case .sugar: "甜度"
        case .addOns: "加料"
        }
    }

    /// Whether every cup must have one (size, ice and sugar).
    public var isRequired: Bool { self != .addOns }
}
