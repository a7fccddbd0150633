/// How a promotion discounts an order.
public enum PromotionKind: Sendable, Hashable {
    /// 第二杯半價: the cups are paired from the dearest down, and the cheaper cup of each pair
    /// costs half. Add-ons are paid in full.
    case secondCupHalfPrice
    /// 買一送一: as above, but the cheaper cup of each pair is free.
    case buyOneGetOne
    /// A percentage (1–100) off each covered line, add-ons included.
    case percentOff(Int)

    /// The kind's name as stored in the `Promotion` table's `kind` field.
    public var code: String {
        switch self {
        case .secondCupHalfPrice: "secondCupHalfPrice"
        case .buyOneGetOne: "buyOneGetOne"
        case .percentOff: "percentOff"
        }
    }

    /// The percentage of a `percentOff` promotion, else nil (stored in the `percent` field).
    public var percent: Int? {
        if case .percentOff(let percent) = self { return percent }
        return nil
    }

    /// Reads a kind from its stored `code` or a common spelling (Chinese included), ignoring case.
    /// - Parameter percent: the percentage, required for `percentOff`.
    /// - Throws: `PromotionValidationError` for an unknown kind, or a percent-off kind without a
    ///   percentage in 1...100.
    public init(code: String, percent: Int? = nil) throws(PromotionValidationError) {
        let key = code.matchingKey
        switch key {
        case "secondcuphalfprice", "second cup half price", "second-cup-half-price", "第二杯半價", "第二杯半价":
            self = .secondCupHalfPrice
        case "buyonegetone", "buy one get one", "buy-one-get-one", "bogo", "買一送一", "买一送一":
            self = .buyOneGetOne
        case "percentoff", "percent off", "percent-off", "discount", "折扣":
            guard let percent else { throw .missingPercent }
            guard (1...100).contains(percent) else { throw .percentOutOfRange(percent) }
            self = .percentOff(percent)
        default:
            throw .unknownKind(code)
        }
    }
}

/// Which cups a promotion covers.
public enum PromotionScope: Sendable, Hashable {
    /// Every drink of one category.
    case category(DrinkCategory)
    /// One drink, by its Chinese name.
    case drink(String)

    /// Whether the scope covers `line`.
    public func covers(_ line: OrderLine) -> Bool {
        switch self {
        case .category(let category): line.category == category
        case .drink(let name): line.drinkName == name
        }
    }

    /// "歐蕾 Milk Tea" or "白玉歐蕾", for summaries.
    public var label: String {
        switch self {
        case .category(let category): category.label
        case .drink(let name): name
        }
    }
}
