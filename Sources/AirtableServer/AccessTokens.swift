import Foundation

/// The bearer tokens a server accepts, each read-only or read-write. Tokens are compared in constant
/// time, and never printed: `description` shows only how many there are.
public struct AccessTokens: Sendable, CustomStringConvertible {
    public enum Access: String, Sendable {
        case read
        case readWrite = "read-write"
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
            granted = entry.access == .readWrite || granted == nil ? entry.access : granted
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

    /// Reads a token file: one token per line, optionally followed by `read` or `read-write` (the
    /// default); blank lines and `#` comments are skipped. Errors name the line, never the token.
    public static func parseFile(_ text: String, path: String) throws(TokenFileError) -> AccessTokens {
        var entries: [(String, Access)] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count <= 2 else {
                throw TokenFileError(path: path, line: number + 1, problem: "expected a token and optionally read or read-write")
            }
            var access = Access.readWrite
            if words.count == 2 {
                guard let parsed = Access(rawValue: String(words[1]).lowercased()) else {
                    throw TokenFileError(path: path, line: number + 1,
                                         problem: "access must be read or read-write, not \"\(words[1])\"")
                }
                access = parsed
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

/// A token file that cannot be used; names the file and line, never a token.
public struct TokenFileError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var problem: String

    public var description: String {
        line > 0 ? "token file \(path), line \(line): \(problem)" : "token file \(path): \(problem)"
    }
}
