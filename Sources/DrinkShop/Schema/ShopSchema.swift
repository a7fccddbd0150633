import Airtable
import DrinkShopCore

/// The tables the shop keeps, with the KEBUKE app's field names (reference domain.md §2.1, §2.2) and the
/// shop's additions beside them. `setup` and the embedded store create exactly these.
public enum ShopSchema {
    public static let drinkTable = "Drink"
    public static let orderTable = "OrderDrink"
    public static let userTable = "User"
    public static let promotionTable = "Promotion"
    /// One record per pickup number claimed on a business day; see `PickupNumbers`.
    public static let ticketTable = "PickupTicket"

    /// One record per letter a counter claimed for its kept orders (`A-P1`); see `CounterLetters`.
    public static let counterLetterTable = "CounterLetter"

    /// The audit trail: cancels, voids, deletes, edits, menu and setting changes; see `AuditTrail`.
    public static let auditTable = "AuditLog"
    /// The store's shared settings (time zone, business-day start); see `ShopSettings`.
    public static let settingTable = "Setting"

    /// The key fields `drinkshop serve` keeps unique (`UniqueKeys`, said in its header): a pickup number's ticket
    /// (`PickupNumbers.claimKept`), an invoice book's and an e-invoice's number, a proof's original print, and a payment's or refund's key
    /// (`Till.payOverTheAPI`: two payments worked out from one state of an order's ledger share a key, so the
    /// server takes one of them). A payment is taken only under its key: a counter older than the key, whose payment
    /// beside a keyed one could be a second payment of one bill, is refused and told to update.
    public static let keptUnique = UniqueKeys([ticketTable: TicketField.key.rawValue,
                                               invoiceBookTable: InvoiceBookField.key.rawValue,
                                               einvoiceTable: EInvoiceField.number.rawValue,
                                               proofPrintTable: ProofPrintField.key.rawValue,
                                               paymentTable: PaymentField.ref.rawValue],
                                              keyedKinds: KeyedKinds([paymentTable: KeyedKinds.Rule(
                                                  kindField: PaymentField.kind.rawValue, kind: MoneyRecord.Kind.payment.rawValue,
                                                  basisField: PaymentField.orderRef.rawValue, refusal: unkeyedPayment)]))

    /// The rules `drinkshop serve` checks inside a create's commit (`CreateGuard`, said in its header): no payment for
    /// a cancelled order (`CancelledOrderGuard`).
    public static let createGuards: [any CreateGuard] = [CancelledOrderGuard()]

    /// The refusal of a payment from a counter older than the payment key (`keptUnique`).
    static let unkeyedPayment = "This counter's drinkshop is older than the server: it takes payments without the key "
        + "that keeps one payment per bill. Update drinkshop at this counter, then take the payment again "
        + "(此櫃台程式版本過舊，請更新後再收款)"

    static let money = JSONValue.object(["precision": 0])
    /// Airtable's metadata API wants an icon and a colour for every checkbox.
    static let checkbox: JSONValue = ["icon": "check", "color": "greenBright"]

    public static let drink = TableSpec(name: drinkTable, description: "The menu", fields: [
        FieldSpec(DrinkField.name, .singleLineText),
        FieldSpec(DrinkField.englishName, .singleLineText),
        FieldSpec(DrinkField.description, .multilineText),
        .singleSelect(DrinkField.category.rawValue, DrinkCategory.allCases.map(\.rawValue)),
        FieldSpec(DrinkField.medium, .number, description: "NT$ for a 中杯", options: money),
        FieldSpec(DrinkField.large, .number, description: "NT$ for a 大杯; empty for one-size drinks", options: money),
        FieldSpec(DrinkField.image, .multipleAttachments),
        FieldSpec(DrinkField.hotAvailable, .checkbox, description: "Can be served 溫 or 熱", options: checkbox),
        FieldSpec(DrinkField.soldOut, .checkbox, options: checkbox),
        FieldSpec(DrinkField.contains, .multilineText, description: "Ingredients, one a line: when one is sold out, so is the drink"),
    ])

