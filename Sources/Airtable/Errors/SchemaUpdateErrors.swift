/// The errors of Airtable's "update table" and "update field" routes for a name already in use
/// (422; the types are Airtable's, the wording says which name clashes).
extension APIError {
    /// A table renamed to the name of another table (names are unique ignoring case).
    public static func duplicateTableName(_ existing: String) -> APIError {
        APIError(status: 422, type: "DUPLICATE_TABLE_NAME",
                 message: "A table named \"\(existing)\" already exists in this base; table names must be unique")
    }

    /// A field renamed to the name of another field of its table.
    public static func duplicateFieldName(_ existing: String, table: String) -> APIError {
        APIError(status: 422, type: "DUPLICATE_OR_EMPTY_FIELD_NAME",
                 message: "Field names must be unique and not empty: table \"\(table)\" already has a field named \"\(existing)\"")
    }
}
