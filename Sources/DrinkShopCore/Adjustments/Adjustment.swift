/// How an everyday adjustment changes an order's price.
public enum AdjustmentKind: Sendable, Hashable {
    /// Signed NT$ per cup, e.g. −5 for each 環保杯 (own cup); at most one per cup in the order.
    case perCup(Int)
    /// Signed NT$ per item counted at the counter, e.g. +1 or +2 for each plastic bag.
    case perItem(Int)
    /// A percentage (1–100) off what the order costs after promotions and member benefits (員工價).
    case percentOff(Int)

    /// The kind's code in seed files and the store: perCup, perItem, percentOff.
    public var code: String {
        switch self {
        case .perCup: "perCup"
        case .perItem: "perItem"
        case .percentOff: "percentOff"
        }
    }
}

/// An adjustment the counter applies by hand (環保杯, 塑膠袋, 員工價), configured in the seed file
/// beside promotions and shown on receipts and reports apart from them.
public struct Adjustment: Sendable, Hashable {
    /// The name on the receipt ("環保杯").
    public let name: String
    /// The word typed at the counter ("cup", "bag", "staff"): lowercase ASCII letters and digits.
    public let code: String
    public let kind: AdjustmentKind
    /// Whether only a manager may apply it (a staff price usually is).
    public let needsManager: Bool

    /// The largest NT$ a per-cup or per-item adjustment may move, either way.
    public static let amountLimit = 1_000

    /// - Throws: `AdjustmentValidationError` naming the field: an empty name, a code that is not
    ///   lowercase letters and digits, an amount of 0 or beyond `amountLimit`, a percentage outside 1...100.
    public init(name: String, code: String, kind: AdjustmentKind, needsManager: Bool = false)
        throws(AdjustmentValidationError)
    {
        let name = name.trimmed
        guard !name.isEmpty, !name.containsControlCharacter else { throw .emptyName }
        let code = code.trimmed
        guard !code.isEmpty, code.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) }) else {
            throw .badCode(code)
        }
        switch kind {
        case .perCup(let amount), .perItem(let amount):
            guard amount != 0, abs(amount) <= Self.amountLimit else { throw .amountOutOfRange(amount) }
        case .percentOff(let percent):
            guard (1...100).contains(percent) else { throw .percentOutOfRange(percent) }
        }
        self.name = name
        self.code = code
        self.kind = kind
        self.needsManager = needsManager
    }

    /// "−5 a cup", "+2 each", "20% off".
    public var summary: String {
        switch kind {
        case .perCup(let amount): "\(Self.signed(amount)) a cup"
        case .perItem(let amount): "\(Self.signed(amount)) each"
        case .percentOff(let percent): "\(percent)% off"
        }
    }

    public static func signed(_ amount: Int) -> String { amount > 0 ? "+\(amount)" : "\(amount)" }
}

/// An adjustment as applied to one order: how many times and the signed NT$ it moved the total.
public struct AppliedAdjustment: Sendable, Hashable {
    public let name: String
    public let code: String
    /// Cups or items counted (1 for a percentage).
    public let count: Int
    /// Signed NT$: negative takes off, positive adds (a bag fee).
    public let amount: Int

    public init(name: String, code: String, count: Int, amount: Int) {
        self.name = name
        self.code = code
        self.count = count
        self.amount = amount
    }
}

/// An adjustment the counter asked for on an order, `count` times (cups or bags; ignored for a percentage).
public struct AdjustmentUse: Sendable, Hashable {
    public let adjustment: Adjustment
    public let count: Int

    public init(_ adjustment: Adjustment, count: Int = 1) {
        self.adjustment = adjustment
        self.count = count
    }
}
