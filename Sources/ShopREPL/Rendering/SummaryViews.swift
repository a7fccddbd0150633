import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor

enum SeedView {
    static func summary(_ report: SeedReport, path: String) -> String {
        let d = report.drinks
        let p = report.promotions
        return "Seeded \(path): drinks \(d.created) created, \(d.updated) updated, \(d.unchanged) unchanged; "
            + "promotions \(p.created) created, \(p.updated) updated, \(p.unchanged) unchanged"
            + (report.adjustments > 0 ? "; adjustments \(report.adjustments) written" : "")
            + (report.memberProgram.isEmpty ? "" : "; " + report.memberProgram.joined(separator: " and ") + " set") + "\n"
            + (report.restocked.isEmpty ? "" : "Back in stock (補貨) with the seed: " + report.restocked.joined(separator: ", ")
                + " (a file with \"keepSoldOut\": true keeps what is sold out)\n")
    }
}

enum PromotionView {
    static func render(_ promotions: [Promotion], now: Date, timeZone: TimeZone, style: ColorPolicy) -> String {
        guard !promotions.isEmpty else { return "No promotions. Add some with seed Seeds/promotions.json\n" }
        var table = TextTable(columns: [.init("Promotion"), .init("What"), .init("When"), .init("Now")])
        for promotion in promotions.sorted(by: { $0.name < $1.name }) {
            let active = promotion.isActive(at: now)
            let state: String
            if active {
                state = style.paint("active", .green)
            } else if let start = promotion.startsAt, now < start {
                state = "upcoming"
            } else {
                state = style.paint("ended", .dim)
            }
            table.append([promotion.name, promotion.summary, window(promotion, timeZone: timeZone), state])
        }
        return table.render(style: style)
    }

    private static func window(_ promotion: Promotion, timeZone: TimeZone) -> String {
        let format = { (date: Date) -> String in
            let formatter = DateFormatter()
            formatter.timeZone = timeZone
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd HH:mm"
            return formatter.string(from: date)
        }
        switch (promotion.startsAt, promotion.endsAt) {
        case (nil, nil): return "always"
        case (let start?, nil): return "from \(format(start))"
        case (nil, let end?): return "until \(format(end))"
        case (let start?, let end?): return "\(format(start)) – \(format(end))"
        }
    }
}

enum ReportView {
    /// - Parameter width: the screen's columns (nil: a pipe, every column whole).
    /// - Parameter till: the till's report of the same days: its figures (the one computation, with
    ///   adjustments and member benefits) head the report; without it (it could not be read) the orders' own.
    static func render(_ report: DailyReport, style: ColorPolicy, width: Int? = nil, till: TillReport? = nil) -> String {
        var out = style.paint("Daily report \(report.day)", .bold) + "\n"
        if let till {
            out += "Orders \(till.orders) · cups \(till.cups) · sales $\(till.grossSales)"
                + " · discounts -$\(till.promotionDiscounts + till.memberDiscounts)"
                + (till.adjustmentsTotal == 0 ? "" : " · adjustments \(till.adjustmentsTotal < 0 ? "-" : "+")$\(abs(till.adjustmentsTotal))")
                + " · revenue $\(till.netSales)\n"
        } else {
            out += "Orders \(report.orders) · cups \(report.cups) · sales $\(report.subtotal) · discounts -$\(report.discounts)"
                + " · revenue $\(report.revenue)\n"
        }
        out += "Cancelled \(report.cancelledOrders) order\(report.cancelledOrders == 1 ? "" : "s") ($\(report.cancelledAmount))"
            + " · voided \(report.voidedOrders) ($\(report.voidedAmount)); neither is revenue\n"
        // Named as the till report names them (`Order.isVoid(moneyReturned:)`).
        for (title, rows) in [("Cancellations (取消)", report.cancellations), ("Voids (作廢: voided, or cancelled and refunded)", report.voids)]
        where !rows.isEmpty {
            out += "\n" + style.paint(title, .bold) + "\n"
            var table = TextTable(columns: [.init("#", alignment: .right), .init("For", minWidth: 6),
                                            .init("Cups", alignment: .right, dropRank: 0), .init("NT$", alignment: .right),
                                            .init("Why", maxWidth: width == nil ? 50 : nil, minWidth: 10),
                                            .init("Voided by", minWidth: 6, dropRank: 1)])
            for row in rows {
                table.append([row.number, row.orderName, "\(row.cups)", "\(row.amount)", row.reason, row.voidedBy ?? ""])
            }
            out += table.render(style: style, width: width)
        }
        if !report.auditCounts.isEmpty {
            let counts = report.auditCounts.sorted { $0.key < $1.key }
                .map { "\(AuditView.label(ShopAction(rawValue: $0.key) ?? .staffChanges)) \($0.value)" }
            out += "Audit trail: " + counts.joined(separator: ", ") + " (log shows them)\n"
        }
        if report.openOrders > 0 {
            out += style.paint("\(report.openOrders) order\(report.openOrders == 1 ? " is" : "s are") still open; "
                + "close them before ending the day", .yellow) + "\n"
        }
        for (title, rows) in [("By drink", report.byDrink), ("By category", report.byCategory), ("By size", report.bySize),
                              ("Add-ons", report.addOns)] where !rows.isEmpty {
            out += "\n" + style.paint(title, .bold) + "\n"
            var table = TextTable(columns: [.init("", minWidth: 10), .init("Cups", alignment: .right),
                                            .init("NT$", alignment: .right)])
            for row in rows { table.append([row.name, "\(row.cups)", "\(row.revenue)"]) }
            out += table.render(style: style, width: width)
        }
        return out
    }
}

enum HelpView {
    static func text(topic: String?, style: ColorPolicy, width: Int? = nil) throws(CommandError) -> String {
        guard let topic else {
            var table = TextTable(columns: [.init("Command", minWidth: 16), .init("What it does", minWidth: 20)])
            for spec in CommandSpec.all where !spec.runsFromTheShell { table.append([spec.usage, spec.summary]) }
            return table.render(style: style, width: width) + "Type help <command> for details. Chinese or English options both work.\n"
        }
        guard let spec = CommandSpec.find(topic) else {
            throw CommandError(.noHelpTopic(topic))
        }
        let shell = spec.runsFromTheShell
        var out = style.paint((shell ? "drinkshop " : "") + spec.usage, .bold) + (shell ? "  (from the shell)" : "") + "\n  \(spec.summary)\n"
        for line in spec.details { out += "  \(line)\n" }
        if !spec.aliases.isEmpty { out += "  also: \(spec.aliases.joined(separator: ", "))\n" }
        return out
    }
}
