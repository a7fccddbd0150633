/// A webhook's specification, checked against the shape Airtable documents and kept parsed:
///
/// ```
/// {"options": {"filters": {"dataTypes": ["tableData" | "tableFields" | "tableMetadata", …],   (required)
///                          "recordChangeScope": "tbl…" | "viw…",
///                          "changeTypes": ["add" | "remove" | "update", …],
///                          "fromSources": ["client" | "publicApi" | "formSubmission" | …],
///                          "sourceOptions": {"formSubmission": {"viewId"}, "formPageSubmission": {"pageId"}},
///                          "watchDataInFieldIds": ["fld…"], "watchSchemasOfFieldIds": ["fld…"]},
///              "includes": {"includeCellValuesInFieldIds": ["fld…"] | "all",
///                           "includePreviousCellValues": bool, "includePreviousFieldDefinitions": bool}}}
/// ```
///
/// Unknown keys and wrong types are refused (422 `INVALID_REQUEST_UNKNOWN`, naming the key), and the whole
/// specification is at most ``maximumBytes`` of JSON, so a base's webhooks cost a bounded amount to keep and
/// to check on every write.
public struct WebhookSpecification: Sendable, Equatable {
    public var dataTypes: Set<String>
    /// The table (or view) whose records are watched; nil: every table.
    public var recordChangeScope: String?
    /// Empty: every kind of change.
    public var changeTypes: Set<String>
    /// Empty: changes from every source.
    public var fromSources: Set<String>
    /// Empty: an update of any field.
    public var watchDataInFieldIds: Set<String>
    public var watchSchemasOfFieldIds: Set<String>
    public var includesPreviousCellValues: Bool

    /// The largest specification kept, as compact JSON: room for a few hundred field ids.
    public static let maximumBytes = 8 * 1024

    public static let dataTypeNames: Set<String> = ["tableData", "tableFields", "tableMetadata"]
    public static let changeTypeNames: Set<String> = ["add", "remove", "update"]
    public static let sourceNames: Set<String> = [
        "client", "publicApi", "formSubmission", "formPageSubmission", "automation", "system", "sync",
        "anonymousUser", "unknown",
    ]

    /// Checks `json`; throws Airtable's 422 naming what is wrong.
    public init(validating json: JSONValue) throws(APIError) {
        let size = JSONWriter.bytes(json).count
        guard size <= Self.maximumBytes else {
            throw .invalidRequest("a webhook's specification may be at most \(Self.maximumBytes) bytes of JSON, "
                + "not \(size)")
        }
        let top = try Self.object(json, at: "specification", keys: ["options"])
        guard let optionsValue = top["options"] else { throw .invalidRequest("a webhook's specification needs options") }
        let options = try Self.object(optionsValue, at: "specification.options", keys: ["filters", "includes"])
        guard let filtersValue = options["filters"] else {
            throw .invalidRequest("a webhook's specification needs options.filters")
        }
        let at = "specification.options.filters"
        let filters = try Self.object(filtersValue, at: at, keys: [
            "dataTypes", "recordChangeScope", "changeTypes", "fromSources", "sourceOptions",
            "watchDataInFieldIds", "watchSchemasOfFieldIds",
        ])
        let types = try Self.names(filters["dataTypes"], at: "\(at).dataTypes", from: Self.dataTypeNames)
        guard !types.isEmpty else {
            throw .invalidRequest("\(at).dataTypes must list at least one of "
                + Self.dataTypeNames.sorted().joined(separator: ", "))
        }
        dataTypes = types
        if let scope = filters["recordChangeScope"] {
            guard let id = scope.stringValue, id.hasPrefix("tbl") || id.hasPrefix("viw") else {
                throw .invalidRequest("\(at).recordChangeScope must be the id of a table (tbl…) or view (viw…)")
            }
            recordChangeScope = id
        }
        changeTypes = try Self.names(filters["changeTypes"], at: "\(at).changeTypes", from: Self.changeTypeNames)
        fromSources = try Self.names(filters["fromSources"], at: "\(at).fromSources", from: Self.sourceNames)
        if let sourceOptions = filters["sourceOptions"] {
            let known = try Self.object(sourceOptions, at: "\(at).sourceOptions",
                                        keys: ["formSubmission", "formPageSubmission"])
            for (key, idKey, prefix) in [("formSubmission", "viewId", "viw"), ("formPageSubmission", "pageId", "pag")] {
                guard let value = known[key] else { continue }
                let inner = try Self.object(value, at: "\(at).sourceOptions.\(key)", keys: [idKey])
                guard let id = inner[idKey]?.stringValue, id.hasPrefix(prefix) else {
                    throw .invalidRequest("\(at).sourceOptions.\(key).\(idKey) must be an id starting \(prefix)")
                }
            }
        }
        watchDataInFieldIds = try Self.fieldIDs(filters["watchDataInFieldIds"], at: "\(at).watchDataInFieldIds")
        watchSchemasOfFieldIds = try Self.fieldIDs(filters["watchSchemasOfFieldIds"], at: "\(at).watchSchemasOfFieldIds")
        includesPreviousCellValues = false
        if let includesValue = options["includes"] {
            let includesAt = "specification.options.includes"
            let includes = try Self.object(includesValue, at: includesAt, keys: [
                "includeCellValuesInFieldIds", "includePreviousCellValues", "includePreviousFieldDefinitions",
            ])
            if let cells = includes["includeCellValuesInFieldIds"], cells.stringValue != "all" {
                _ = try Self.fieldIDs(cells, at: "\(includesAt).includeCellValuesInFieldIds", orAll: true)
            }
            for key in ["includePreviousCellValues", "includePreviousFieldDefinitions"] {
                if let value = includes[key], value.boolValue == nil {
                    throw .invalidRequest("\(includesAt).\(key) must be true or false")
                }
            }
            includesPreviousCellValues = includes["includePreviousCellValues"]?.boolValue ?? false
        }
    }

