import Airtable

/// Airtable's record comment routes: `GET/POST …/{table}/{record}/comments` and
/// `PATCH/DELETE …/comments/{id}`. Comments are written as the tokens' user; mentions (`@[usr…]`)
/// stay in the text and are listed in `mentioned`.
extension AirtableAPI {
    /// Airtable's limit on a comment's text [unverified; the API docs give none, the app allows long ones].
    static let maximumCommentLength = 100_000

    private var comments: any CommentStore {
        get throws(APIError) {
            guard let store = store as? any CommentStore else { throw .notFound }
            return store
        }
    }

    func listComments(_ table: String, _ record: String, query: QueryString) async throws -> APIResponse {
        guard AirtableID.isValid(record, prefix: "rec") else { return .error(.notFound) }
        var pageSize = 100
        var offset: String?
        for (name, value) in query.items {
            switch name {
            case "pageSize":
                guard let size = Int(value) else { throw APIError.invalidPageSize }
                pageSize = size
            case "offset": offset = value
            default:
                throw APIError.invalidRequest("unknown query parameter \"\(name)\"; listing comments takes only "
                    + "pageSize and offset")
            }
        }
        let page = try await comments.comments(in: table, record: record, pageSize: pageSize, offset: offset)
        return .json(["comments": .array(page.comments.map(\.json)), "offset": page.offset.map { .string($0) } ?? .null])
    }

    func addComment(_ table: String, _ record: String, body: [UInt8]) async throws -> APIResponse {
        guard AirtableID.isValid(record, prefix: "rec") else { return .error(.notFound) }
        let text = try commentText(try parseBody(body, emptyAs: [:]))
        return .json(try await comments.addComment(in: table, record: record, text: text, author: user).json)
    }

    func updateComment(_ table: String, _ record: String, id: String, body: [UInt8]) async throws -> APIResponse {
        guard AirtableID.isValid(record, prefix: "rec"), AirtableID.isValid(id, prefix: "com") else {
            return .error(.notFound)
        }
        let text = try commentText(try parseBody(body, emptyAs: [:]))
        return .json(try await comments.updateComment(in: table, record: record, id: id, text: text, author: user).json)
    }

    func deleteComment(_ table: String, _ record: String, id: String) async throws -> APIResponse {
        guard AirtableID.isValid(record, prefix: "rec"), AirtableID.isValid(id, prefix: "com") else {
            return .error(.notFound)
        }
        try await comments.deleteComment(in: table, record: record, id: id, author: user)
        return .json(["id": .string(id), "deleted": true])
    }

    /// The `text` of a comment body: a string that is not blank.
    private func commentText(_ json: JSONValue) throws(APIError) -> String {
        guard let object = json.objectValue else { throw .invalidRequest("the body must be a JSON object with \"text\"") }
        if let key = object.keys.sorted().first(where: { $0 != "text" && $0 != "parentCommentId" }) {
            throw .invalidRequest("a comment takes only \"text\", not \"\(key)\"")
        }
        guard let text = object["text"]?.stringValue else {
            throw .invalidRequest("a comment needs \"text\", a string")
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .invalidRequest("a comment's text cannot be blank")
        }
        guard text.count <= Self.maximumCommentLength else {
            throw .invalidRequest("a comment's text must be at most \(Self.maximumCommentLength) characters")
        }
        try TextRules.check(text, as: .comment)
        return text
    }
}
