import Airtable

/// The metadata API routes `drinkshop setup` and pyairtable's `table.schema()` use.
extension AirtableAPI {
    func whoami(access: AccessTokens.Access) -> APIResponse {
        // Airtable's scopes as before, then the table scopes the token holds.
        let airtable = ["data.records:read", "schema.bases:read", "data.records:write", "schema.bases:write",
                        "data.recordComments:read", "data.recordComments:write", "webhook:manage"].filter(access.allows)
        let tables = access.isFull ? tableScopes.scopeNames.sorted() : access.scopes.subtracting(airtable).sorted()
        return .json(["id": .string(userID), "email": .string(user.email), "scopes": .array((airtable + tables).map { .string($0) })])
    }

    func tableSchemas(query: QueryString) async throws -> APIResponse {
        var visibleFieldIDs = false
        for (name, value) in query.items {
            guard name == "include" || name == "include[]", value == "visibleFieldIds" else {
                throw APIError.invalidRequest("unknown query parameter \"\(name)=\(value)\"")
            }
            visibleFieldIDs = true
        }
        let schema = try await store.schema()
        let tables: [JSONValue] = schema.tables.map { table in
            guard visibleFieldIDs, case .object(var object) = table.json else { return table.json }
            object["views"] = .array(table.views.map { view in
                guard case .object(var viewObject) = view.json else { return view.json }
                let hidden = Set(view.hiddenFieldIds)
                // The primary field is never hidden in Airtable.
                viewObject["visibleFieldIds"] = .array(table.fields
                    .filter { !hidden.contains($0.id) || $0.id == table.primaryFieldId }.map { .string($0.id) })
                return .object(viewObject)
            })
            return .object(object)
        }
        return .json(["tables": .array(tables)])
    }

    func createTable(body: [UInt8], reach: TokenReach?) async throws -> APIResponse {
        guard let editor = store as? any SchemaEditing else { throw APIError.invalidPermissions }
        let json = try parseBody(body, emptyAs: [:])
        guard let name = json["name"]?.stringValue, !name.isEmpty else {
            throw APIError.invalidRequest("a table needs a \"name\"")
        }
        try TextRules.check(name, as: .tableName)
        let description = json["description"]?.stringValue
        if let description { try TextRules.check(description, as: .description) }
        guard let fieldList = json["fields"]?.arrayValue, !fieldList.isEmpty else {
            throw APIError.invalidRequest("a table needs at least one field in \"fields\"")
        }
        var fields: [FieldSpec] = []
        for (index, field) in fieldList.enumerated() { fields.append(try fieldSpec(field, at: "fields[\(index)]")) }
        for field in fields { try reach?.checkNewField(field, in: nil) }
        let table = try await editor.createTable(TableSpec(name: name, description: description,
                                                           fields: fields))
        return .json(table.json)
    }

    func createField(in table: String, body: [UInt8], reach: TokenReach?) async throws -> APIResponse {
        guard let editor = store as? any SchemaEditing else { throw APIError.invalidPermissions }
        let spec = try fieldSpec(try parseBody(body, emptyAs: [:]), at: "body")
        if let reach { try reach.checkNewField(spec, in: reach.table(table)) }
        let field = try await editor.createField(in: table, spec)
        return .json(field.json)
    }

    private func fieldSpec(_ json: JSONValue, at place: String) throws(APIError) -> FieldSpec {
        guard let name = json["name"]?.stringValue, !name.isEmpty else {
            throw .invalidRequest("\(place) needs a \"name\"")
        }
        try TextRules.check(name, as: .fieldName)
        let description = json["description"]?.stringValue
        if let description { try TextRules.check(description, as: .description) }
        guard let typeName = json["type"]?.stringValue else { throw .invalidRequest("\(place) needs a \"type\"") }
        guard let type = FieldType(rawValue: typeName) else {
            throw .invalidRequest("\(place) has a field type this server does not support: \"\(typeName)\"")
        }
        let options = json["options"].flatMap { $0.isNull ? nil : $0 }
        return FieldSpec(name: name, type: type, description: description, options: options)
    }
}
