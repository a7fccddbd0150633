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

    private static let money = JSONValue.object(["precision": 0])
    /// Airtable's metadata API wants an icon and a colour for every checkbox.
    private static let checkbox: JSONValue = ["icon": "check", "color": "greenBright"]

    public static let drink = TableSpec(name: drinkTable, description: "The menu", fields: [
        FieldSpec(name: "name", type: .singleLineText),
        FieldSpec(name: "englishName", type: .singleLineText),
        FieldSpec(name: "description", type: .multilineText),
        .singleSelect("category", DrinkCategory.allCases.map(\.rawValue)),
        FieldSpec(name: "medium", type: .number, description: "NT$ for a 中杯", options: money),
        FieldSpec(name: "large", type: .number, description: "NT$ for a 大杯; empty for one-size drinks", options: money),
        FieldSpec(name: "image", type: .multipleAttachments),
        FieldSpec(name: "hotAvailable", type: .checkbox, description: "Can be served 溫 or 熱", options: checkbox),
        FieldSpec(name: "soldOut", type: .checkbox, options: checkbox),
    ])

    public static let order = TableSpec(name: orderTable, description: "One record per order line", fields: [
        FieldSpec(name: "drinkName", type: .singleLineText),
        .singleSelect("size", CupSize.allCases.map(\.rawValue)),
        .singleSelect("ice", IceLevel.allCases.map(\.rawValue)),
        .singleSelect("sugar", SugarLevel.allCases.map(\.rawValue)),
        .multipleSelects("addOns", AddOn.allCases.map(\.rawValue)),
        FieldSpec(name: "price", type: .number, description: "Line total before any discount", options: money),
        FieldSpec(name: "orderName", type: .singleLineText, description: "Who the order is for"),
        FieldSpec(name: "numberOfCups", type: .number, options: money),
        FieldSpec(name: "imageUrl", type: .url),
        .singleSelect("status", OrderStatus.allCases.map(\.rawValue)),
        FieldSpec(name: "pickupNumber", type: .number, options: money),
        FieldSpec(name: "businessDay", type: .singleLineText, description: "YYYY-MM-DD in the shop's time zone"),
        FieldSpec(name: "orderRef", type: .singleLineText, description: "Shared by the lines of one order"),
        FieldSpec(name: "ref", type: .singleLineText, description: "Client-generated key of the line (upserts)"),
        FieldSpec(name: "line", type: .number, options: money),
        FieldSpec(name: "unitPrice", type: .number, options: money),
        FieldSpec(name: "discount", type: .number, description: "This line's share of the order discount",
                  options: money),
        FieldSpec(name: "promotion", type: .singleLineText),
        FieldSpec(name: "note", type: .multilineText),
        FieldSpec(name: "placedBy", type: .singleLineText),
        FieldSpec(name: "cancelReason", type: .singleLineText),
    ])

    public static let user = TableSpec(name: userTable, description: "Staff and customers", fields: [
        FieldSpec(name: "name", type: .singleLineText),
        .singleSelect("role", UserRole.allCases.map(\.rawValue)),
    ])

    public static let promotion = TableSpec(name: promotionTable, description: "Promotions and banners", fields: [
        FieldSpec(name: "name", type: .singleLineText),
        .singleSelect("kind", PromotionRecord.kindCodes),
        FieldSpec(name: "percent", type: .number, options: money),
        .singleSelect("category", DrinkCategory.allCases.map(\.rawValue)),
        FieldSpec(name: "drink", type: .singleLineText),
        FieldSpec(name: "startsAt", type: .dateTime, options: dateTimeOptions),
        FieldSpec(name: "endsAt", type: .dateTime, options: dateTimeOptions),
        FieldSpec(name: "banner", type: .singleLineText),
    ])

    public static let ticket = TableSpec(name: ticketTable, description: "Claimed pickup numbers", fields: [
        FieldSpec(name: "key", type: .singleLineText, description: "businessDay#number"),
        FieldSpec(name: "businessDay", type: .singleLineText),
        FieldSpec(name: "number", type: .number, options: money),
    ])

    private static let dateTimeOptions: JSONValue = [
        "timeZone": "client", "dateFormat": ["name": "iso", "format": "YYYY-MM-DD"],
        "timeFormat": ["name": "24hour", "format": "HH:mm"],
    ]

    /// Every table, in the order `setup` creates them.
    public static let tables: [TableSpec] = [drink, order, user, promotion, ticket]
}
