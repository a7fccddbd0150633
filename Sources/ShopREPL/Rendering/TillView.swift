import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor

/// What the till shows: payments with change, bills, the drawer count and the report (日結).
enum TillView {
    static func payment(_ receipt: Till.PaymentReceipt, style: ColorPolicy) -> String {
        let payment = receipt.payment
        let money = receipt.money
        let named = receipt.order.isUnsent ? (receipt.order.number?.description ?? "") : "#\(receipt.order.order.pickupNumber)"
        var out = "Order \(named): \(payment.method.label) $\(payment.tendered)"
        if payment.change > 0 || payment.method.givesChange {
            out += " · " + style.paint("change $\(payment.change) 找零", .bold, .green)
        }
        out += "\n"
        switch money.state {
        case .paid: out += style.paint("Paid in full ($\(money.total)) 已付", .green) + "\n"
        case .partlyPaid(let paid, let due): out += style.paint("Paid $\(paid) of $\(money.total); $\(due) still due", .yellow) + "\n"
        default: out += "\(money.state)\n"
        }
        if let invoice = receipt.invoice { out += invoiceLine(invoice, style: style) + "\n" }
        if receipt.order.isUnsent {
            out += style.paint("Taken while the store cannot be reached: kept with the order, recorded in the store when it is sent "
                + "(離線收款，送出後入帳)", .cyan) + "\n"
            if let member = receipt.order.keptMember {
                out += style.paint("Member \(member.masked): paid without member benefits (no pass, no free cups); the order's "
                    + "stamps are added when it is sent (離線不折抵，集點於送出後)", .cyan) + "\n"
            }
        }
        if let problem = receipt.invoiceProblem {
            out += style.paint("No invoice was issued (發票未開立): \(problem); this counter issues it at its next payment, "
                + "or a manager: einvoice issue #\(receipt.order.order.pickupNumber)", .red, .bold) + "\n"
        }
        for late in receipt.lateInvoices {
            out += "Issued the invoice #\(late.pickupNumber) was owed (補開發票): " + invoiceLine(late, style: style) + "\n"
        }
        return out
    }

    /// `Invoice AB-12345678 $55 · printed proof (證明聯)`, or where a carrier or donated invoice went.
    static func invoiceLine(_ invoice: IssuedInvoice, style: ColorPolicy) -> String {
        let whereTo: String = switch invoice.details {
        case nil: "printed proof (列印證明聯)"
        case .businessNumber(let number)?: "統編 \(number), tax $\(invoice.amounts.taxAmount) shown (列印證明聯)"
        case .mobileBarcode(let code)?: "to the mobile barcode \(code) (存入載具, not printed)"
        case .citizenCertificate(let code)?: "to the citizen certificate \(code) (存入自然人憑證, not printed)"
        case .donation(let code)?: "donated to \(code) (捐贈, not printed)"
        }
        return style.paint("Invoice \(invoice.number.printed) $\(invoice.amounts.totalAmount)", .bold) + " · " + whereTo
    }

    static func bill(_ stored: StoredOrder, charges: OrderCharges, style: ColorPolicy) -> String {
        var table = TextTable(columns: [.init("Order #\(stored.order.pickupNumber)"), .init("NT$", alignment: .right)])
        for line in charges.billLines {
            table.append([line.label, line.kind == .subtotal || line.kind == .total ? "\(line.amount)" : Adjustment.signed(line.amount)])
        }
        return table.render(style: style)
    }

