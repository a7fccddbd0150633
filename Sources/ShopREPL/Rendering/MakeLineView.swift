import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor

/// The make line as the bar reads it: placed and preparing orders, oldest first, each with its cups.
enum MakeLineView {
    /// The selection and what the screen says at the bottom; kept across refreshes by order number.
    struct State {
        var orders: [StoredOrder] = []
        /// The menu as last read: what of an order's lines has sold out since it was placed is flagged.
        var menu: Menu?
        var selected: OrderNumber?
        var message = ""

        /// The selected order's position, when it is still on the line (else the first order).
        var selectedIndex: Int? {
            guard !orders.isEmpty else { return nil }
            return orders.firstIndex { $0.number != nil && $0.number == selected } ?? 0
        }

        mutating func update(_ fresh: [StoredOrder]) {
            let index = selectedIndex ?? 0
            orders = fresh
            if !orders.contains(where: { $0.number == selected }) {
                // The selected order left the line (advanced to ready): the one now in its place.
                selected = orders.isEmpty ? nil : orders[min(index, orders.count - 1)].number
            }
        }

        mutating func move(by step: Int) {
            guard let index = selectedIndex else { return }
            selected = orders[max(0, min(orders.count - 1, index + step))].number
        }
    }

    /// The whole screen: a title, one block per order (the selected one marked ▶), and the keys.
    /// The body scrolls so the selected order stays in view within `rows`.
    static func screen(_ state: State, day: BusinessDay, now: Date, timeZone: TimeZone, style: ColorPolicy,
                       rows: Int = .max) -> [String] {
        let title = [style.paint("製作中 make line · \(day) · \(state.orders.count) order\(state.orders.count == 1 ? "" : "s")",
                                 .bold), ""]
        var lines: [String] = []
        var selectedRow = 0
        if state.orders.isEmpty { lines.append("Nothing to make. New orders show here as they are placed.") }
        let selected = state.selectedIndex
        for (index, stored) in state.orders.enumerated() {
            let order = stored.order
            let number = stored.number?.description ?? "app"
            if index == selected { selectedRow = lines.count }
            let marker = index == selected ? "▶ " : "  "
            let waited = max(0, Int(now.timeIntervalSince(order.createdAt) / 60))
            let head = "\(marker)\(number)\(stored.isOnline ? " 網路 online" : "") \(order.status.chineseLabel) · \(order.cupCount) cup\(order.cupCount == 1 ? "" : "s")"
                + " · for \(order.orderName) · \(clock(order.createdAt, timeZone)) (\(waited) min)"
            lines.append(index == selected ? style.paint(head, .bold, .green) : head)
            for line in order.lines { lines.append("      " + cups(line, menu: state.menu, style: style)) }
        }
        let footer = ["", state.message.isEmpty ? "↑/↓ select · Enter/space advance · q quit" : state.message]
        let room = max(1, rows - title.count - footer.count)
        if lines.count > room {
            let start = max(0, min(selectedRow - 1, lines.count - room))
            lines = Array(lines[start..<(start + room)])
        }
        return title + lines + footer
    }

    /// The make line once, for output that is not a terminal.
    static func plain(_ orders: [StoredOrder], menu: Menu? = nil, day: BusinessDay, timeZone: TimeZone) -> String {
        guard !orders.isEmpty else { return "Nothing to make on \(day).\n" }
        var out = ""
        for stored in orders {
            let order = stored.order
            out += "\(stored.number?.description ?? "app")\(stored.isOnline ? " online" : "") \(order.status.rawValue) · \(order.cupCount) cup\(order.cupCount == 1 ? "" : "s")"
                + " · for \(order.orderName) · \(clock(order.createdAt, timeZone))\n"
            for line in order.lines { out += "    " + cups(line, menu: menu, style: .plain) + "\n" }
        }
        return out
    }

    /// "2× 熟成紅茶 大杯 半糖 少冰 +白玉 · note: 分開裝", and, when `menu` says part of it has sold out since it was
    /// ordered, "⚠ 售完 sold out: 加白玉 (ask the customer 請詢問客人)".
    static func cups(_ line: OrderLine, menu: Menu? = nil, style: ColorPolicy = .plain) -> String {
        var text = "\(line.quantity)× \(line.drinkName) \(line.size.rawValue) \(line.sugar.rawValue) \(line.ice.rawValue)"
        for addOn in line.addOns { text += " +" + OrderPrintout.toppingName(addOn) }
        if let note = line.note, !note.isEmpty { text += " · note: \(note)" }
        if let out = menu?.soldOutNow(in: line), !out.isEmpty {
            text += " " + style.paint("⚠ 售完 sold out: \(out.joined(separator: ", ")) (ask the customer 請詢問客人)", .red, .bold)
        }
        return text
    }

    private static func clock(_ date: Date, _ timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }
}
