import Airtable
/// What a base lacks of the tables and fields a program needs, and what stands in the way: the input
/// of a `setup` that creates what is missing, or tells a person exactly what to create by hand.
public struct SchemaPlan: Sendable, Hashable {
    /// Fields to add to a table that exists.
    public struct FieldAdditions: Sendable, Hashable {
        /// The table's name and id.
        public var tableName: String
        public var tableID: String
        /// The fields to add, in order.
        public var fields: [FieldSpec]
    }

    /// Tables to create whole.
    public var missingTables: [TableSpec]
    /// Fields to add to existing tables.
    public var missingFields: [FieldAdditions]
    /// Existing fields that are not what is wanted (another type, another letter case); creating the
    /// wanted field would clash, so a person has to decide. One line each.
    public var conflicts: [String]

    /// Compares `wanted` with what the base has.
    public init(wanted: [TableSpec], reading: SchemaReading) {
        missingTables = []
        missingFields = []
        conflicts = []
        for spec in wanted {
            guard let table = reading.schema.tables.first(where: { $0.name == spec.name }) else {
                if let other = reading.schema.tables.first(where: { $0.name.lowercased() == spec.name.lowercased() }) {
                    conflicts.append("table \"\(other.name)\" should be named \"\(spec.name)\" (names are case-sensitive)")
                } else {
                    missingTables.append(spec)
                }
                continue
            }
            var additions: [FieldSpec] = []
            for field in spec.fields {
                if let existing = table.fields.first(where: { $0.name == field.name }) {
                    if existing.type != field.type {
                        conflicts.append("field \(spec.name).\(field.name) is \(existing.type.rawValue); "
                            + "it should be \(field.type.rawValue)")
                    }
                } else if let odd = reading.unsupportedFields.first(where: { $0.table == spec.name && $0.field == field.name }) {
                    conflicts.append("field \(spec.name).\(field.name) is \(odd.type); it should be \(field.type.rawValue)")
                } else if let other = table.fields.first(where: { $0.name.lowercased() == field.name.lowercased() }) {
                    conflicts.append("field \(spec.name).\(other.name) should be named \"\(field.name)\" "
                        + "(names are case-sensitive)")
                } else {
                    additions.append(field)
                }
            }
            if !additions.isEmpty {
                missingFields.append(FieldAdditions(tableName: table.name, tableID: table.id, fields: additions))
            }
        }
    }

    /// Whether nothing is missing (conflicts may remain).
    public var isComplete: Bool { missingTables.isEmpty && missingFields.isEmpty }

    /// What is missing, one short item each: `table Drink`, `field OrderDrink.ref (singleLineText)`.
    public var missingItems: [String] {
        missingTables.map { "table \($0.name)" }
            + missingFields.flatMap { addition in
                addition.fields.map { "field \(addition.tableName).\($0.name) (\($0.type.rawValue))" }
            }
    }

    /// `spec` with the options Airtable's metadata API insists on filled in where the spec leaves them
    /// out: a checkbox needs an icon and a colour, a number its precision.
    public static func creatable(_ spec: FieldSpec) -> FieldSpec {
        var spec = spec
        var options = spec.options?.objectValue ?? [:]
        switch spec.type {
        case .checkbox:
            if options["icon"] == nil { options["icon"] = "check" }
            if options["color"] == nil { options["color"] = "greenBright" }
        case .number, .percent:
            if options["precision"] == nil { options["precision"] = 0 }
        case .currency:
            if options["precision"] == nil { options["precision"] = 0 }
            if options["symbol"] == nil { options["symbol"] = "$" }
        default:
            return spec
        }
        spec.options = .object(options)
        return spec
    }

    /// The table spec with every field made creatable.
    public static func creatable(_ spec: TableSpec) -> TableSpec {
        var spec = spec
        spec.fields = spec.fields.map(creatable)
        return spec
    }
}
