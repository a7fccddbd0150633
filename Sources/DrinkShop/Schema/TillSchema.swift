import Airtable
import DrinkShopCore

/// `TillPayment`: one record per payment taken or refund given.
public enum PaymentField: String, ShopField {
    case ref, orderRef, pickupNumber, businessDay, kind, method, amount, tendered, by, at, reason
}

/// `Shift`: one record per shift at the till (交班), from the float to the counted drawer.
public enum ShiftField: String, ShopField {
    case ref, businessDay, openedBy, openedAt, float, closedBy, closedAt, expected, counted, difference
}

/// `Member`: a customer known by a mobile number, with a stamp card and a pass.
public enum MemberField: String, ShopField {
    case mobile, stamps, passName, passExpiresAt, passBenefit
}

/// `OrderTill`: what the till knows about an order beyond its lines (member, stamps spent, invoice details,
/// adjustments), one record per order keyed by the order's `orderRef`.
public enum OrderTillField: String, ShopField {
    case orderRef, businessDay, member, freeCups, stampsRedeemed, stampsAdded, invoiceKind, invoiceValue, adjustments
    /// The reward size of the free cups (the stamp card's when redeemed) and the pass used: `月卡|percentOff:10`.
    case rewardSize, pass
}

/// `Adjustment`: the counter's everyday adjustments (環保杯, 塑膠袋, 員工價), seeded like promotions.
public enum AdjustmentField: String, ShopField {
    case name, code, kind, amount, percent, needsManager
}

/// The till's tables (issue 11), declared beside the original ones in `ShopSchema.tables`.
extension ShopSchema {
    public static let paymentTable = "TillPayment"
    public static let shiftTable = "Shift"
    public static let memberTable = "Member"
    public static let orderTillTable = "OrderTill"
    public static let adjustmentTable = "Adjustment"

    public static let payment = TableSpec(name: paymentTable, description: "Payments taken and refunds given", fields: [
        FieldSpec(PaymentField.ref, .singleLineText, description: "Client-generated key (upserts)"),
        FieldSpec(PaymentField.orderRef, .singleLineText, description: "The order's orderRef in OrderDrink"),
        FieldSpec(PaymentField.pickupNumber, .number, options: money),
        FieldSpec(PaymentField.businessDay, .singleLineText, description: "The order's business day"),
        .singleSelect(PaymentField.kind.rawValue, ["payment", "refund"]),
        .singleSelect(PaymentField.method.rawValue, PaymentMethod.allCases.map(\.rawValue)),
        FieldSpec(PaymentField.amount, .number, description: "NT$ applied to the order (or given back)", options: money),
        FieldSpec(PaymentField.tendered, .number, description: "NT$ handed over (cash may exceed amount)", options: money),
        FieldSpec(PaymentField.by, .singleLineText),
        FieldSpec(PaymentField.at, .dateTime, options: dateTimeOptions),
        FieldSpec(PaymentField.reason, .singleLineText),
    ])

    public static let shift = TableSpec(name: shiftTable, description: "Shifts at the till and drawer counts", fields: [
        FieldSpec(ShiftField.ref, .singleLineText),
        FieldSpec(ShiftField.businessDay, .singleLineText),
        FieldSpec(ShiftField.openedBy, .singleLineText),
        FieldSpec(ShiftField.openedAt, .dateTime, options: dateTimeOptions),
        FieldSpec(ShiftField.float, .number, options: money),
        FieldSpec(ShiftField.closedBy, .singleLineText),
        FieldSpec(ShiftField.closedAt, .dateTime, options: dateTimeOptions),
        FieldSpec(ShiftField.expected, .number, options: money),
        FieldSpec(ShiftField.counted, .number, options: money),
        FieldSpec(ShiftField.difference, .number, description: "Counted minus expected: over > 0, short < 0",
                  options: money),
    ])

    public static let member = TableSpec(name: memberTable, description: "Members: stamp cards and passes", fields: [
        FieldSpec(MemberField.mobile, .singleLineText, description: "09 and 8 digits"),
        FieldSpec(MemberField.stamps, .number, options: money),
        FieldSpec(MemberField.passName, .singleLineText),
        FieldSpec(MemberField.passExpiresAt, .dateTime, options: dateTimeOptions),
        FieldSpec(MemberField.passBenefit, .singleLineText, description: "percentOff:10 or perCupOff:5"),
    ])

    public static let orderTill = TableSpec(name: orderTillTable, description: "The till's part of an order", fields: [
        FieldSpec(OrderTillField.orderRef, .singleLineText),
        FieldSpec(OrderTillField.businessDay, .singleLineText),
        FieldSpec(OrderTillField.member, .singleLineText),
        FieldSpec(OrderTillField.freeCups, .number, options: money),
        FieldSpec(OrderTillField.stampsRedeemed, .number, options: money),
        FieldSpec(OrderTillField.stampsAdded, .number, options: money),
        FieldSpec(OrderTillField.invoiceKind, .singleLineText),
        FieldSpec(OrderTillField.invoiceValue, .singleLineText),
        FieldSpec(OrderTillField.adjustments, .singleLineText, description: "code:count, comma-separated"),
        .singleSelect(OrderTillField.rewardSize.rawValue, CupSize.allCases.map(\.rawValue)),
        FieldSpec(OrderTillField.pass, .singleLineText, description: "name|percentOff:N or name|perCupOff:N"),
    ])

    public static let adjustment = TableSpec(name: adjustmentTable, description: "Counter adjustments", fields: [
        FieldSpec(AdjustmentField.name, .singleLineText),
        FieldSpec(AdjustmentField.code, .singleLineText),
        .singleSelect(AdjustmentField.kind.rawValue, ["perCup", "perItem", "percentOff"]),
        FieldSpec(AdjustmentField.amount, .number, options: money),
        FieldSpec(AdjustmentField.percent, .number, options: money),
        FieldSpec(AdjustmentField.needsManager, .checkbox, options: checkbox),
    ])

    static let tillTables: [TableSpec] = [payment, shift, member, orderTill, adjustment]
}
