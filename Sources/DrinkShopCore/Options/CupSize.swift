/// The cup size; the raw value is the string the KEBUKE app stores in `size`.
public enum CupSize: String, CaseIterable, Sendable, Hashable {
    /// 500 ml.
    case medium = "中杯"
    /// 700 ml.
    case large = "大杯"

    /// The English label of the KEBUKE app.
    public var englishLabel: String {
        switch self {
        case .medium: "Medium"
        case .large: "Large"
        }
    }
}
