import DrinkShopCore
import Foundation
import LineEditor

/// The audit trail as a table (`log`).
enum AuditView {
    static func render(_ entries: [AuditEntry], label: String, timeZone: TimeZone, style: ColorPolicy) -> String {
        guard !entries.isEmpty else { return "Nothing in the audit trail for \(label).\n" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var table = TextTable(columns: [.init("When"), .init("Who"), .init("What"), .init("Order / item"),
                                        .init("Detail", maxWidth: 60)])
        for entry in entries {
            let parts = calendar.dateComponents([.month, .day, .hour, .minute], from: entry.at)
            let two = { (value: Int?) in String(format: "%02d", value ?? 0) }
            let when = "\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
            table.append([when, entry.by, AuditView.label(entry.action), entry.subject, entry.detail])
        }
        return style.paint("Audit trail \(label)", .bold) + "\n" + table.render(style: style)
            + "\(entries.count) entr\(entries.count == 1 ? "y" : "ies")\n"
    }

    /// The action as staff say it in a table (never a Swift name such as `closeDay`).
    static func label(_ action: ShopAction) -> String {
        switch action {
        case .cancelOrder: "cancel"
        case .void: "void"
        case .deleteOrder: "delete"
        case .editOrder: "edit"
        case .changeSetting: "setting"
        case .changePrice: "price"
        case .soldOut: "sold out"
        case .restock: "restock"
        case .placeOrder: "order"
        case .takePayment: "payment"
        case .redeemStamps: "redeem"
        case .sellPass: "pass"
        case .closeDay: "close"
        case .openShift: "open shift"
        case .staffChanges: "staff"
        case .managerAdjustment: "adjustment"
        case .advanceOrder: "hand over"
        case .seedMenu: "menu load"
        }
    }
}
