/// The sugar level (甜度選擇); the raw value is the string the KEBUKE app stores in `sugar`.
public enum SugarLevel: String, CaseIterable, Sendable, Hashable {
    case full = "正常糖"
    case less = "少糖"
    case half = "半糖"
    case light = "微糖"
    case twenty = "二分糖"
    case ten = "一分糖"
    case free = "無糖"

    /// The share of the regular sweetness, in percent.
    public var percent: Int {
        switch self {
        case .full: 100
        case .less: 70
        case .half: 50
        case .light: 30
        case .twenty: 20
        case .ten: 10
        case .free: 0
        }
    }

    /// The English label of the KEBUKE app ("50% Sugar", "Sugar-Free").
    public var englishLabel: String {
        self == .free ? "Sugar-Free" : "\(percent)% Sugar"
    }
}