    /// Whether a record change of this kind, in this table, touching these fields, from the public API
    /// (how every change of a local base is reported) makes a payload.
    public func watches(table: String, change: String, fields: Set<String>) -> Bool {
        guard dataTypes.contains("tableData") else { return false }
        if let recordChangeScope, recordChangeScope.hasPrefix("tbl"), recordChangeScope != table { return false }
        if !changeTypes.isEmpty && !changeTypes.contains(change) { return false }
        if !fromSources.isEmpty && !fromSources.contains("publicApi") { return false }
        if !watchDataInFieldIds.isEmpty && change == "update" && watchDataInFieldIds.isDisjoint(with: fields) {
            return false
        }
        return true
    }

    // MARK: - Shape checks

    private static func object(_ value: JSONValue, at path: String, keys: Set<String>) throws(APIError)
        -> [String: JSONValue]
    {
        guard let object = value.objectValue else { throw .invalidRequest("\(path) must be a JSON object") }
        if let unknown = object.keys.sorted().first(where: { !keys.contains($0) }) {
            throw .invalidRequest("\(path) has an unknown key \"\(Self.shown(unknown))\"; it takes "
                + keys.sorted().joined(separator: ", "))
        }
        return object
    }

    private static func names(_ value: JSONValue?, at path: String, from known: Set<String>) throws(APIError)
        -> Set<String>
    {
        guard let value else { return [] }
        guard let items = value.arrayValue else { throw .invalidRequest("\(path) must be a list") }
        var names: Set<String> = []
        for item in items {
            guard let name = item.stringValue, known.contains(name) else {
                throw .invalidRequest("\(path) has an unknown value \(Self.shown(JSONWriter.string(item))); it takes "
                    + known.sorted().joined(separator: ", "))
            }
            names.insert(name)
        }
        return names
    }

    private static func fieldIDs(_ value: JSONValue?, at path: String, orAll: Bool = false) throws(APIError)
        -> Set<String>
    {
        guard let value else { return [] }
        guard let items = value.arrayValue else {
            throw .invalidRequest("\(path) must be a list of field ids" + (orAll ? " or \"all\"" : ""))
        }
        var ids: Set<String> = []
        for item in items {
            guard let id = item.stringValue, id.hasPrefix("fld"), id.count <= 32 else {
                throw .invalidRequest("\(path) must list field ids (fld…), not \(Self.shown(JSONWriter.string(item)))")
            }
            ids.insert(id)
        }
        return ids
    }

    /// At most 40 characters of what the client sent, for an error message.
    private static func shown(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}
