import Airtable

/// `OnlineGroup`: the group orders (揪團) of the customers' page, one record per group, so a restart of
/// `drinkshop serve` forgets none. Only the embedded store has it (the page runs on the store `serve` serves):
/// a base over the API is not asked for it, so no counter on Airtable needs `drinkshop setup` for it. Only the page writes and reads them (through `Counter`); the state is the
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

    /// The tables of the embedded store (the one that records its schema version): the shop's, and the page's groups.
    public static let embeddedTables: [TableSpec] = tables + [onlineGroup]

    /// The tables `store` must have: `embeddedTables` on the embedded store, `tables` on a base over the API.
    static func tables(of store: any RecordStore) -> [TableSpec] {
        store.schemaVersions == nil ? tables : embeddedTables
    }
}
