import Airtable
import AirtableFormula

/// What one token reaches of the base: the one question every route asks before it touches a table or a
/// field. A table is named by the request in any spelling the store accepts (its id, its exact name, or its
/// name in another case); it is resolved here by the store's own rule (`BaseSchema.table`) BEFORE any
/// decision, so the decision is about the table the store will touch, never about the path's text.
///
/// A table kept apart (`TableScopes`) stays apart through every path to it: a field of another table that
/// links to it, looks it up, rolls it up, counts it, or computes a formula (or a button's URL) from such a
/// field is hidden from a token that may not read the table: left out of what it reads, refused where it
/// is named (`fields[]`, `sort`, `filterByFormula`, a write, `fieldsToMergeOn`, a new field that follows it),
/// and its id struck from webhook payloads. A token that may read every table reaches every field.
struct TokenReach: Sendable {
    let schema: BaseSchema
    let access: AccessTokens.Access
    let scopes: TableScopes
    /// Ids of the tables this token may not read.
    let unreadable: Set<String>
    /// Ids of the tables this token may not write.
    let unwritable: Set<String>
    /// Per table id: the fields (of a table it may read) that reach a table it may not read.
    let hiddenByTable: [String: [FieldSchema]]

    init(schema: BaseSchema, access: AccessTokens.Access, scopes: TableScopes) {
        self.schema = schema
        self.access = access
        self.scopes = scopes
        var unreadable: Set<String> = [], unwritable: Set<String> = []
        for table in schema.tables {
            if let scope = scopes.scope(for: table, writes: false), !access.allows(scope) { unreadable.insert(table.id) }
            if let scope = scopes.scope(for: table, writes: true), !access.allows(scope) { unwritable.insert(table.id) }
        }
        self.unreadable = unreadable
        self.unwritable = unwritable
        hiddenByTable = Self.hiddenFields(in: schema, unreadable: unreadable)
    }

    /// The table the store means by `idOrName`, as the store resolves it.
    func table(_ idOrName: String) -> TableSchema? { schema.table(idOrName) }

    /// Why this token may not read (or write) the table the request names, or nil when it may. A name
    /// the store does not know is left for the store to answer (not found).
    func refusal(table idOrName: String, writes: Bool) -> APIError? {
        guard let table = table(idOrName) else { return nil }
        return refusal(table: table, writes: writes)
    }

    /// A write answers with the records written, so writing a table needs its read scope as well.
    func refusal(table: TableSchema, writes: Bool) -> APIError? {
        let lacking: String?
        if unreadable.contains(table.id) {
            lacking = scopes.scope(for: table, writes: false)
        } else if writes, unwritable.contains(table.id) {
            lacking = scopes.scope(for: table, writes: true)
        } else {
            return nil
        }
        return .invalidPermissions("table \"\(table.name)\" needs the \(lacking ?? "table's") scope, which this token does not have")
    }

    /// The fields of `table` this token may not see.
    func hidden(in table: TableSchema) -> [FieldSchema] { hiddenByTable[table.id] ?? [] }

    /// Whether the token reaches every field of every table it may read (no field is hidden anywhere).
    var hidesNothing: Bool { hiddenByTable.isEmpty && unreadable.isEmpty }

    /// The hidden field `name` names (by id, exact name, or name in another case), if any.
    func hiddenField(named name: String, in table: TableSchema) -> FieldSchema? {
        let hidden = hidden(in: table)
        if hidden.isEmpty { return nil }
        let folded = name.lowercased()
        return hidden.first { $0.id == name || $0.name == name || $0.name.lowercased() == folded }
    }

    /// Refuses a request that names a hidden field of `table` (`place` says where: "fields[]", "sort", ...).
    func checkNames(_ names: some Sequence<String>, in table: TableSchema, place: String) throws(APIError) {
        for name in names {
            if let field = hiddenField(named: name, in: table) { throw refusal(field: field, in: table, place: place) }
        }
    }

    /// Refuses a formula that reads a hidden field of `table`. A formula that does not parse is left to the
    /// store, which says what is wrong with it.
    func checkFormula(_ text: String?, in table: TableSchema, place: String) throws(APIError) {
        guard let text, !hidden(in: table).isEmpty, let expression = try? Formula.parse(text) else { return }
        try checkNames(Self.fieldReferences(in: expression), in: table, place: place)
    }

    /// `fields` without the hidden ones (keyed by name or id).
    func visible(_ fields: Fields, in table: TableSchema) -> Fields {
        let hidden = hidden(in: table)
        if hidden.isEmpty { return fields }
        let keys = Set(hidden.flatMap { [$0.id, $0.name] })
        return fields.filter { !keys.contains($0.key) }
    }

    /// A new field (`spec`) for `table` that would reach a table this token may not read or write.
    func checkNewField(_ spec: FieldSpec, in table: TableSchema?) throws(APIError) {
        let options = spec.options?.objectValue ?? [:]
        switch spec.type {
        case .multipleRecordLinks:
            // A link writes its inverse into the linked table: it needs that table's read and write scopes.
            if let linked = options["linkedTableId"]?.stringValue, let target = self.table(linked),
               let refusal = refusal(table: target, writes: true) {
                throw refusal
            }
        case .multipleLookupValues, .rollup, .count:
            if let table, let link = options["recordLinkFieldId"]?.stringValue,
               let field = hiddenField(named: link, in: table) {
                throw refusal(field: field, in: table, place: "field \"\(spec.name)\"")
            }
        case .formula, .button:
            if let table {
                for key in ["formula", "url"] {
                    try checkFormula(options[key]?.stringValue, in: table, place: "field \"\(spec.name)\"")
                }
            }
        default:
            break
        }
    }

    /// Strikes the ids of unreadable tables and hidden fields from a webhook payload (wherever they are keys).
    func redacted(_ payload: JSONValue) -> JSONValue {
        let struck = unreadable.union(hiddenByTable.values.flatMap { $0.map(\.id) })
        if struck.isEmpty { return payload }
        return Self.strike(struck, from: payload)
    }

    private static func strike(_ keys: Set<String>, from value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var kept: [String: JSONValue] = [:]
            for (key, member) in object where !keys.contains(key) { kept[key] = strike(keys, from: member) }
            return .object(kept)
        case .array(let items):
            return .array(items.map { strike(keys, from: $0) })
        default:
            return value
        }
    }

