/// A complete HTTP request as the server hands it to the handler.
///
/// The target is kept raw (not percent-decoded) so that a handler can tell `%2F` inside a path
/// segment from a `/` between segments.
public struct HTTPRequest: Sendable, Equatable {
    /// The method token exactly as sent (methods are case-sensitive: `GET`, `POST`, ...).
    public var method: String
    /// The request target as sent: the raw, undecoded path and query, e.g. `/v0/app1/Drink?maxRecords=3`.
    public var target: String
    /// The version from the request line.
    public var version: HTTPVersion
    /// The header fields in the order sent.
    public var headers: HTTPHeaders
    /// The body, already de-chunked when it came with `Transfer-Encoding: chunked`.
    public var body: [UInt8]
    /// Trailer fields sent after a chunked body (kept apart from `headers`, as RFC 9112 §7.1.2 advises).
    public var trailers: HTTPHeaders
    /// The peer as `host:port` (`[v6]:port` for IPv6) when the request came over a socket.
    public var remoteAddress: String?

    /// A request; handlers under test can be called with one built by hand.
    public init(
        method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:],
        body: [UInt8] = [], trailers: HTTPHeaders = [:], remoteAddress: String? = nil
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        self.trailers = trailers
        self.remoteAddress = remoteAddress
    }

    /// The target up to (not including) the first `?`, still percent-encoded.
    public var path: String { Self.pathOf(target) }

    static func pathOf(_ target: String) -> String {
        guard let mark = target.firstIndex(of: "?") else { return target }
        return String(target[..<mark])
    }

    /// The raw query string after the first `?`, or nil when the target has none.
    public var query: String? {
        guard let mark = target.firstIndex(of: "?") else { return nil }
        return String(target[target.index(after: mark)...])
    }
}
