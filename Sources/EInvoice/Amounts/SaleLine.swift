import TextScalars

/// One line of a paid bill as the invoice lists it: a drink line (`熟成紅茶(大) ×2 80`), a promotion
/// (`第二杯半價 -35`), a member discount, a free cup or an adjustment, each with its tax-included NT$ as
/// the bill shows it (a discount is negative).
///
/// Discounts are items of their own with a negative amount and quantity 1, the way the bill prints them,
/// so the invoice's items add up to exactly what was paid and each discount stays visible to an auditor.
public struct SaleLine: Sendable, Hashable {
    public var description: String
    public var quantity: Int
    /// The whole line's tax-included NT$ (all cups), signed.
    public var amount: Int

    public init(description: String, quantity: Int = 1, amount: Int) {
        self.description = description
        self.quantity = quantity
        self.amount = amount
    }
}

/// One `ProductItem` of an invoice: whole NT$, and `quantity × unitPrice == amount` always (MIG 4.1 is
/// reported to refuse an item where it is not).
public struct InvoiceItem: Sendable, Hashable {
    /// The name, cleaned: hidden scalars are spaces or `?` and the text is at most 500 UTF-8 bytes.
    public let description: String
    public let quantity: Int
    public let unitPrice: Int
    public let amount: Int
    /// 1, 2, …: the item's place on the invoice.
    public let sequence: Int

    init(description: String, quantity: Int, unitPrice: Int, sequence: Int) {
        self.description = description
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.amount = quantity * unitPrice
        self.sequence = sequence
    }

    /// Items for a line of `quantity` whose amount is `amount`: one item when the amount divides evenly,
    /// else two of whole unit prices (`3 × 38 = 114` stays one; `3 cups for 115` becomes `2 × 38` and
    /// `1 × 39`), so no unit price carries a fraction and every item multiplies out exactly.
    static func whole(description: String, quantity: Int, amount: Int, firstSequence: Int) -> [InvoiceItem] {
        let (unit, rest) = floorDivision(amount, quantity)
        if rest == 0 {
            return [InvoiceItem(description: description, quantity: quantity, unitPrice: unit, sequence: firstSequence)]
        }
        return [InvoiceItem(description: description, quantity: quantity - rest, unitPrice: unit, sequence: firstSequence),
                InvoiceItem(description: description, quantity: rest, unitPrice: unit + 1, sequence: firstSequence + 1)]
    }

    /// An item name as files, paper and QR codes may carry it.
    static func cleaned(_ text: String) -> String {
        let visible = text.replacingHiddenScalars { scalar in
            switch scalar {
            case "\n", "\r", "\t", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}": " "
            default: "?"
            }
        }
        var result = ""
        var bytes = 0
        for scalar in visible.trimmingSpaces.unicodeScalars {
            bytes += scalar.utf8.count
            guard bytes <= 500 else { break }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}

/// `(quotient, remainder)` with the quotient rounded down and the remainder in `0..<divisor` (divisor > 0).
func floorDivision(_ value: Int, _ divisor: Int) -> (Int, Int) {
    let remainder = ((value % divisor) + divisor) % divisor
    return ((value - remainder) / divisor, remainder)
}

/// Half-up rounding of `numerator / denominator` (denominator > 0), away from zero for negatives.
func roundedHalfUp(_ numerator: Int, _ denominator: Int) -> Int {
    let magnitude = (2 * abs(numerator) + denominator) / (2 * denominator)
    return numerator < 0 ? -magnitude : magnitude
}
