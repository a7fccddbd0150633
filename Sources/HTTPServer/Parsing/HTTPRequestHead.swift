/// How the length of a request body is known (RFC 9112 §6.3).
public enum HTTPBodyFraming: Sendable, Equatable {
    /// No body: neither Content-Length nor Transfer-Encoding was sent.
    case none
    /// Exactly this many bytes follow (`Content-Length`).
    case length(Int)
    /// The body is sent in chunks ending with a zero-size chunk and optional trailers.
    case chunked
}

/// A request line and its header fields, validated, before the body has been read.
///
/// The parser emits it as soon as the header section ends, so the server can answer
/// `Expect: 100-continue` and switch from the header deadline to the body deadline.
public struct HTTPRequestHead: Sendable, Equatable {
    /// The method token as sent.
    public var method: String
    /// The raw target (absolute-form targets are reduced to their path and query).
    public var target: String
    /// The version from the request line.
    public var version: HTTPVersion
    /// The header fields in the order sent.
    public var headers: HTTPHeaders
    /// How the body that follows is delimited.
    public var framing: HTTPBodyFraming
    /// Whether the client sent `Expect: 100-continue` on HTTP/1.1 and waits before sending a body.
    public var expectsContinue: Bool

    /// A head with the given parts.
    public init(
        method: String, target: String, version: HTTPVersion, headers: HTTPHeaders,
        framing: HTTPBodyFraming, expectsContinue: Bool
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.framing = framing
        self.expectsContinue = expectsContinue
    }

    /// Whether a body follows the head at all.
    public var hasBody: Bool {
        switch framing {
        case .none, .length(0): false
        case .length, .chunked: true
        }
    }
}