    /// The count, with the arithmetic that makes the expected figure when the count was just made:
    /// float + cash handed over − change − cash refunded = expected, then the count and the difference; each
    /// figure under its one name (`MoneyFigure`), as the report's columns.
    static func drawer(_ count: DrawerCount, style: ColorPolicy) -> String {
        let color: TerminalStyle = count.difference == 0 ? .green : .red
        var out = style.paint("Drawer closed by \(count.closedBy) (交班)", .bold) + "\n"
        if let cash = count.cash {
            let rows = [(" ", "float 零用金", count.shift.float), ("+", "cash " + MoneyFigure.handedOver.label, cash.handedOver),
                        ("−", MoneyFigure.change.label, cash.change), ("−", "cash " + MoneyFigure.refunded.label, cash.refunded),
                        ("=", "expected 應有", count.expected), (" ", "counted 實點", count.counted)]
            let labelWidth = rows.map(\.1.displayWidth).max() ?? 0
            let figureWidth = rows.map { "$\($0.2)".count }.max() ?? 0
            for (sign, label, figure) in rows {
                out += "  \(sign) " + label.padded(toWidth: labelWidth, alignment: .left) + "  "
                    + "$\(figure)".padded(toWidth: figureWidth, alignment: .right) + "\n"
            }
        }
        return out + "float $\(count.shift.float) · expected $\(count.expected) · counted $\(count.counted) · "
            + style.paint("\(count.summary) (\(count.chineseSummary))", .bold, color) + "\n"
    }

    /// - Parameter width: the screen's columns (nil: a pipe, every column whole). Figures always show;
    ///   names, reasons and details narrow.
    static func report(_ report: TillReport, period: Till.Period, counts: [DrawerCount], style: ColorPolicy,
                       width: Int? = nil) -> String {
        var out = style.paint("Till report (日結) \(period.label)", .bold) + "\n"
        out += "Orders \(report.orders) · cups \(report.cups) · gross $\(report.grossSales) − promotions $\(report.promotionDiscounts)"
            + " − member $\(report.memberDiscounts) \(report.adjustmentsTotal < 0 ? "−" : "+") adjustments $\(abs(report.adjustmentsTotal))"
            + " = net sales $\(report.netSales)\n"
        out += "net sales $\(report.netSales) = taken $\(report.taken) − refunded $\(report.refunded) + unpaid $\(report.unpaid)"
            + (report.moneyAddsUp ? "" : style.paint("  (does not add up: drinkshop check --books names the difference)", .red)) + "\n"
        if !report.unpaidOrders.isEmpty {
            out += style.paint("Unpaid: " + report.unpaidOrders.map { "#\($0)" }.joined(separator: " "), .yellow) + "\n"
        }
        if !report.unpaidHandovers.isEmpty {
            out += style.paint("Handed over unpaid (未付款取餐): " + report.unpaidHandovers.map { entry in
                "\(entry.subject) by \(entry.by) (\(entry.detail.dropFirst(AuditEntry.unpaidHandover.count).trimmingCharacters(in: .whitespaces)))"
            }.joined(separator: ", "), .yellow) + "\n"
        }
        // The first column names the row and may narrow; the rest are figures (right-aligned, kept
        // whole) except the words in `text` (reasons, details), which narrow.
        func section(_ title: String, _ columns: [String], _ rows: [[String]], text: Set<String> = []) {
            guard !rows.isEmpty else { return }
            out += "\n" + style.paint(title, .bold) + "\n"
            var table = TextTable(columns: columns.enumerated().map { column in
                column.offset == 0 || text.contains(column.element) ? .init(column.element, minWidth: 8)
                    : .init(column.element, alignment: .right)
            })
            for row in rows { table.append(row) }
            out += table.render(style: style, width: width)
        }
        // Handed over − change = taken; taken − refunded = net.
        section("By payment method", ["Method", "Payments"] + MoneyFigure.allCases.map(\.heading),
                PaymentMethod.allCases.compactMap { method in
                    report.byMethod[method].map { t in
                        [method.label, "\(t.payments)"] + MoneyFigure.allCases.map { "\(t[$0])" }
                    }
                })
        section("By staff", ["Staff", "Orders", "NT$"],
                report.byStaff.sorted { $0.key < $1.key }.map { [$0.key, "\($0.value.count)", "\($0.value.amount)"] })
        section("By hour", ["Hour", "Orders", "NT$"],
                report.byHour.sorted { $0.key < $1.key }.map { [String(format: "%02d:00", $0.key), "\($0.value.count)", "\($0.value.amount)"] })
        section("Promotions", ["Promotion", "Orders", "NT$ off"],
                report.promotions.sorted { $0.key < $1.key }.map { [$0.key, "\($0.value.count)", "\($0.value.amount)"] })
        section("Adjustments", ["Adjustment", "Count", "NT$"],
                report.adjustments.sorted { $0.key < $1.key }.map { [$0.key, "\($0.value.count)", Adjustment.signed($0.value.amount)] })
        var member: [[String]] = []
        if report.freeCups.count > 0 || report.stampsRedeemed > 0 {
            member.append(["集點兌換 free cups", "\(report.freeCups.count)", "\(report.freeCups.amount)"])
            member.append(["stamps redeemed", "\(report.stampsRedeemed)", ""])
        }
        member += report.passes.sorted { $0.key < $1.key }.map { [$0.key, "\($0.value.count)", "\($0.value.amount)"] }
        section("Stamps and passes", ["", "Count", "NT$ off"], member)
        section("Voids (作廢: voided, or cancelled and refunded)", ["Order", "Total", "Refunded", "Reason"], report.voids.map { void in
            ["#\(void.pickupNumber)", "\(void.total)",
             PaymentMethod.allCases.compactMap { m in void.refunded[m].map { "\($0) \(m.rawValue)" } }.joined(separator: ", "), void.reason]
        }, text: ["Refunded", "Reason"])
        section("Cancellations (取消)", ["Order", "Total", "Reason"], report.cancellations.map { ["#\($0.pickupNumber)", "\($0.total)", $0.reason] },
                text: ["Reason"])
        section("Drawer", ["Closed by", "Float", "Expected", "Counted", "Over/short"], counts.map {
            [$0.closedBy, "\($0.shift.float)", "\($0.expected)", "\($0.counted)", "\($0.summary) \($0.chineseSummary)"]
        })
        section("Audit trail (menu, staff, voids, closing)", ["By", "Action", "What", "Detail"], report.menuChanges.map {
            [$0.by, AuditView.label($0.action), $0.subject, $0.detail]
        }, text: ["Action", "What", "Detail"])
        return out
    }

