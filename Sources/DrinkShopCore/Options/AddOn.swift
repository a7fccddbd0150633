/// A topping (加料); the raw value is the string the KEBUKE app stores in `addOns`.
public enum AddOn: String, CaseIterable, Sendable, Hashable {
    case whiteTapioca = "加白玉"
    case agarPearl = "加水玉"
    case fruitJelly = "加菓玉"

    /// What every add-on costs, in NT$.
    public static let price = 10

    /// The topping's own name, without 加 ("白玉").
    public var shortName: String { String(rawValue.dropFirst()) }

    /// The English label of the KEBUKE app.
    public var englishLabel: String {
        switch self {
        case .whiteTapioca: "White Tapioca"
        case .agarPearl: "Agar Pearl"
        case .fruitJelly: "Confectionery"
        }
    }

    /// Whether the topping may go into a 溫 or 熱 drink; 菓玉 melts, so it may not.
    public var canBeServedHot: Bool { self != .fruitJelly }
}
