/// The CSV files `export --csv` writes: orders, their lines, and payments and refunds.
public enum TillExport {
    /// One row per order.
    public static func orders(_ orders: [TillOrder], calendar: ShopCalendar) -> CSVTable {
        var table = CSVTable(header: ["pickupNumber", "createdAt", "orderName", "placedBy", "status", "cancelReason",
                                      "cups", "subtotal", "promotion", "promotionDiscount", "memberDiscount",
                                      "adjustments", "total", "paid", "refunded", "paymentState", "member", "invoice"])
        for till in orders {
            let order = till.order
            let charges = till.charges
            table.append([
                "\(order.pickupNumber)", calendar.minuteText(order.createdAt), CSVTable.text(order.orderName),
                CSVTable.text(order.placedBy), till.status, CSVTable.text(order.cancelReason ?? ""), "\(order.cupCount)", "\(charges.subtotal)",
                CSVTable.text(charges.promotion?.name ?? ""), "\(charges.promotion?.totalDiscount ?? 0)",
                "\(charges.memberDiscounts.reduce(0) { $0 + $1.amount })",
                charges.adjustments.map { "\($0.name) x\($0.count) \(Adjustment.signed($0.amount))" }
                    .joined(separator: "; "),
                "\(charges.total)", "\(till.money.paid)", "\(till.money.refunded)", till.money.state.description,
                till.member?.digits ?? "", till.invoice?.description ?? "",
            ])
        }
        return table
    }

    /// One row per order line.
    public static func lines(_ orders: [TillOrder]) -> CSVTable {
        var table = CSVTable(header: ["pickupNumber", "line", "drinkName", "size", "ice", "sugar", "addOns",
                                      "quantity", "unitPrice", "lineTotal", "promotionDiscount", "note"])
        for till in orders {
            for (index, line) in till.order.lines.enumerated() {
                table.append([
                    "\(till.order.pickupNumber)", "\(index + 1)", CSVTable.text(line.drinkName), line.size.rawValue,
                    line.ice.rawValue, line.sugar.rawValue, line.addOns.map(\.rawValue).joined(separator: "、"),
                    "\(line.quantity)", "\(line.unitPrice)", "\(line.lineTotal)",
                    "\(till.order.discount(forLine: index))", CSVTable.text(line.note ?? ""),
                ])
            }
        }
        return table
    }

    /// One row per payment and per refund (refunds with a negative amount).
    public static func payments(_ orders: [TillOrder], calendar: ShopCalendar) -> CSVTable {
        var table = CSVTable(header: ["pickupNumber", "at", "kind", "method", "amount", MoneyFigure.handedOver.column,
                                      MoneyFigure.change.column, "by", "reason"])
        for till in orders {
            let number = "\(till.order.pickupNumber)"
            for payment in till.money.payments {
                table.append([number, calendar.minuteText(payment.takenAt), "payment", payment.method.rawValue,
                              "\(payment.amount)", "\(payment.tendered)", "\(payment.change)",
                              CSVTable.text(payment.takenBy), ""])
            }
            for refund in till.money.refunds {
                table.append([number, calendar.minuteText(refund.refundedAt), "refund", refund.method.rawValue,
                              "\(-refund.amount)", "", "", CSVTable.text(refund.refundedBy),
                              CSVTable.text(refund.reason)])
            }
        }
        return table
    }
}
