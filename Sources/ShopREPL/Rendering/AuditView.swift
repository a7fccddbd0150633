import DrinkShopCore
import Foundation
import LineEditor

/// The audit trail as a table (`log`).
enum AuditView {
    /// - Parameter width: the screen's columns (nil: a pipe, every column whole). When and what always
    ///   show; the detail, the subject and who narrow (the detail first, being the widest).
    static func render(_ entries: [AuditEntry], label: String, timeZone: TimeZone, style: ColorPolicy,
                       width: Int? = nil) -> String {
        guard !entries.isEmpty else { return "Nothing in the audit trail for \(label).\n" }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var table = TextTable(columns: [.init("When"), .init("Who", minWidth: 6), .init("What"),
                                        .init("Order / item", minWidth: 12),
                                        .init("Detail", maxWidth: width == nil ? 60 : nil, minWidth: 12)])
        for entry in entries {
            let parts = calendar.dateComponents([.month, .day, .hour, .minute], from: entry.at)
            let two = { (value: Int?) in String(format: "%02d", value ?? 0) }
            let when = "\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
            table.append([when, entry.by, AuditView.label(entry.action), entry.subject, entry.detail])
        }
        return style.paint("Audit trail \(label)", .bold) + "\n" + table.render(style: style, width: width)
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
        case .invoiceSetup: "e-invoice"
        }
    }
}
