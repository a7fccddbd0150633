/// How a customer pays at the counter. The raw value is the code stored in the store.
public enum PaymentMethod: String, CaseIterable, Sendable, Hashable {
    case cash
    case card
    case linePay
    /// 街口支付.
    case jkoPay
    /// 悠遊卡, the transit stored-value card.
    case easyCard
    /// Anything else (一卡通 iPASS, a voucher...).
    case other

    /// The label on the receipt and the report: 現金, 信用卡, LINE Pay, 街口支付, 悠遊卡, 其他.
    public var chineseLabel: String {
        switch self {
        case .cash: "現金"
        case .card: "信用卡"
        case .linePay: "LINE Pay"
        case .jkoPay: "街口支付"
        case .easyCard: "悠遊卡"
        case .other: "其他"
        }
    }

    /// The English label: Cash, Card, LINE Pay, JKOPay, EasyCard, Other.
    public var englishLabel: String {
        switch self {
        case .cash: "Cash"
        case .card: "Card"
        case .linePay: "LINE Pay"
        case .jkoPay: "JKOPay"
        case .easyCard: "EasyCard"
        case .other: "Other"
        }
    }

    /// "街口支付 JKOPay"; just "LINE Pay" where both labels agree.
    public var label: String {
        chineseLabel == englishLabel ? englishLabel : "\(chineseLabel) \(englishLabel)"
    }

    /// Whether the customer may hand over more than is due and get change back (cash only: a card
    /// or wallet is charged exactly what is due).
    public var givesChange: Bool { self == .cash }

    /// Every spelling `init(parsing:)` accepts, by method (codes, labels and counter shorthand).
    public static let aliases: [PaymentMethod: [String]] = [
        .cash: ["cash", "現金", "现金"],
        .card: ["card", "credit", "credit card", "creditcard", "信用卡", "刷卡", "卡"],
        .linePay: ["linepay", "line pay", "line", "line-pay"],
        .jkoPay: ["jkopay", "jko pay", "jko", "街口", "街口支付"],
        .easyCard: ["easycard", "easy card", "easy", "悠遊卡", "悠游卡", "悠遊"],
        .other: ["other", "其他", "ipass", "一卡通"],
    ]

    /// Reads a method typed at the counter.
    /// - Throws: `PaymentError.unknownMethod` naming the methods there are.
    public static func parse(_ text: String) throws(PaymentError) -> PaymentMethod {
        guard let method = PaymentMethod(parsing: text) else { throw .unknownMethod(text.trimmed) }
        return method
    }

    /// Reads a method from its code, a label or a common alias, ignoring case and spacing; nil otherwise.
    public init?(parsing text: String) {
        let key = text.matchingKey
        guard !key.isEmpty,
              let method = Self.allCases.first(where: { method in
                  method.rawValue.lowercased() == key || (Self.aliases[method] ?? []).contains(key)
              })
        else { return nil }
        self = method
    }
}
