import Airtable
/// How a `ListQuery` travels: as query items on `GET …/{table}`, or, when the URL would be too long, as
/// the JSON body of `POST …/{table}/listRecords` with only `timeZone` and `userLocale` left in the
/// query (reference §2.2, §2.5).
enum ListQueryEncoding {
    /// Every parameter as query items, list parameters in Airtable's bracket form
    /// (`fields[]`, `sort[0][field]`, `recordMetadata[]`). Defaults are left out.
    static func queryItems(_ query: ListQuery) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let view = query.view { items.append(("view", view)) }
        if let pageSize = query.pageSize { items.append(("pageSize", String(pageSize))) }
        if let maxRecords = query.maxRecords { items.append(("maxRecords", String(maxRecords))) }
        if let formula = query.filterByFormula { items.append(("filterByFormula", formula)) }
        if query.cellFormat != .json { items.append(("cellFormat", query.cellFormat.rawValue)) }
        items += localeItems(query)
        if query.returnFieldsByFieldId { items.append(("returnFieldsByFieldId", "true")) }
        for field in query.fields ?? [] { items.append(("fields[]", field)) }
        for (index, key) in query.sort.enumerated() {
            items.append(("sort[\(index)][field]", key.field))
            items.append(("sort[\(index)][direction]", key.direction.rawValue))
        }
        if query.includeCommentCount { items.append(("recordMetadata[]", "commentCount")) }
        if let offset = query.offset, !offset.isEmpty { items.append(("offset", offset)) }
        return items
    }

    /// The parameters that stay in the query string even in the POST form.
    static func localeItems(_ query: ListQuery) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let zone = query.timeZone { items.append(("timeZone", zone)) }
        if let locale = query.userLocale { items.append(("userLocale", locale)) }
        return items
    }

    /// The JSON body of `POST …/listRecords`: every parameter but the two locale ones.
    static func body(_ query: ListQuery) -> JSONValue {
        var body: [String: JSONValue] = [:]
        if let view = query.view { body["view"] = .string(view) }
        if let pageSize = query.pageSize { body["pageSize"] = .int(pageSize) }
        if let maxRecords = query.maxRecords { body["maxRecords"] = .int(maxRecords) }
        if let formula = query.filterByFormula { body["filterByFormula"] = .string(formula) }
        if query.cellFormat != .json { body["cellFormat"] = .string(query.cellFormat.rawValue) }
        if query.returnFieldsByFieldId { body["returnFieldsByFieldId"] = true }
        // An empty list cannot be said in a query string, so neither form sends one.
        if let fields = query.fields, !fields.isEmpty { body["fields"] = .array(fields.map(JSONValue.string)) }
        if !query.sort.isEmpty {
            body["sort"] = .array(query.sort.map { ["field": .string($0.field), "direction": .string($0.direction.rawValue)] })
        }
        if query.includeCommentCount { body["recordMetadata"] = ["commentCount"] }
        if let offset = query.offset, !offset.isEmpty { body["offset"] = .string(offset) }
        return .object(body)
    }
}
