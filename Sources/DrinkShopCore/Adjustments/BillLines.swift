/// One line of the money part of a receipt: a label and signed NT$.
public struct BillLine: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case subtotal, promotion, member, adjustment, total }

    public let kind: Kind
    public let label: String
    public let amount: Int
}

extension OrderCharges {
    /// The bill as a receipt shows it, promotions, member benefits and adjustments each apart:
    /// 小計 70 / 第二杯半價 −17 / 集點兌換 −55 / 月卡 −13 / 環保杯 ×2 −10 / 塑膠袋 ×1 +2 / 合計 …
    public var billLines: [BillLine] {
        var lines = [BillLine(kind: .subtotal, label: "小計", amount: subtotal)]
        if let promotion, promotion.totalDiscount > 0 {
            lines.append(BillLine(kind: .promotion, label: promotion.name, amount: -promotion.totalDiscount))
        }
        for discount in memberDiscounts {
            switch discount {
            case .freeCup(_, let cups, let amount):
                lines.append(BillLine(kind: .member, label: cups == 1 ? "集點兌換" : "集點兌換 ×\(cups)", amount: -amount))
            case .pass(let name, let amount):
                lines.append(BillLine(kind: .member, label: name, amount: -amount))
            }
        }
        for adjustment in adjustments {
            let label = adjustment.count > 1 || adjustment.amount > 0 ? "\(adjustment.name) ×\(adjustment.count)" : adjustment.name
            lines.append(BillLine(kind: .adjustment, label: label, amount: adjustment.amount))
        }
        lines.append(BillLine(kind: .total, label: "合計", amount: total))
        return lines
    }
}
