import DrinkShop
import DrinkShopCore
import LineEditor

/// Receipts and order lists.
enum OrderView {
    static func select(_ orders: [StoredOrder], _ filter: OrdersFilter) -> [StoredOrder] {
        switch filter {
        case .all: return orders
        case .open: return orders.filter { !$0.order.status.isFinal }
        case .status(let status): return orders.filter { $0.order.status == status }
        }
    }

    /// The receipt of one order: pickup number, lines, discount and total.
    /// - Parameter reason: why an unsent order waits (`DeliveryPolicy.offlineReason`).
    /// - Parameter width: the screen's columns (nil: a pipe, every column whole).
    static func receipt(_ stored: StoredOrder, title: String, style: ColorPolicy, reason: OfflineReason? = nil,
                        width: Int? = nil) -> String {
        var out = ""
        let order = stored.order
        let why = (reason ?? .unreachable).clause
        if stored.isUnsent, order.pickupNumber == 0 {
            out += style.paint("\(title) — kept on this counter as \(stored.number?.description ?? "-"): \(why); "
                + "it gets its pickup number when it is sent", .bold, .yellow) + "\n"
        } else {
            out += style.paint("\(title) — 取餐號 #\(order.pickupNumber)", .bold, .green) + "\n"
            if stored.isUnsent { out += style.paint("not yet sent: \(why)", .yellow) + "\n" }
        }
        out += "for \(order.orderName) · placed by \(order.placedBy) · \(order.status.rawValue)\n"
        // The drink and the line's total stay; the options (and notes under them) narrow first, then
        // the unit price goes.
        var table = TextTable(columns: [
            .init("#", alignment: .right), .init("Drink", minWidth: 10), .init("Options", minWidth: 12),
            .init("Cups", alignment: .right), .init("Each", alignment: .right, dropRank: 0),
            .init("Total", alignment: .right),
        ])
        for (index, line) in order.lines.enumerated() {
            table.append(["\(index + 1)", line.drinkName, line.optionSummary, "\(line.quantity)", "$\(line.unitPrice)",
                          "$\(line.lineTotal)"])
            if let note = line.note { table.append(["", "", "note: \(note)", "", "", ""]) }
        }
        out += table.render(style: style, width: width)
        out += "Subtotal $\(order.subtotal)\n"
        if let promotion = order.promotion {
            out += style.paint("Discount -$\(order.discount) (\(promotion.name))", .yellow) + "\n"
        }
        out += style.paint("Total $\(order.total)", .bold) + "  (\(order.cupCount) cup\(order.cupCount == 1 ? "" : "s"))\n"
        return out
    }