    static func json(_ report: TillReport, period: Till.Period) -> String {
        func totals(_ rows: [String: ReportTotals]) -> String {
            "{" + rows.sorted { $0.key < $1.key }.map { "\(quote($0.key)):{\"count\":\($0.value.count),\"amount\":\($0.value.amount)}" }
                .joined(separator: ",") + "}"
        }
        let methods = PaymentMethod.allCases.compactMap { m in
            report.byMethod[m].map { t in
                "\(quote(m.rawValue)):{\"payments\":\(t.payments)," + MoneyFigure.allCases.map { "\"\($0.column)\":\(t[$0])" }.joined(separator: ",") + "}"
            }
        }.joined(separator: ",")
        let voids = report.voids.map { "{\"pickupNumber\":\($0.pickupNumber),\"total\":\($0.total),\"refunded\":\($0.refunded.values.reduce(0, +)),\"reason\":\(quote($0.reason))}" }
        let cancellations = report.cancellations.map { "{\"pickupNumber\":\($0.pickupNumber),\"total\":\($0.total),\"reason\":\(quote($0.reason))}" }
        return "{\"from\":\(quote(period.from.description)),\"to\":\(quote(period.to.description)),\"orders\":\(report.orders),\"cups\":\(report.cups),"
            + "\"grossSales\":\(report.grossSales),\"netSales\":\(report.netSales),\"byMethod\":{\(methods)},"
            + "\"byStaff\":\(totals(report.byStaff)),\"byHour\":\(totals(Dictionary(uniqueKeysWithValues: report.byHour.map { (String(format: "%02d", $0.key), $0.value) }))),"
            + "\"promotions\":\(totals(report.promotions)),\"adjustments\":\(totals(report.adjustments)),"
            + "\"freeCups\":{\"count\":\(report.freeCups.count),\"amount\":\(report.freeCups.amount)},\"stampsRedeemed\":\(report.stampsRedeemed),"
            + "\"passes\":\(totals(report.passes)),\"voids\":[\(voids.joined(separator: ","))],"
            + "\"cancellations\":[\(cancellations.joined(separator: ","))],\"unpaidOrders\":\(report.unpaidOrders)}"
    }

    private static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
