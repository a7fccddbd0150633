/// The field types this project reads and writes, by Airtable's own names.
public enum FieldType: String, Sendable, Hashable, CaseIterable {
    case singleLineText, multilineText, richText, email, url, phoneNumber
    case number, currency, percent, duration, rating
    case checkbox
    case singleSelect, multipleSelects
    case date, dateTime
    case multipleAttachments
    case autoNumber, createdTime, lastModifiedTime
    /// Links to records of another table (or the same one): an array of record ids.
    case multipleRecordLinks
    /// One or several of the base's users: `{id, email, name}` objects.
    case singleCollaborator, multipleCollaborators
    /// `{text, type?}`.
    case barcode
    /// Computed from the record's other cells (`options.formula`), or over the records a link field
    /// names (`rollup`, `multipleLookupValues`, `count`).
    case formula, rollup, multipleLookupValues, count
    /// `{label, url}`: a button, its URL computed by a formula.
    case button
    /// The user who created, or last changed, the record.
    case createdBy, lastModifiedBy

    /// Whether the store computes this field; writes to it are refused.
    public var isComputed: Bool {
        switch self {
        case .autoNumber, .createdTime, .lastModifiedTime, .formula, .rollup, .multipleLookupValues, .count, .button,
            .createdBy, .lastModifiedBy:
            return true
        default: return false
        }
    }

    /// Whether the field's cells are computed from other cells (of this record or of linked ones), so
    /// reading one needs more than the record's own row.
    public var isDerived: Bool {
        switch self {
        case .formula, .rollup, .multipleLookupValues, .count, .button: return true
        default: return false
        }
    }

    /// Whether `performUpsert.fieldsToMergeOn` may name a field of this type.
    public var canMergeOn: Bool {
        switch self {
        case .singleLineText, .multilineText, .email, .url, .phoneNumber, .number, .currency, .percent,
            .singleSelect, .multipleSelects, .date, .dateTime:
            return true
        default:
            return false
        }
    }
}

/// A field as the metadata API describes it.
public struct FieldSchema: Sendable, Hashable {
    public var id: String
    public var name: String
    public var type: FieldType
    public var description: String?
    /// The type's options as Airtable writes them (`choices`, `precision`, `dateFormat`, ...).
    public var options: JSONValue?

    public init(id: String, name: String, type: FieldType, description: String? = nil, options: JSONValue? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.description = description
        self.options = options
    }

    /// The option names of a single or multiple select field.
    public var choices: [String] {
        options?["choices"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
    }

    /// Option keys a local base keeps for a computed field that Airtable's metadata API never shows
    /// (Airtable does not report a rollup's aggregation, nor a button's label and URL formula).
    public static let storedOnlyOptionKeys: [FieldType: Set<String>] = [
        .rollup: ["formula"], .button: ["label", "url"],
    ]

    /// As the metadata API shows it.
    public var json: JSONValue {
        var object: [String: JSONValue] = ["id": .string(id), "name": .string(name), "type": .string(type.rawValue)]
        if let description { object["description"] = .string(description) }
        if let options {
            if let hidden = Self.storedOnlyOptionKeys[type], case .object(var shown) = options {
                for key in hidden { shown[key] = nil }
                if !shown.isEmpty { object["options"] = .object(shown) }
            } else {
                object["options"] = options
            }
        }
        return .object(object)
    }

    /// As a base file keeps it: every option, those the API does not show included.
    public var storedJSON: JSONValue {
        guard case .object(var object) = json else { return json }
        if let options { object["options"] = options }
        return .object(object)
    }

    public init(json: JSONValue) throws(AirtableError) {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue,
              let typeName = json["type"]?.stringValue
        else { throw .decoding("a field in the schema lacks id, name or type") }
        guard let type = FieldType(rawValue: typeName) else {
            throw .decoding("field \"\(name)\" has a type this program does not know: \(typeName)")
        }
        self.init(id: id, name: name, type: type, description: json["description"]?.stringValue,
                  options: json["options"].flatMap { $0.isNull ? nil : $0 })
    }
}

/// A view of a table: its identity as the metadata API shows it and, for a view the base's owner
/// defined (Airtable's API cannot make views), what it keeps, its order and the fields it hides.
public struct ViewSchema: Sendable, Hashable {
    public var id: String
    public var name: String
    public var type: String
    /// Only records for which this formula is true are in the view.
    public var filterByFormula: String?
    /// The view's order (field ids), used when a listing gives no `sort`.
    public var sort: [SortKey]
    /// Fields hidden in the view (ids): left out of its `visibleFieldIds`. Records listed through the
    /// view still carry them, as in Airtable.
    public var hiddenFieldIds: [String]

    public init(id: String, name: String, type: String = "grid", filterByFormula: String? = nil,
                sort: [SortKey] = [], hiddenFieldIds: [String] = []) {
        self.id = id
        self.name = name
        self.type = type
        self.filterByFormula = filterByFormula
        self.sort = sort
        self.hiddenFieldIds = hiddenFieldIds
    }

    /// As the metadata API shows it.
    public var json: JSONValue { ["id": .string(id), "name": .string(name), "type": .string(type)] }

    /// As a base file keeps it: the API's shape plus the definition (keys Airtable's API never sends).
    public var storedJSON: JSONValue {
        guard case .object(var object) = json else { return json }
        if let filterByFormula { object["filterByFormula"] = .string(filterByFormula) }
        if !sort.isEmpty {
            object["sort"] = .array(sort.map { ["field": .string($0.field), "direction": .string($0.direction.rawValue)] })
        }
        if !hiddenFieldIds.isEmpty { object["hiddenFieldIds"] = .array(hiddenFieldIds.map(JSONValue.string)) }
        return .object(object)
    }

