import Foundation

/// A user of a base: a comment's author, a mention, a collaborator cell (`{id, email, name}`).
public struct Collaborator: Sendable, Hashable {
    public var id: String
    public var email: String
    public var name: String

    public init(id: String, email: String, name: String) {
        self.id = id
        self.email = email
        self.name = name
    }

    public var json: JSONValue { ["id": .string(id), "email": .string(email), "name": .string(name)] }

    public init?(json: JSONValue) {
        guard let id = json["id"]?.stringValue else { return nil }
        self.init(id: id, email: json["email"]?.stringValue ?? "", name: json["name"]?.stringValue ?? "")
    }
}

/// The name and e-mail a base's owner starts with (the owner may change them in the base later): the
/// program that makes the base names its owner; one that names none gets `placeholder`.
public struct OwnerProfile: Sendable, Hashable {
    public var name: String
    public var email: String

    public init(name: String, email: String) {
        self.name = name
        self.email = email
    }

    /// The owner of a base whose program named none.
    public static let placeholder = OwnerProfile(name: "Base owner", email: "owner@localbase.invalid")

    /// A new user with this profile and a new id.
    public func newCollaborator() -> Collaborator {
        Collaborator(id: AirtableID.make("usr"), email: email, name: name)
    }
}

/// A comment on a record, as Airtable's comment routes describe it.
public struct RecordComment: Sendable, Hashable {
    public var id: String
    public var author: Collaborator
    public var text: String
    public var createdTime: Date
    public var lastUpdatedTime: Date?
    /// The users the text mentions as `@[usr…]`, by id.
    public var mentioned: [String: Collaborator]

    public init(id: String, author: Collaborator, text: String, createdTime: Date, lastUpdatedTime: Date? = nil,
                mentioned: [String: Collaborator] = [:]) {
        self.id = id
        self.author = author
        self.text = text
        self.createdTime = createdTime
        self.lastUpdatedTime = lastUpdatedTime
        self.mentioned = mentioned
    }

    public var json: JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(id), "author": author.json, "text": .string(text),
            "createdTime": .string(AirtableTimestamp.format(createdTime)),
            "lastUpdatedTime": lastUpdatedTime.map { .string(AirtableTimestamp.format($0)) } ?? .null,
        ]
        if !mentioned.isEmpty {
            object["mentioned"] = .object(mentioned.mapValues { user in
                ["type": "user", "id": .string(user.id), "displayName": .string(user.name), "email": .string(user.email)]
            })
        }
        return .object(object)
    }

    /// The ids of the users a comment's text mentions (`@[usr…]`), in order, without repeats.
    public static func mentionedIDs(in text: String) -> [String] {
        var ids: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "@[") {
            let after = rest[start.upperBound...]
            guard let end = after.firstIndex(of: "]") else { break }
            let id = String(after[..<end])
            if AirtableID.isValid(id, prefix: "usr") && !ids.contains(id) { ids.append(id) }
            rest = after[after.index(after: end)...]
        }
        return ids
    }
}

/// One page of a record's comments, newest first, and where the next page starts.
public struct CommentPage: Sendable {
    public var comments: [RecordComment]
    public var offset: String?

    public init(comments: [RecordComment], offset: String? = nil) {
        self.comments = comments
        self.offset = offset
    }
}

/// A store that keeps comments on records and knows the base's users (Airtable's comment routes,
/// `recordMetadata=commentCount`, collaborator cells).
public protocol CommentStore: RecordStore {
    /// The base's users; the first is its owner, who writes through the server's tokens.
    func collaborators() async throws(AirtableError) -> [Collaborator]
    func comments(in table: String, record: String, pageSize: Int, offset: String?) async throws(AirtableError)
        -> CommentPage
    func addComment(in table: String, record: String, text: String, author: Collaborator)
        async throws(AirtableError) -> RecordComment
    /// Changes a comment's text; only its author may.
    func updateComment(in table: String, record: String, id: String, text: String, author: Collaborator)
        async throws(AirtableError) -> RecordComment
    func deleteComment(in table: String, record: String, id: String, author: Collaborator)
        async throws(AirtableError)
    /// How many comments each of these records has.
    func commentCounts(in table: String, records: [String]) async throws(AirtableError) -> [String: Int]
}
