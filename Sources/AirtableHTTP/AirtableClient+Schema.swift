import Airtable
/// What the metadata API said about a base: the tables and fields this program understands, and the
/// fields it skipped because their type is one it does not model (formulas, links, rollups, …).
public struct SchemaReading: Sendable, Hashable {
    /// A field whose type this program does not model.
    public struct UnsupportedField: Sendable, Hashable {
        /// The table's name.
        public var table: String
        /// The field's name.
        public var field: String
        /// The type as the API names it (`formula`, `multipleRecordLinks`, …).
        public var type: String

        public init(table: String, field: String, type: String) {
            self.table = table
            self.field = field
            self.type = type
        }
    }

    /// The tables, with the fields this program models.
    public var schema: BaseSchema
    /// The fields left out of `schema`.
    public var unsupportedFields: [UnsupportedField]

    /// Reads the `GET …/tables` answer. Airtable adds field types over time and asks clients to handle
    /// unknown ones gracefully, so such fields are set aside instead of failing the whole schema.
    public init(json: JSONValue) throws(AirtableError) {
        guard let tables = json["tables"]?.arrayValue else {
            throw .decoding("the base schema has no \"tables\" list")
        }
        var readTables: [TableSchema] = []
        var unsupported: [UnsupportedField] = []
        for table in tables {
            guard case .object(var object) = table else { throw .decoding("a table in the base schema is not an object") }
            let tableName = object["name"]?.stringValue ?? "?"
            var kept: [JSONValue] = []
            for field in object["fields"]?.arrayValue ?? [] {
                let type = field["type"]?.stringValue ?? ""
                if FieldType(rawValue: type) == nil {
                    unsupported.append(UnsupportedField(table: tableName, field: field["name"]?.stringValue ?? "?",
                                                        type: type.isEmpty ? "unknown" : type))
                } else {
                    kept.append(field)
                }
            }
            object["fields"] = .array(kept)
            readTables.append(try TableSchema(json: .object(object)))
        }
        schema = BaseSchema(tables: readTables)
        unsupportedFields = unsupported
    }
}

extension AirtableClient {
    /// The base's schema as the metadata API gives it (`GET /v0/meta/bases/{base}/tables`), with the
    /// fields of types this program does not model listed apart. Needs the `schema.bases:read` scope.
    public func readSchema() async throws(AirtableError) -> SchemaReading {
        let exchange = APIExchange(method: "GET", url: metaURL("/tables"), context: "reading the base schema",
                                   repetition: .safe)
        return try SchemaReading(json: try await perform(exchange))
    }

    /// The schema without the unsupported fields (see `readSchema`).
    public func schema() async throws(AirtableError) -> BaseSchema {
        try await readSchema().schema
    }

    /// Creates a table (`POST …/tables`); needs `schema.bases:write`.
    public func createTable(_ spec: TableSpec) async throws(AirtableError) -> TableSchema {
        let exchange = APIExchange(method: "POST", url: metaURL("/tables"), body: spec.json,
                                   context: "creating table \(spec.name)", repetition: .onlyIfNotSent)
        return try TableSchema(json: try await perform(exchange))
    }

    /// Creates a field in the table with id `table` (`POST …/tables/{table}/fields`); needs
    /// `schema.bases:write`.
    public func createField(in table: String, _ spec: FieldSpec) async throws(AirtableError) -> FieldSchema {
        let exchange = APIExchange(method: "POST", url: metaURL("/tables/" + PercentEncoding.encode(table) + "/fields"),
                                   body: spec.json, context: "creating field \(spec.name)", repetition: .onlyIfNotSent)
        return try FieldSchema(json: try await perform(exchange))
    }
}