    public static let order = TableSpec(name: orderTable, description: "One record per order line", fields: [
        FieldSpec(OrderField.drinkName, .singleLineText),
        .singleSelect(OrderField.size.rawValue, CupSize.allCases.map(\.rawValue)),
        .singleSelect(OrderField.ice.rawValue, IceLevel.allCases.map(\.rawValue)),
        .singleSelect(OrderField.sugar.rawValue, SugarLevel.allCases.map(\.rawValue)),
        .multipleSelects(OrderField.addOns.rawValue, AddOn.allCases.map(\.rawValue)),
        FieldSpec(OrderField.price, .number, description: "Line total before any discount", options: money),
        FieldSpec(OrderField.orderName, .singleLineText, description: "Who the order is for"),
        FieldSpec(OrderField.numberOfCups, .number, options: money),
        FieldSpec(OrderField.imageUrl, .url),
        .singleSelect(OrderField.status.rawValue, OrderStatus.allCases.map(\.rawValue)),
        FieldSpec(OrderField.pickupNumber, .number, options: money),
        FieldSpec(OrderField.businessDay, .singleLineText, description: "YYYY-MM-DD in the shop's time zone"),
        FieldSpec(OrderField.orderRef, .singleLineText, description: "Shared by the lines of one order"),
        FieldSpec(OrderField.ref, .singleLineText, description: "Client-generated key of the line (upserts)"),
        FieldSpec(OrderField.line, .number, options: money),
        FieldSpec(OrderField.unitPrice, .number, options: money),
        FieldSpec(OrderField.discount, .number, description: "This line's share of the order discount",
                  options: money),
        FieldSpec(OrderField.promotion, .singleLineText),
        FieldSpec(OrderField.note, .multilineText),
        FieldSpec(OrderField.placedBy, .singleLineText),
        FieldSpec(OrderField.cancelReason, .singleLineText),
        FieldSpec(OrderField.voidedBy, .singleLineText, description: "Who voided the order (made, then not sold)"),
        FieldSpec(OrderField.preparingAt, .dateTime, description: "When the order started being made", options: dateTimeOptions),
        FieldSpec(OrderField.readyAt, .dateTime, description: "When the order was ready", options: dateTimeOptions),
        FieldSpec(OrderField.pickedUpAt, .dateTime, description: "When the order was picked up", options: dateTimeOptions),
        FieldSpec(OrderField.paid, .number, description: "NT$ paid for the order (the till's copy of TillPayment)",
                  options: money),
        FieldSpec(OrderField.refunded, .number, description: "NT$ refunded for the order", options: money),
        FieldSpec(OrderField.paidBy, .singleLineText, description: "NT$ paid by method: cash:100,linePay:20"),
        FieldSpec(OrderField.refundedBy, .singleLineText, description: "NT$ refunded by method: cash:100"),
        FieldSpec(OrderField.bill, .number, description: "The bill when the till's adjustments or member benefits change it",
                  options: money),
        FieldSpec(OrderField.audit, .multilineText, description: "The order's audit entries (edit, cancel, void), one JSON object a line"),
        FieldSpec(OrderField.provisionalNumber, .number,
                  description: "The P number a counter gave the order while the store was away (P1 → 47 on the pickup screen)",
                  options: money),
        FieldSpec(OrderField.provisionalCounter, .singleLineText,
                  description: "The letter of the counter that gave the P number (A for A-P1)"),
    ])

    public static let user = TableSpec(name: userTable, description: "Staff and customers", fields: [
        FieldSpec(UserField.name, .singleLineText),
        .singleSelect(UserField.role.rawValue, UserRole.allCases.map(\.rawValue)),
        .singleSelect(UserField.staffRole.rawValue, StaffRole.allCases.map(\.rawValue)),
        FieldSpec(UserField.pinHash, .singleLineText, description: "PBKDF2-SHA256 hash of the PIN; never the PIN"),
        FieldSpec(UserField.failedLogins, .number, options: money),
        FieldSpec(UserField.lockedUntil, .dateTime, options: dateTimeOptions),
    ])

    public static let promotion = TableSpec(name: promotionTable, description: "Promotions and banners", fields: [
        FieldSpec(PromotionField.name, .singleLineText),
        .singleSelect(PromotionField.kind.rawValue, PromotionRecord.kindCodes),
        FieldSpec(PromotionField.percent, .number, options: money),
        .singleSelect(PromotionField.category.rawValue, DrinkCategory.allCases.map(\.rawValue)),
        FieldSpec(PromotionField.drink, .singleLineText),
        FieldSpec(PromotionField.startsAt, .dateTime, options: dateTimeOptions),
        FieldSpec(PromotionField.endsAt, .dateTime, options: dateTimeOptions),
        FieldSpec(PromotionField.banner, .singleLineText),
    ])

    public static let ticket = TableSpec(name: ticketTable, description: "Claimed pickup numbers", fields: [
        FieldSpec(TicketField.key, .singleLineText, description: "businessDay#number"),
        FieldSpec(TicketField.businessDay, .singleLineText),
        FieldSpec(TicketField.number, .number, options: money),
    ])

    public static let counterLetter = TableSpec(name: counterLetterTable,
                                                description: "The letter each counter puts before its kept orders' P numbers (A-P1)",
                                                fields: [
        FieldSpec(CounterLetterField.letter, .singleLineText),
        FieldSpec(CounterLetterField.number, .number, description: "1 for A, 2 for B…: the earliest claim of a number holds",
                  options: money),
        FieldSpec(CounterLetterField.counter, .singleLineText, description: "Where that counter keeps its outbox"),
    ])

    public static let audit = TableSpec(name: auditTable, description: "Who did what to what, and when", fields: [
        FieldSpec(AuditField.at, .dateTime, options: instantOptions),
        FieldSpec(AuditField.by, .singleLineText, description: "Who did it"),
        FieldSpec(AuditField.action, .singleLineText, description: "cancelOrder, void, deleteOrder, editOrder, …"),
        FieldSpec(AuditField.subject, .singleLineText, description: "What it was done to: #12, a drink, a setting"),
        FieldSpec(AuditField.detail, .multilineText, description: "What changed, or the reason"),
        FieldSpec(AuditField.businessDay, .singleLineText, description: "YYYY-MM-DD in the shop's time zone"),
        FieldSpec(AuditField.key, .singleLineText, description: "Made by the writer (upserts: never recorded twice)"),
    ])

    public static let setting = TableSpec(name: settingTable, description: "Settings every counter shares", fields: [
        FieldSpec(SettingField.key, .singleLineText, description: "timeZone, dayStarts"),
        FieldSpec(SettingField.value, .singleLineText),
    ])

    /// Instants to the second, in UTC.
    private static let instantOptions: JSONValue = [
        "timeZone": "utc", "dateFormat": ["name": "iso", "format": "YYYY-MM-DD"],
        "timeFormat": ["name": "24hour", "format": "HH:mm"],
    ]

    static let dateTimeOptions: JSONValue = [
        "timeZone": "client", "dateFormat": ["name": "iso", "format": "YYYY-MM-DD"],
        "timeFormat": ["name": "24hour", "format": "HH:mm"],
    ]

    /// Every table, in the order `setup` creates them.
    public static let tables: [TableSpec] = [drink, order, user, promotion, ticket, audit, setting] + tillTables
        + [counterLetter] + einvoiceTables
}
