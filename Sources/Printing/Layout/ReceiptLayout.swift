import Foundation

/// The rows of a receipt: shop and number, the lines, promotions and adjustments, the total, payments
/// and change, then the invoice details and the footer.
enum ReceiptLayout {
    static func rows(for receipt: Receipt, columns: Int, timeZone: TimeZone) -> [PrintRow] {
        var rows: [PrintRow] = [
            .text(receipt.shopName, .center, large: true),
            .text("取餐號碼 \(receipt.pickupNumber)", .center, large: true),
            .text(PrintText.time(receipt.time, timeZone: timeZone, withYear: true), .center, large: false),
            .rule("-"),
        ]
        for line in receipt.lines {
            rows.append(.pair("\(line.name) x\(line.quantity)", PrintText.money(line.amount), large: false))
            if !line.detail.isEmpty {
                for text in PrintText.wrap(line.detail, columns: columns - 2) { rows.append(.text("  " + text, .left, large: false)) }
            }
        }
        if !receipt.adjustments.isEmpty {
            rows.append(.rule("-"))
            for adjustment in receipt.adjustments {
                rows.append(.pair(adjustment.label, PrintText.money(adjustment.amount), large: false))
            }
        }
        rows.append(.rule("="))
        rows.append(.pair("合計", PrintText.money(receipt.total), large: true))
        for payment in receipt.payments {
            rows.append(.pair(payment.method, PrintText.money(payment.amount), large: false))
        }
        if let change = receipt.change { rows.append(.pair("找零", PrintText.money(change), large: false)) }
        if !receipt.invoiceLines.isEmpty {
            rows.append(.rule("-"))
            for line in receipt.invoiceLines {
                for text in PrintText.wrap(line, columns: columns) { rows.append(.text(text, .left, large: false)) }
            }
        }
        if !receipt.footer.isEmpty {
            rows.append(.blank)
            for line in receipt.footer { rows.append(.text(line, .center, large: false)) }
        }
        return rows
    }
}
