import Airtable
/// What applying a `SchemaPlan` did.
public struct SchemaSetupResult: Sendable, Hashable {
    /// What was created, one short item each, in order.
    public var created: [String]
    /// What is still missing: empty when everything was created.
    public var remaining: SchemaPlan
    /// Why it stopped early, if it did.
    public var failure: AirtableError?

    /// Whether the store refused because the token may not change the schema (as opposed to a network
    /// or other failure): the remaining items are then for a person to create.
    public var wasRefused: Bool {
        guard let status = failure?.apiError?.status else { return false }
        return status == 401 || status == 403 || status == 404
    }
}

extension SchemaPlan {
    /// Creates the missing tables, then the missing fields, stopping at the first failure. Touches no
    /// records. Options the metadata API requires are filled in (`creatable`).
    public func apply(to store: any SchemaEditing) async -> SchemaSetupResult {
        var remaining = self
        var created: [String] = []
        do {
            for table in missingTables {
                _ = try await store.createTable(SchemaPlan.creatable(table))
                remaining.missingTables.removeFirst()
                created.append("table \(table.name)")
            }
            for addition in missingFields {
                for field in addition.fields {
                    _ = try await store.createField(in: addition.tableID, SchemaPlan.creatable(field))
                    remaining.missingFields[0].fields.removeFirst()
                    created.append("field \(addition.tableName).\(field.name)")
                }
                remaining.missingFields.removeFirst()
            }
        } catch {
            return SchemaSetupResult(created: created, remaining: remaining, failure: error)
        }
        return SchemaSetupResult(created: created, remaining: remaining, failure: nil)
    }
}