    /// Reads `json` or `storedJSON`; nil without an id and a name.
    public init?(json view: JSONValue) {
        guard let id = view["id"]?.stringValue, let name = view["name"]?.stringValue else { return nil }
        let sort = (view["sort"]?.arrayValue ?? []).compactMap { key -> SortKey? in
            guard let field = key["field"]?.stringValue else { return nil }
            return SortKey(field: field, direction: key["direction"]?.stringValue == "desc" ? .descending : .ascending)
        }
        self.init(id: id, name: name, type: view["type"]?.stringValue ?? "grid",
                  filterByFormula: view["filterByFormula"]?.stringValue, sort: sort,
                  hiddenFieldIds: view["hiddenFieldIds"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    }
}

/// A table as the metadata API describes it.
public struct TableSchema: Sendable, Hashable {
    public var id: String
    public var name: String
    public var description: String?
    public var primaryFieldId: String
    public var fields: [FieldSchema]
    public var views: [ViewSchema]

    public init(id: String, name: String, description: String? = nil, primaryFieldId: String,
                fields: [FieldSchema], views: [ViewSchema]) {
        self.id = id
        self.name = name
        self.description = description
        self.primaryFieldId = primaryFieldId
        self.fields = fields
        self.views = views
    }

    /// The field with this name or id (names are case-sensitive, as in Airtable).
    public func field(_ nameOrID: String) -> FieldSchema? {
        fields.first { $0.id == nameOrID } ?? fields.first { $0.name == nameOrID }
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "name": .string(name), "primaryFieldId": .string(primaryFieldId),
            "fields": .array(fields.map(\.json)), "views": .array(views.map(\.json)),
        ]
        if let description { object["description"] = .string(description) }
        return .object(object)
    }

    /// As a base file keeps it: views with their definitions, fields with every option.
    public var storedJSON: JSONValue {
        guard case .object(var object) = json else { return json }
        object["fields"] = .array(fields.map(\.storedJSON))
        object["views"] = .array(views.map(\.storedJSON))
        return .object(object)
    }

    /// The view with this id or name.
    public func view(_ idOrName: String) -> ViewSchema? {
        views.first { $0.id == idOrName } ?? views.first { $0.name == idOrName }
    }

    public init(json: JSONValue) throws(AirtableError) {
        guard let id = json["id"]?.stringValue, let name = json["name"]?.stringValue else {
            throw .decoding("a table in the schema lacks id or name")
        }
        var fields: [FieldSchema] = []
        for field in json["fields"]?.arrayValue ?? [] { fields.append(try FieldSchema(json: field)) }
        let views = (json["views"]?.arrayValue ?? []).compactMap(ViewSchema.init(json:))
        self.init(id: id, name: name, description: json["description"]?.stringValue,
                  primaryFieldId: json["primaryFieldId"]?.stringValue ?? fields.first?.id ?? "",
                  fields: fields, views: views)
    }
}

/// All tables of a base.
public struct BaseSchema: Sendable, Hashable {
    public var tables: [TableSchema]

    public init(tables: [TableSchema]) { self.tables = tables }

    /// The table with this id or name. An exact name wins; otherwise the name is matched ignoring
    /// case, as Airtable matches table names in the path (its table names are unique ignoring case, so
    /// at most one table can match that way).
    public func table(_ idOrName: String) -> TableSchema? {
        if let table = tables.first(where: { $0.id == idOrName }) ?? tables.first(where: { $0.name == idOrName }) {
            return table
        }
        let folded = idOrName.lowercased()
        let matches = tables.filter { $0.name.lowercased() == folded }
        return matches.count == 1 ? matches[0] : nil
    }

    public var json: JSONValue { ["tables": .array(tables.map(\.json))] }

    /// As a base file keeps it: views with their definitions.
    public var storedJSON: JSONValue { ["tables": .array(tables.map(\.storedJSON))] }

    public init(json: JSONValue) throws(AirtableError) {
        var tables: [TableSchema] = []
        for table in json["tables"]?.arrayValue ?? [] { tables.append(try TableSchema(json: table)) }
        self.init(tables: tables)
    }
}

/// A field to create (metadata API "create field", and inside "create table").
public struct FieldSpec: Sendable, Hashable {
    public var name: String
    public var type: FieldType
    public var description: String?
    public var options: JSONValue?

    public init(name: String, type: FieldType, description: String? = nil, options: JSONValue? = nil) {
        self.name = name
        self.type = type
        self.description = description
        self.options = options
    }

    /// A single select with these options.
    public static func singleSelect(_ name: String, _ choices: [String]) -> FieldSpec {
        FieldSpec(name: name, type: .singleSelect, options: ["choices": .array(choices.map { ["name": .string($0)] })])
    }

    /// A multiple select with these options.
    public static func multipleSelects(_ name: String, _ choices: [String]) -> FieldSpec {
        FieldSpec(name: name, type: .multipleSelects,
                  options: ["choices": .array(choices.map { ["name": .string($0)] })])
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["name": .string(name), "type": .string(type.rawValue)]
        if let description { object["description"] = .string(description) }
        if let options { object["options"] = options }
        return .object(object)
    }
}

/// A table to create; its first field becomes the primary field.
public struct TableSpec: Sendable, Hashable {
    public var name: String
    public var description: String?
    public var fields: [FieldSpec]

    public init(name: String, description: String? = nil, fields: [FieldSpec]) {
        self.name = name
        self.description = description
        self.fields = fields
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = ["name": .string(name), "fields": .array(fields.map(\.json))]
        if let description { object["description"] = .string(description) }
        return .object(object)
    }
}
