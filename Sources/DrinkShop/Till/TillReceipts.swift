import DrinkShopCore
import Foundation
import Printing

extension Till {
    /// What the till adds to an order's receipt: member benefits and adjustments (each apart from the
    /// promotion), the payments and the change, and the invoice details.
    public func receiptFacts(for stored: StoredOrder) async throws(TillError) -> ReceiptFacts {
        guard !stored.isUnsent else { return ReceiptFacts() }
        // One read of the order's till record for its bill and its invoice details and member.
        let (charges, extra) = try await extras.priced(stored)
        // The ledger, not the order's copy: a receipt shows each payment as tendered, and the change.
        let money = try Self.money(of: stored, total: charges.total, records: try await ledger(of: stored))
        let adjustments = charges.billLines.filter { $0.kind == .member || $0.kind == .adjustment }
            .map { Receipt.Adjustment(label: $0.label, amount: $0.amount) }
        let payments = money.payments.map { Receipt.Payment(method: $0.method.chineseLabel, amount: $0.tendered) }
            + money.refunds.map { Receipt.Payment(method: "退款 " + $0.method.chineseLabel, amount: -$0.amount) }
        let change = money.payments.reduce(0) { $0 + $1.change }
        var invoice: [String] = []
        if let details = extra.invoice { invoice.append(details.description) }
        if let member = extra.member { invoice.append("會員 \(member.masked)") }
        return ReceiptFacts(adjustments: adjustments, payments: payments, change: change > 0 ? change : nil, invoiceLines: invoice)
    }
}