    /// Orders as a table. An order of another business day than `day` shows its day (`6@2026-11-30`);
    /// the footer's figures are those of the rows shown, cancelled and voided ones apart.
    ///
    /// At a screen narrower than `wideScreen` the status and payment are shown in short words; the
    /// number, status, drinks, total and payment always show, the cups and then the name give way.
    /// - Parameters:
    ///   - money: each order's bill and payments by orderRef (the Paid column); empty leaves it out.
    ///   - menu: the menu now; a placed or preparing order holding what has sold out since is flagged (ask the customer).
    ///   - width: the screen's columns (nil: a pipe, every column whole).
    static func list(_ orders: [StoredOrder], filter: OrdersFilter, days: DayRange,
                     style: ColorPolicy, money: [String: OrderPayments] = [:], menu: Menu? = nil, width: Int? = nil) -> String {
        // A past day's orders are named with their day unless the list is of that one day.
        let day = days.isOneDay ? days.first : nil
        let label = days.description
        guard !orders.isEmpty else {
            switch filter {
            case .open: return "No open orders on \(label). (orders all shows finished ones)\n"
            case .all: return "No orders on \(label).\n"
            case .status(let status): return "No \(status.rawValue) orders on \(label).\n"
            }
        }
        let short = width.map { $0 < wideScreen } ?? false
        // Piped, the drinks keep the 60 columns they always had, so scripts read the same lines.
        var table = TextTable(columns: [
            .init("#", alignment: .right), .init("Status"), .init("For", minWidth: 6, dropRank: 1),
            .init("Drinks", maxWidth: width == nil ? 60 : nil, minWidth: 20),
            .init("Cups", alignment: .right, dropRank: 0), .init("Total", alignment: .right),
        ] + (money.isEmpty ? [] : [.init("Paid")]))
        for stored in orders {
            let order = stored.order
            let named = stored.businessDay == day || stored.isUnsent ? stored.number : stored.numberWithDay
            let number = stored.isForeign ? "app" : named.map { String($0.description.dropFirst()) } ?? "?"
            var status = order.isVoided ? style.paint(short ? "voided" : "作廢 voided", .red)
                : statusLabel(order.status, short: short, style: style)
            if stored.isUnsent { status += style.paint(short ? "*" : " (unsent)", .yellow) }
            // In the status column, which no width drops (the For column goes first).
            if stored.isOnline { status += style.paint(short ? " 網" : " 網路 online", .cyan) }
            let paid = money[stored.orderRef]
            var drinks = drinks(order)
            if let menu, order.status == .placed || order.status == .preparing {
                let out = order.lines.flatMap { menu.soldOutNow(in: $0) }
                if !out.isEmpty { drinks = style.paint("⚠ 售完 \(out.joined(separator: ", ")) ", .red, .bold) + drinks }
            }
            table.append([number, status, order.orderName, drinks, "\(order.cupCount)", "$\(paid?.total ?? order.total)"]
                + (money.isEmpty ? [] : [paid.map { paidLabel($0, short: short, style: style) } ?? ""]))
        }
        let kept = orders.filter { $0.order.status != .cancelled }
        let withdrawn = orders.filter { $0.order.status == .cancelled }
        var footer = figures(kept, money: money)
        if !withdrawn.isEmpty {
            footer = kept.isEmpty ? figures(withdrawn, money: money) + " cancelled or voided (not revenue)"
                : footer + "; cancelled or voided (not revenue): " + figures(withdrawn, money: money)
        }
        if short, orders.contains(where: \.isUnsent) { footer += "; * not yet sent" }
        if short, orders.contains(where: \.isOnline) { footer += "; 網 ordered online (網路點單)" }
        return table.render(style: style, width: width) + footer + "\n"
    }

    /// Below this many columns, lists use short words for status and payment ("preparing", "20 due").
    static let wideScreen = 100

    /// Count, cups and total of `orders`, each at its bill's total where the till has one.
    private static func figures(_ orders: [StoredOrder], money: [String: OrderPayments]) -> String {
        let cups = orders.reduce(0) { $0 + $1.order.cupCount }
        let total = orders.reduce(0) { $0 + (money[$1.orderRef]?.total ?? $1.order.total) }
        return "\(orders.count) order\(orders.count == 1 ? "" : "s"), \(cups) cup\(cups == 1 ? "" : "s"), $\(total)"
    }

    /// "白玉歐蕾 大杯•少冰•半糖 x2; 熟成紅茶 …"
    static func drinks(_ order: Order) -> String {
        order.lines.map { line in
            line.drinkName + " " + line.optionSummary + (line.quantity > 1 ? " x\(line.quantity)" : "")
        }.joined(separator: "; ")
    }

    static func oneLine(_ order: Order) -> String {
        "for \(order.orderName): \(drinks(order)), $\(order.total)"
    }

    /// 已付 paid / 未付 unpaid / paid 50, 20 due / refunded 70; short: paid / unpaid / 20 due / refunded.
    static func paidLabel(_ money: OrderPayments, short: Bool = false, style: ColorPolicy) -> String {
        let text: String
        switch (short, money.state) {
        case (false, _): text = "\(money.state.chineseLabel) \(money.state)"
        case (true, .partlyPaid(_, let due)): text = "\(due) due"
        case (true, .refunded): text = "refunded"
        case (true, let state): text = state.description
        }
        switch money.state {
        case .paid: return style.paint(text, .green)
        case .unpaid, .partlyPaid: return style.paint(text, .yellow)
        case .refunded: return style.paint(text, .red)
        }
    }

    private static func statusLabel(_ status: OrderStatus, short: Bool, style: ColorPolicy) -> String {
        let text = short ? status.rawValue : "\(status.chineseLabel) \(status.rawValue)"
        switch status {
        case .ready: return style.paint(text, .green, .bold)
        case .cancelled: return style.paint(text, .red)
        case .pickedUp: return style.paint(text, .dim)
        case .placed, .preparing: return text
        }
    }
}
