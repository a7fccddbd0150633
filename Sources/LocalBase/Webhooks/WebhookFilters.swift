import Airtable
import Foundation

/// A webhook's specification, checked: which tables, changes and fields it watches.
struct WebhookFilters {
    var dataTypes: Set<String>
    var tableID: String?
    var changeTypes: Set<String>
    var watchedFields: Set<String>
    var previousValues: Bool

    static let knownDataTypes: Set<String> = ["tableData", "tableFields", "tableMetadata"]
    static let knownChangeTypes: Set<String> = ["add", "remove", "update"]

    init(specification: JSONValue, schema: BaseSchema) throws {
        guard let filters = specification["options"]?["filters"], filters.objectValue != nil else {
            throw APIError.invalidRequest("a webhook's specification needs options.filters")
        }
        guard let types = filters["dataTypes"]?.arrayValue?.compactMap(\.stringValue), !types.isEmpty else {
            throw APIError.invalidRequest("options.filters.dataTypes must list at least one of "
                + Self.knownDataTypes.sorted().joined(separator: ", "))
        }
        if let unknown = types.first(where: { !Self.knownDataTypes.contains($0) }) {
            throw APIError.invalidRequest("options.filters.dataTypes has an unknown type \"\(unknown)\"")
        }
        dataTypes = Set(types)
        if let scope = filters["recordChangeScope"]?.stringValue {
            guard let table = schema.table(scope), scope.hasPrefix("tbl") else {
                throw APIError.invalidRequest("options.filters.recordChangeScope \"\(scope)\" is not the id of a table of this base")
            }
            tableID = table.id
        }
        let changes = filters["changeTypes"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if let unknown = changes.first(where: { !Self.knownChangeTypes.contains($0) }) {
            throw APIError.invalidRequest("options.filters.changeTypes has an unknown type \"\(unknown)\"")
        }
        changeTypes = Set(changes)
        watchedFields = Set(filters["watchDataInFieldIds"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        previousValues = specification["options"]?["includes"]?["includePreviousCellValues"]?.boolValue ?? false
    }

    func watches(table: String, change: String, fields: Set<String>) -> Bool {
        guard dataTypes.contains("tableData") else { return false }
        if let tableID, tableID != table { return false }
        if !changeTypes.isEmpty && !changeTypes.contains(change) { return false }
        if !watchedFields.isEmpty && change == "update" && watchedFields.isDisjoint(with: fields) { return false }
        return true
    }
}
