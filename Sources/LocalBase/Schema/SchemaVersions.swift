import Airtable

/// The schema versions a base's owners record (`SchemaVersionKeeping`), kept in the file's metadata beside
/// the schema, one key per name. The base does not know what a version means: its owner does.
extension LocalBase: SchemaVersionKeeping {
    public func schemaVersion(named name: String) async throws(AirtableError) -> Int? {
        try await perform { try $0.file.meta(Self.schemaVersionKey(name)).flatMap { Int($0) } }
    }

    public func recordSchemaVersion(_ version: Int, named name: String) async throws(AirtableError) {
        try await perform { context in
            try context.file.connection.writeTransaction {
                try context.file.setMeta(Self.schemaVersionKey(name), String(version))
            }
        }
    }

    static func schemaVersionKey(_ name: String) -> String { "schemaVersion:" + name }
}
