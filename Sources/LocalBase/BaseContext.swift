import Airtable
import Foundation

/// Everything a base's serial queue owns: the open file, the schema cache and the live list
/// iterators. Only that queue touches it, which is what makes the SQLite connection (opened without
/// SQLite's own mutex) safe, and why it may be @unchecked Sendable: it is handed to that queue only.
final class BaseContext: @unchecked Sendable {
    let file: BaseFile
    let clock: @Sendable () -> Date
    let iterators: ListIterators
    private var cached: (generation: Int64, schema: BaseSchema)?

    init(file: BaseFile, clock: @escaping @Sendable () -> Date, iteratorLifetime: Duration) {
        self.file = file
        self.clock = clock
        self.iterators = ListIterators(lifetime: iteratorLifetime)
    }

    /// The current schema, reloaded when any process has changed it since the last look.
    func schema() throws -> BaseSchema {
        let generation = try file.schemaGeneration()
        if let cached, cached.generation == generation { return cached.schema }
        // Files written before field options were completed get the same defaults on the way in.
        let schema = FieldOptionDefaults.completed(try file.loadSchema())
        cached = (generation, schema)
        return schema
    }

    /// The table with this id or exact name; an unknown one is Airtable's 403 model-not-found.
    func table(_ idOrName: String) throws -> TableSchema {
        guard let table = try schema().table(idOrName) else { throw APIError.modelNotFound }
        return table
    }

    /// Saves a changed (or new) table into the schema. Call inside a write transaction; the cache is
    /// dropped so that a rollback cannot leave an uncommitted schema behind.
    func save(_ table: TableSchema) throws {
        var schema = try schema()
        if let index = schema.tables.firstIndex(where: { $0.id == table.id }) {
            schema.tables[index] = table
        } else {
            schema.tables.append(table)
        }
        cached = nil
        try file.saveSchema(schema)
    }

    /// Now, by the injected clock, in whole milliseconds.
    func now() -> Int64 { millis(clock()) }
}
