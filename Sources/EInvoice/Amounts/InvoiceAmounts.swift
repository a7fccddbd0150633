/// The money of an invoice, whole NT$, for a tea shop where every item is taxable at 5% (TaxType 1).
///
/// - B2C (a consumer, buyer `0000000000`): items and `salesAmount` are tax-included, `taxAmount` is 0 and
///   `totalAmount` is what was paid.
/// - B2B (a buyer's 統一編號): items and `salesAmount` are tax-excluded, `salesAmount = round(paid / 1.05)`
///   half up and `taxAmount = paid - salesAmount` (105 = 100 + 5; 5500 = 5238 + 262), so the total is always
///   what was paid; the items' tax-excluded amounts are the tax-included ones divided by 1.05, rounded down,
///   with the remaining NT$ given one each to the items with the largest remainders, so they add up to
///   `salesAmount` exactly.
public struct InvoiceAmounts: Sendable, Hashable {
    /// `SalesAmount`: tax-included for B2C, tax-excluded for B2B.
    public let salesAmount: Int
    /// `TaxAmount`: 0 for B2C.
    public let taxAmount: Int
    /// `TotalAmount`: what was paid.
    public let totalAmount: Int
    /// The QR code's 銷售額, always tax-excluded: `round(total / 1.05)` half up (150 -> 143), the same rule as
    /// B2B's sales amount, so a B2C and a B2B invoice of the same total show the same figure.
    public let untaxedAmount: Int

    /// `SalesAmount` and `TaxAmount` of a tax-included total by the rule above.
    public static func split(taxIncluded total: Int) -> (sales: Int, tax: Int) {
        let sales = roundedHalfUp(total * 100, 105)
        return (sales, total - sales)
    }
}

/// An invoice's items and amounts, worked out from the bill.
public struct InvoiceContent: Sendable, Hashable {
    public let items: [InvoiceItem]
    public let amounts: InvoiceAmounts
    /// Whether items and sales are shown without tax (a B2B invoice).
    public let showsTax: Bool

    /// The content of an invoice for a bill whose lines add up to `paid`.
    /// - Parameter showsTax: true for a buyer with a 統一編號 (B2B), false for a consumer (B2C).
    /// - Throws: `EInvoiceError` naming the line that is wrong, or the two totals that differ.
    public init(lines: [SaleLine], paid: Int, showsTax: Bool) throws(EInvoiceError) {
        guard !lines.isEmpty else { throw .noItems }
        var cleaned: [SaleLine] = []
        for (index, line) in lines.enumerated() {
            let description = InvoiceItem.cleaned(line.description)
            guard !description.isEmpty else { throw .itemDescription(line: index + 1) }
            guard line.quantity >= 1 else { throw .itemQuantity(line: index + 1, quantity: line.quantity) }
            cleaned.append(SaleLine(description: description, quantity: line.quantity, amount: line.amount))
        }
        let total = cleaned.reduce(0) { $0 + $1.amount }
        guard total == paid else { throw .itemsDoNotAddUp(items: total, paid: paid) }
        guard total > 0 else { throw .nothingToInvoice(total: total) }
        let split = InvoiceAmounts.split(taxIncluded: total)
        let lineAmounts = showsTax ? Self.untaxed(cleaned.map(\.amount), summingTo: split.sales) : cleaned.map(\.amount)
        var items: [InvoiceItem] = []
        for (line, amount) in zip(cleaned, lineAmounts) {
            items += InvoiceItem.whole(description: line.description, quantity: line.quantity, amount: amount,
                                       firstSequence: items.count + 1)
        }
        self.items = items
        self.showsTax = showsTax
        self.amounts = InvoiceAmounts(salesAmount: showsTax ? split.sales : total, taxAmount: showsTax ? split.tax : 0,
                                      totalAmount: total, untaxedAmount: split.sales)
    }

    /// Each tax-included amount divided by 1.05, rounded down, then the NT$ still missing from `sales` given one
    /// each to the largest remainders (the earlier line first on a tie).
    static func untaxed(_ included: [Int], summingTo sales: Int) -> [Int] {
        let parts = included.map { floorDivision($0 * 100, 105) }
        var result = parts.map(\.0)
        let missing = sales - result.reduce(0, +)
        let order = parts.indices.sorted { parts[$0].1 != parts[$1].1 ? parts[$0].1 > parts[$1].1 : $0 < $1 }
        for index in order.prefix(max(0, missing)) { result[index] += 1 }
        return result
    }
}
