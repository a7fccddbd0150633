import Airtable

/// Reads the list-records parameters in every spelling clients use (reference §12.2): `fields[]`,
/// `fields` and `fields[N]`; `sort[N][field|direction]` in any key order; booleans as true/false/1/0;
/// `limit` as the legacy page size; an empty `offset`.
enum ListParameters {
    /// A `ListQuery` from a GET query string; unknown parameters are refused.
    static func fromQuery(_ query: QueryString) throws(APIError) -> ListQuery {
        var list = ListQuery()
        var fields: [(index: Int, name: String)] = []
        var sortFields: [Int: String] = [:]
        var sortDirections: [Int: String] = [:]
        var order = 0
        for (name, value) in query.items {
            order += 1
            switch name {
            case "fields[]", "fields": fields.append((Int.max / 2 + order, value))
            case "pageSize", "limit": list.pageSize = try pageSize(value)
            case "maxRecords": list.maxRecords = try maxRecords(value)
            case "offset": list.offset = value.isEmpty ? nil : value
            case "view": list.view = value.isEmpty ? nil : value
            case "filterByFormula": list.filterByFormula = value.isEmpty ? nil : value
            case "cellFormat": list.cellFormat = try cellFormat(value)
            case "timeZone": list.timeZone = value
            case "userLocale": list.userLocale = value
            case "returnFieldsByFieldId": list.returnFieldsByFieldId = try parseQueryBool(value, name: name)
            case "recordMetadata[]", "recordMetadata": list.includeCommentCount = try recordMetadata(value)
            case "method":
                // airtable.js leaves its own `select({method: 'get'})` option in the query.
                guard value == "get" || value == "post" else {
                    throw .invalidRequest("method must be \"get\" or \"post\", not \"\(value)\"")
                }
            default:
                if let index = bracketIndex(name, prefix: "fields") {
                    fields.append((index, value))
                } else if let (index, key) = sortKey(name) {
                    switch key {
                    case "field": sortFields[index] = value
                    case "direction": sortDirections[index] = value
                    default: throw .invalidRequest("unknown sort key \"\(key)\" in \(name)")
                    }
                } else if name.hasPrefix("recordMetadata[") {
                    list.includeCommentCount = try recordMetadata(value)
                } else {
                    throw .invalidRequest("unknown query parameter \"\(name)\"")
                }
            }
        }
        if !fields.isEmpty { list.fields = fields.sorted { $0.index < $1.index }.map(\.name) }
        list.sort = try sortKeys(fields: sortFields, directions: sortDirections)
        return list
    }

