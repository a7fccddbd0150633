import Foundation

/// The bearer tokens a server accepts, each with what it may do: Airtable's scopes (`data.records:read`,
/// `data.records:write`, `data.recordComments:read`, `data.recordComments:write`, `schema.bases:read`,
/// `schema.bases:write`, `webhook:manage`) and the scopes of tables the application keeps apart
/// (`TableScopes`: a token without them neither reads nor writes those tables). `read` and `read-write`
/// are shorthands; a read-write token has every scope and acts as the whole application. Tokens are
/// compared in constant time and never printed: `description` shows only how many there are.
public struct AccessTokens: Sendable, CustomStringConvertible {
    /// What a token may do.
    public struct Access: Sendable, Hashable {
        /// Airtable's scopes, and table scopes (`drinkshop.staff:read`), granted.
        public let scopes: Set<String>
        /// Every scope, table scopes included (`read-write`).
        public let isFull: Bool

        public init(scopes: Set<String>) {
            self.scopes = scopes
            isFull = false
        }

        private init(full: Bool, scopes: Set<String>) {
            self.scopes = scopes
            isFull = full
        }

        /// Records, comments and the schema, read only; no table kept apart.
        public static let read = Access(scopes: [Scope.recordsRead, Scope.commentsRead, Scope.schemaRead])
        /// Everything: a token that acts as the whole application.
        public static let readWrite = Access(full: true, scopes: Set(Scope.airtable))

        public func allows(_ scope: String) -> Bool { isFull || scopes.contains(scope) }

        /// Whether it writes anything at all (`permissionLevel` "create" rather than "read").
        public var writes: Bool { allows(Scope.recordsWrite) }
    }

    /// Airtable's scope names.
    public enum Scope {
        public static let recordsRead = "data.records:read"
        public static let recordsWrite = "data.records:write"
        public static let commentsRead = "data.recordComments:read"
        public static let commentsWrite = "data.recordComments:write"
        public static let schemaRead = "schema.bases:read"
        public static let schemaWrite = "schema.bases:write"
        public static let webhookManage = "webhook:manage"
        public static let airtable = [recordsRead, recordsWrite, commentsRead, commentsWrite, schemaRead, schemaWrite, webhookManage]
    }

    private let tokens: [(token: [UInt8], access: Access)]

    public init(_ tokens: [(token: String, access: Access)]) {
        self.tokens = tokens.map { (Array($0.token.utf8), $0.access) }
    }

    public var isEmpty: Bool { tokens.isEmpty }
    public var description: String { "\(tokens.count) access token(s)" }

    /// The access a presented token grants, or nil. Every configured token is compared, each over its
    /// full length, so timing does not reveal how much of a token matched.
    public func access(for presented: String) -> Access? {
        let candidate = Array(presented.utf8)
        var granted: Access?
        for entry in tokens where AccessTokens.constantTimeEquals(candidate, entry.token) {
            granted = granted.map { Access.union($0, entry.access) } ?? entry.access
        }
        return granted
    }

    static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt(a.count ^ b.count)
        for i in 0..<b.count {
            let x = i < a.count ? a[i] : 0
            difference |= UInt(x ^ b[i])
        }
        return difference == 0
    }

    /// The token in an `Authorization: Bearer …` header value.
    public static func bearer(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// Reads a token file: one token per line, followed by what it may do: `read`, `read-write` (the
    /// default), or scope names separated by spaces or commas (Airtable's, and `tableScopes`' names with
    /// `:read` or `:write`); blank lines and `#` comments are skipped. Errors name the line, never the token.
    public static func parseFile(_ text: String, path: String, tableScopes: TableScopes = TableScopes()) throws(TokenFileError)
        -> AccessTokens
    {
        var entries: [(String, Access)] = []
        let known = Set(Scope.airtable).union(tableScopes.scopeNames)
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
            var access = Access.readWrite
            let grants = words.dropFirst().map { String($0) }
            if grants.map({ $0.lowercased() }) == ["read"] {
                access = .read
            } else if grants.isEmpty || grants.map({ $0.lowercased() }) == ["read-write"] {
                access = .readWrite
            } else {
                for scope in grants where !known.contains(scope) {
                    let list = (Scope.airtable + tableScopes.scopeNames.sorted()).joined(separator: ", ")
                    throw TokenFileError(path: path, line: number + 1,
                                         problem: "\"\(scope)\" is not read, read-write or a scope (scopes: \(list))")
                }
                access = Access(scopes: Set(grants))
            }
            guard words[0].count >= 8 else {
                throw TokenFileError(path: path, line: number + 1, problem: "a token must have at least 8 characters")
            }
            entries.append((String(words[0]), access))
        }
        guard !entries.isEmpty else { throw TokenFileError(path: path, line: 0, problem: "the file lists no token") }
        return AccessTokens(entries)
    }

    /// A fresh random read-write token: `pat` + 14 base62 + `.` + 64 hex digits, shaped like Airtable's.
    public static func generateToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let hex = Array("0123456789abcdef")
        let secret = String((0..<64).map { _ in hex[Int.random(in: 0..<16, using: &generator)] })
        let id = String((0..<14).map { _ in
            Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")[Int.random(in: 0..<62, using: &generator)]
        })
        return "pat\(id).\(secret)"
    }
}

extension AccessTokens.Access {
    /// Both tokens' grants (the same token listed twice).
    static func union(_ a: Self, _ b: Self) -> Self {
        a.isFull ? a : b.isFull ? b : Self(scopes: a.scopes.union(b.scopes))
    }
}

/// Tables an application keeps apart from tokens without their scope: each table with the scope name that
/// guards it (`User` → `drinkshop.staff`): reading it needs `<scope>:read`, writing it `<scope>:write`,
/// besides Airtable's record scopes (writing needs reading too: a write answers with the records). The server
/// knows nothing of what they are for; whoever starts it names them. A request's table is resolved to the
/// store's table before its scope is looked up (`TokenReach`), never by the path's text.
public struct TableScopes: Sendable, Hashable {
    public private(set) var scopeByTable: [String: String]

    public init(_ scopeByTable: [String: String] = [:]) { self.scopeByTable = scopeByTable }

    /// Every table scope name with `:read` and `:write`.
    public var scopeNames: Set<String> { Set(scopeByTable.values.flatMap { ["\($0):read", "\($0):write"] }) }
}

/// A token file that cannot be used; names the file and line, never a token.
public struct TokenFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var problem: String

    public var description: String {
        line > 0 ? "token file \(path), line \(line): \(problem)" : "token file \(path): \(problem)"
    }
}
