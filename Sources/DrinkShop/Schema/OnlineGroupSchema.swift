import Airtable

/// `OnlineGroup`: the group orders (揪團) of the customers' page, one record per group, so a restart of
/// `drinkshop serve` forgets none. Only the page writes and reads them (through `Counter`); the state is the
/// page's own JSON, holding no secret: the group's link id and the browsers' keys are there as SHA-256 digests.
public enum OnlineGroupField: String, ShopField {
    case key, state, expiresAt
}

extension ShopSchema {
    public static let onlineGroupTable = "OnlineGroup"

    public static let onlineGroup = TableSpec(name: onlineGroupTable, description: "Group orders (揪團) of the ordering page",
                                              fields: [
        FieldSpec(OnlineGroupField.key, .singleLineText, description: "SHA-256 of the group's link id (never the id)"),
        FieldSpec(OnlineGroupField.state, .multilineText, description: "The group as the page keeps it (JSON)"),
        FieldSpec(OnlineGroupField.expiresAt, .dateTime, description: "When the page forgets it", options: dateTimeOptions),
    ])
}
