/// The ice level or temperature (溫度選擇); the raw value is the string the KEBUKE app stores
/// in `ice`. The last three are temperatures rather than amounts of ice.
public enum IceLevel: String, CaseIterable, Sendable, Hashable {
    case regular = "正常冰"
    case less = "少冰"
    case half = "微冰"
    case iceFree = "去冰"
    case noIce = "完全去冰"
    /// Room temperature: no ice, not heated; allowed for every drink.
    case roomTemperature = "常溫"
    case warm = "溫"
    case hot = "熱"

    /// The English label of the KEBUKE app.
    public var englishLabel: String {
        switch self {
        case .regular: "Regular Ice"
        case .less: "Less Ice"
        case .half: "Half Ice"
        case .iceFree: "Ice-Free"
        case .noIce: "Without Ice"
        case .roomTemperature: "Room Temperature"
        case .warm: "Warm"
        case .hot: "Hot"
        }
    }

    /// Whether the drink is heated (溫 or 熱), which only some drinks allow.
    public var isHot: Bool { self == .warm || self == .hot }
}
