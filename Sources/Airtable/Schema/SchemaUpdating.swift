/// A store whose tables and fields can be renamed and described (Airtable's "update table" and
/// "update field" metadata routes). Only a name and a description change; ids, types and cells never do.
public protocol SchemaUpdating: SchemaEditing {
    /// Renames and/or describes a table (`description: ""` clears it); returns the whole table.
    func updateTable(_ table: String, _ change: SchemaChange) async throws(AirtableError) -> TableSchema
    /// Renames and/or describes a field of a table; returns the field.
    func updateField(in table: String, field: String, _ change: SchemaChange) async throws(AirtableError)
        -> FieldSchema
}

/// What an update of a table or a field changes: at least one of the two.
public struct SchemaChange: Sendable, Hashable {
    public var name: String?
    public var description: String?

    public init(name: String? = nil, description: String? = nil) {
        self.name = name
        self.description = description
    }
}
