import Airtable
import AirtableFormula

/// Airtable's "update table", "update field" and "get base" metadata routes.
extension AirtableAPI {
    func updateTable(_ table: String, body: [UInt8]) async throws -> APIResponse {
        guard let editor = store as? any SchemaUpdating else { throw APIError.invalidPermissions }
        let change = try schemaChange(try parseBody(body, emptyAs: [:]), nameKind: .tableName)
        if change.name != nil, !protectedTables.isEmpty, let current = try await store.schema().table(table) {
            try protectedTables.checkRename(of: current, to: change.name)
        }
        return .json(try await editor.updateTable(table, change).json)
    }

    func updateField(in table: String, field: String, body: [UInt8]) async throws -> APIResponse {
        guard let editor = store as? any SchemaUpdating else { throw APIError.invalidPermissions }
        let change = try schemaChange(try parseBody(body, emptyAs: [:]), nameKind: .fieldName)
        if change.name != nil, !protectedTables.isEmpty, let current = try await store.schema().table(table),
           let currentField = current.field(field) {
            try protectedTables.checkRename(of: currentField, in: current, to: change.name)
        }
        return .json(try await editor.updateField(in: table, field: field, change).json)
    }

    /// `GET /v0/meta/bases/{base}`: the base, its one collaborator (the token's user) and no groups.
    func baseInfo(access: AccessTokens.Access) async throws -> APIResponse {
        let level: JSONValue = access.writes ? "create" : "read"
        let user: JSONValue = [
            "userId": .string(userID), "email": .string(user.email), "name": .string(user.name),
            "permissionLevel": level, "createdTime": "2026-01-01T00:00:00.000Z",
            "grantedByUserId": .string(userID),
        ]
        return .json([
            // The local base keeps no creation time of its own; the server's start stands in for it.
            "id": .string(baseID), "name": .string(baseName), "permissionLevel": level,
            "createdTime": .string(AirtableTimestamp.format(startedAt)),
            "workspaceId": .string(workspaceID),
            "interfaces": [:],
            "groupCollaborators": ["baseCollaborators": [], "workspaceCollaborators": []],
            "individualCollaborators": ["baseCollaborators": [user], "workspaceCollaborators": []],
            "inviteLinks": ["baseInviteLinks": [], "workspaceInviteLinks": []],
        ])
    }

    /// The body of an update: `name` and/or `description`, strings without control characters (a line break
    /// is allowed in a description); anything else is refused by name.
    private func schemaChange(_ json: JSONValue, nameKind: TextRules.Kind) throws(APIError) -> SchemaChange {
        guard let object = json.objectValue else {
            throw .invalidRequest("the body must be a JSON object with \"name\" and/or \"description\"")
        }
        var change = SchemaChange()
        for (key, value) in object.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "name":
                guard let name = value.stringValue else { throw .invalidRequest("\"name\" must be a string") }
                try TextRules.check(name, as: nameKind)
                change.name = name
            case "description":
                guard let text = value.stringValue else { throw .invalidRequest("\"description\" must be a string") }
                try TextRules.check(text, as: .description)
                change.description = text
            default:
                throw .invalidRequest("\"\(key)\" cannot be changed here; only \"name\" and \"description\" can")
            }
        }
        return change
    }
}
