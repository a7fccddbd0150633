import Airtable
import AirtableFormula
import Foundation

/// Everything a base's serial queue owns: the open file, the schema cache and the live list
/// iterators. Only that queue touches it, which is what makes the SQLite connection (opened without
/// SQLite's own mutex) safe, and why it may be @unchecked Sendable: it is handed to that queue only.
final class BaseContext: @unchecked Sendable {
    let file: BaseFile
    let clock: @Sendable () -> Date
    let iterators: ListIterators
    /// The name and e-mail the base's owner is made with, if the file has no users yet.
    let ownerProfile: OwnerProfile
    private var cached: (generation: Int64, schema: BaseSchema)? {
        didSet {
            positions = [:]
            layouts = [:]
        }
    }
    /// For tables of `cached`: how records written to them are answered, by id or by name (`outputLayout`).
    private var layouts: [String: RecordOutput.Layout] = [:]
    /// For tables of `cached`: each field's position by id and by name, as `TableSchema.field` finds them,
    /// and how many fields the table had.
    private var positions: [String: (count: Int, map: [String: Int])] = [:]
    /// Each webhook's specification, parsed once: a specification never changes after its webhook is made,
    /// so an id names one specification for good (entries of deleted webhooks are dropped as they are seen).
    var webhookSpecifications: [String: (json: JSONValue, parsed: WebhookSpecification)] = [:]

    init(file: BaseFile, clock: @escaping @Sendable () -> Date, iteratorLifetime: Duration, ownerProfile: OwnerProfile) {
        self.file = file
        self.clock = clock
        self.ownerProfile = ownerProfile
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

    /// Each field's position in `table` by id and by name, as `table.field(_:)` finds them: a map made once
    /// per table and schema (a write looks up every cell's field; a table has dozens of fields).
    func fieldPositions(of table: TableSchema) -> [String: Int] {
        if let known = positions[table.id], known.count == table.fields.count { return known.map }
        var map: [String: Int] = Dictionary(minimumCapacity: table.fields.count * 2)
        for (index, field) in table.fields.enumerated().reversed() { map[field.name] = index }
        for (index, field) in table.fields.enumerated() { map[field.id] = index }
        positions[table.id] = (table.fields.count, map)
        return map
    }

    /// The field of `table` with this id or name, as `table.field(_:)` finds it, by its `fieldPositions`
    /// (taken once for all the cells of a write).
    static func field(_ nameOrID: String, of table: TableSchema, positions: [String: Int]) -> FieldSchema? {
        guard let index = positions[nameOrID] else { return nil }
        // A table changed since the map was made (options added by typecast move no field) is looked
        // up the long way if the field there is not the one named.
        guard index < table.fields.count else { return table.field(nameOrID) }
        let field = table.fields[index]
        return field.id == nameOrID || field.name == nameOrID ? field : table.field(nameOrID)
    }

    /// How records of `table` (a table of the current schema) are answered with all their fields: made once
    /// per table and schema, not for every write.
    func outputLayout(of table: TableSchema, byFieldID: Bool) -> RecordOutput.Layout {
        let key = (byFieldID ? "id " : "name ") + table.id
        if let known = layouts[key] { return known }
        let layout = RecordOutput.Layout(table: table, byFieldID: byFieldID, only: nil)
        layouts[key] = layout
        return layout
    }

    /// Now, by the injected clock, in whole milliseconds.
    func now() -> Int64 { millis(clock()) }
}
