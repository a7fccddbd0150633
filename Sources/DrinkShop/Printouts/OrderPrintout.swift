import DrinkShopCore
import Foundation
import Printing

/// What the till knows about an order that the order itself does not: how it was paid, the change,
/// adjustments beyond the promotion (環保杯, bag fee, staff price) and the invoice. The till fills it in;
/// the printing side only lays it out. Everything is optional, so a receipt printed before payment
/// (or without the till) is still a complete receipt of the order.
public struct ReceiptFacts: Sendable, Equatable {
    /// Adjustments other than the promotion, signed as they change the total (a discount is negative).
    public var adjustments: [Receipt.Adjustment]
    public var payments: [Receipt.Payment]
    /// Change handed back; nil when none is due.
    public var change: Int?
    /// Invoice details (統一發票 number, buyer's tax ID, carrier) as ready-made lines.
    public var invoiceLines: [String]

    public init(adjustments: [Receipt.Adjustment] = [], payments: [Receipt.Payment] = [], change: Int? = nil,
                invoiceLines: [String] = []) {
        self.adjustments = adjustments
        self.payments = payments
        self.change = change
        self.invoiceLines = invoiceLines
    }
}

/// The one place a stored order becomes printable values: its cup stickers and its receipt.
public enum OrderPrintout {
    /// The shop's name at the top of receipts (until the store setting names it).
    public static let defaultShopName = "可不可熟成紅茶 KEBUKE"
    static let footer = ["謝謝光臨 Thank you"]

    /// How the number is printed: `27` for a pickup number, `#A-P2` for an unsent order's kept number, and
    /// `27 (A-P2)` once a kept order has its pickup number, so the customer holding the A-P2 slip finds the cup.
    public static func numberText(_ stored: StoredOrder) -> String {
        let kept = stored.provisionalNumber.map { " (" + OrderNumber.keptText($0, counter: stored.provisionalCounter) + ")" } ?? ""
        switch stored.number {
        case .pickup(let number): return String(number) + kept
        case .provisional: return stored.number?.description ?? "-"
        // A sticker names the pickup number only: the day is on it as the time.
        case .onDay(let number, _): return String(number) + kept
        case nil: return "-"
        }
    }

    /// A topping as printed after "+": 加白玉 → 白玉 (so it reads "+白玉", not "+加白玉").
    public static func toppingName(_ addOn: AddOn) -> String {
        addOn.rawValue.hasPrefix("加") ? String(addOn.rawValue.dropFirst()) : addOn.rawValue
    }

    /// One sticker per cup, in line order: a line of three cups gives three stickers, numbered across the order.
    public static func labels(for stored: StoredOrder) -> [CupLabel] {
        let order = stored.order
        let count = order.cupCount
        var labels: [CupLabel] = []
        for line in order.lines {
            // A group order's line names its person (`LinePerson`): their name on their cups, not the organiser's.
            let person = LinePerson.parse(line.note)
            for _ in 0..<line.quantity {
                labels.append(CupLabel(
                    pickupNumber: numberText(stored), cupIndex: labels.count + 1, cupCount: count,
                    drink: line.drinkName, size: line.size.rawValue, sugar: line.sugar.rawValue, ice: line.ice.rawValue,
                    addOns: line.addOns.map(toppingName), note: person.map(\.note) ?? line.note, time: order.createdAt,
                    customerName: person?.person ?? order.orderName))
            }
        }
        return labels
    }

    /// The receipt of an order: its lines at their full price, the promotion as an adjustment, then what
    /// the till adds (`facts`). The total is the order's total plus the till's adjustments.
    public static func receipt(for stored: StoredOrder, facts: ReceiptFacts = ReceiptFacts(),
                               shopName: String = defaultShopName) -> Receipt {
        let order = stored.order
        let lines = order.lines.map { line in
            Receipt.Line(name: line.drinkName,
                         detail: ([line.size.rawValue, line.sugar.rawValue, line.ice.rawValue]
                             + line.addOns.map { "+" + toppingName($0) }).joined(separator: " "),
                         quantity: line.quantity, amount: line.lineTotal)
        }
        var adjustments: [Receipt.Adjustment] = []
        if let promotion = order.promotion, order.discount != 0 {
            adjustments.append(Receipt.Adjustment(label: promotion.name, amount: -order.discount))
        }
        adjustments += facts.adjustments
        let total = order.total + facts.adjustments.reduce(0) { $0 + $1.amount }
        return Receipt(shopName: shopName, pickupNumber: numberText(stored), time: order.createdAt, lines: lines,
                       adjustments: adjustments, total: total, payments: facts.payments, change: facts.change,
                       invoiceLines: facts.invoiceLines, footer: footer)
    }
}