    private func refusal(field: FieldSchema, in table: TableSchema, place: String) -> APIError {
        .invalidPermissions("\(place) names field \"\(field.name)\" of table \"\(table.name)\", which reaches a table "
            + "this token may not read")
    }

    /// Every field a formula names (`{name}`, `{fldX}` or a bare name).
    static func fieldReferences(in expression: FormulaExpression) -> [String] {
        switch expression {
        case .number, .text: return []
        case .field(let name): return [name]
        case .unary(_, let operand): return fieldReferences(in: operand)
        case .binary(_, let left, let right): return fieldReferences(in: left) + fieldReferences(in: right)
        case .call(_, let arguments): return arguments.flatMap(fieldReferences(in:))
        }
    }

    /// The fields that reach an unreadable table, to a fixed point: a link to one; a lookup, rollup or count
    /// following such a link or looking up such a field; a formula or button reading such a field.
    static func hiddenFields(in schema: BaseSchema, unreadable: Set<String>) -> [String: [FieldSchema]] {
        guard !unreadable.isEmpty else { return [:] }
        var hidden: Set<String> = []
        var changed = true
        while changed {
            changed = false
            for table in schema.tables where !unreadable.contains(table.id) {
                for field in table.fields where !hidden.contains(field.id) {
                    if reaches(field, in: table, schema: schema, unreadable: unreadable, hidden: hidden) {
                        hidden.insert(field.id)
                        changed = true
                    }
                }
            }
        }
        var byTable: [String: [FieldSchema]] = [:]
        for table in schema.tables where !unreadable.contains(table.id) {
            let fields = table.fields.filter { hidden.contains($0.id) }
            if !fields.isEmpty { byTable[table.id] = fields }
        }
        return byTable
    }

    private static func reaches(_ field: FieldSchema, in table: TableSchema, schema: BaseSchema, unreadable: Set<String>,
                                hidden: Set<String>) -> Bool {
        let options = field.options?.objectValue ?? [:]
        switch field.type {
        case .multipleRecordLinks:
            guard let linked = options["linkedTableId"]?.stringValue else { return false }
            return unreadable.contains(linked) || schema.table(linked).map { unreadable.contains($0.id) } == true
        case .multipleLookupValues, .rollup, .count:
            if let link = options["recordLinkFieldId"]?.stringValue, let linkField = table.field(link),
               hidden.contains(linkField.id) {
                return true
            }
            if let target = options["fieldIdInLinkedTable"]?.stringValue, hidden.contains(target) { return true }
            return false
        case .formula, .button:
            if let ids = options["referencedFieldIds"]?.arrayValue,
               ids.contains(where: { $0.stringValue.map(hidden.contains) == true }) {
                return true
            }
            for key in ["formula", "url"] {
                guard let text = options[key]?.stringValue, let expression = try? Formula.parse(text) else { continue }
                for name in fieldReferences(in: expression) {
                    if let referenced = table.field(name), hidden.contains(referenced.id) { return true }
                }
            }
            return false
        default:
            return false
        }
    }
}

extension TableScopes {
    /// The scope `table` needs to be read (`writes` false) or written, if it is kept apart: by its exact name,
    /// else by its name in another case (the store's names are unique ignoring case).
    func scope(for table: TableSchema, writes: Bool) -> String? {
        let scope = scopeByTable[table.name] ?? scopeByTable.first { $0.key.lowercased() == table.name.lowercased() }?.value
        return scope.map { "\($0):\(writes ? "write" : "read")" }
    }
}