    /// A `ListQuery` from the JSON body of `POST .../listRecords`; `timeZone` and `userLocale` come from
    /// the query string (as Airtable requires); unknown body keys such as airtable.js' `method` are ignored.
    static func fromBody(_ body: JSONValue, query: QueryString) throws(APIError) -> ListQuery {
        guard case .object(let object) = body else { throw .invalidRequest("the listRecords body must be a JSON object") }
        var list = ListQuery()
        for (name, value) in query.items {
            switch name {
            case "timeZone": list.timeZone = value
            case "userLocale": list.userLocale = value
            default: throw .invalidRequest("query parameter \"\(name)\" belongs in the listRecords body")
            }
        }
        if let value = object["pageSize"], !value.isNull { list.pageSize = try pageSize(value) }
        if let value = object["maxRecords"], !value.isNull { list.maxRecords = try maxRecords(value) }
        if let value = object["offset"], !value.isNull {
            guard let text = value.stringValue else { throw .invalidOffset(JSONWriter.string(value)) }
            list.offset = text.isEmpty ? nil : text
        }
        if let value = object["view"], !value.isNull { list.view = try string(value, "view") }
        if let value = object["filterByFormula"], !value.isNull {
            let formula = try string(value, "filterByFormula")
            list.filterByFormula = formula.isEmpty ? nil : formula
        }
        if let value = object["cellFormat"], !value.isNull { list.cellFormat = try cellFormat(string(value, "cellFormat")) }
        if let value = object["returnFieldsByFieldId"], !value.isNull {
            guard let flag = value.boolValue else { throw .invalidRequest("returnFieldsByFieldId must be a boolean") }
            list.returnFieldsByFieldId = flag
        }
        if let value = object["fields"], !value.isNull {
            guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
                throw .invalidRequest("fields must be an array of field names or ids")
            }
            list.fields = names
        }
        if let value = object["recordMetadata"], !value.isNull {
            guard let items = value.arrayValue else { throw .invalidRequest("recordMetadata must be an array") }
            for item in items { list.includeCommentCount = try recordMetadata(item.stringValue ?? "") }
        }
        if let value = object["sort"], !value.isNull {
            guard let items = value.arrayValue else { throw .invalidRequest("sort must be an array of {field, direction}") }
            var keys: [SortKey] = []
            for item in items {
                guard let field = item["field"]?.stringValue else {
                    throw .invalidRequest("each sort entry needs a \"field\"")
                }
                keys.append(SortKey(field: field, direction: try direction(item["direction"]?.stringValue)))
            }
            list.sort = keys
        }
        return list
    }

    // MARK: - Values

    private static func pageSize(_ text: String) throws(APIError) -> Int {
        guard let size = Int(text), (0...100).contains(size) else { throw .invalidPageSize }
        return size
    }

    private static func pageSize(_ value: JSONValue) throws(APIError) -> Int {
        guard let size = value.intValue, (0...100).contains(size) else { throw .invalidPageSize }
        return size
    }

    private static func maxRecords(_ text: String) throws(APIError) -> Int {
        guard let count = Int(text), count >= 0 else {
            throw .invalidRequest("maxRecords must be a whole number of 0 or more, not \"\(text)\"")
        }
        return count
    }

    private static func maxRecords(_ value: JSONValue) throws(APIError) -> Int {
        guard let count = value.intValue, count >= 0 else {
            throw .invalidRequest("maxRecords must be a whole number of 0 or more")
        }
        return count
    }

    private static func cellFormat(_ text: String) throws(APIError) -> CellFormat {
        guard let format = CellFormat(rawValue: text) else {
            throw .invalidRequest("cellFormat must be \"json\" or \"string\", not \"\(text)\"")
        }
        return format
    }

    private static func recordMetadata(_ text: String) throws(APIError) -> Bool {
        guard text == "commentCount" else {
            throw .invalidRequest("recordMetadata may only ask for \"commentCount\", not \"\(text)\"")
        }
        return true
    }

    private static func direction(_ text: String?) throws(APIError) -> SortKey.Direction {
        guard let text else { return .ascending }
        guard let direction = SortKey.Direction(rawValue: text.lowercased()) else {
            throw .invalidRequest("sort direction must be \"asc\" or \"desc\", not \"\(text)\"")
        }
        return direction
    }

    private static func string(_ value: JSONValue, _ name: String) throws(APIError) -> String {
        guard let text = value.stringValue else { throw .invalidRequest("\(name) must be a string") }
        return text
    }

    private static func sortKeys(fields: [Int: String], directions: [Int: String]) throws(APIError) -> [SortKey] {
        for index in directions.keys where fields[index] == nil {
            throw .invalidRequest("sort[\(index)] has a direction but no field")
        }
        var keys: [SortKey] = []
        for index in fields.keys.sorted() {
            keys.append(SortKey(field: fields[index] ?? "", direction: try direction(directions[index])))
        }
        return keys
    }

    /// `fields[3]` -> 3.
    private static func bracketIndex(_ name: String, prefix: String) -> Int? {
        guard name.hasPrefix(prefix + "["), name.hasSuffix("]") else { return nil }
        return Int(name.dropFirst(prefix.count + 1).dropLast())
    }

    /// `sort[0][field]` -> (0, "field").
    private static func sortKey(_ name: String) -> (Int, String)? {
        guard name.hasPrefix("sort["), let close = name.firstIndex(of: "]") else { return nil }
        let indexText = name[name.index(name.startIndex, offsetBy: 5)..<close]
        let rest = name[name.index(after: close)...]
        guard let index = Int(indexText), rest.hasPrefix("["), rest.hasSuffix("]"), rest.count > 2 else { return nil }
        return (index, String(rest.dropFirst().dropLast()))
    }
}
