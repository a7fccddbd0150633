/// A response produced by a handler.
///
/// The server owns the framing: it writes `Content-Length` from `body` (dropping any
/// `Content-Length` or `Transfer-Encoding` set here), adds `Date`, and decides `Connection`.
/// A handler may set `Connection: close` to have the connection closed after this response.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code; one outside 200...999 is sent as 500.
    public var status: Int
    /// Header fields to send; lines holding CR, LF or an invalid name are left out.
    public var headers: HTTPHeaders
    /// The body; not sent for HEAD requests nor with 204 and 304.
    public var body: [UInt8]
    /// A body that is still being written: when set, `body` is ignored, the head goes out at once without
    /// `Content-Length`, and the connection carries this stream until it ends, then closes. The server
    /// may refuse it with 503 when too many streams are open (see `Configuration.maxStreams`).
    public var stream: HTTPResponseStream?

    /// A response with the given status, headers and body.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A `text/event-stream` response carrying `stream` (Server-Sent Events).
    public static func eventStream(_ stream: HTTPResponseStream) -> HTTPResponse {
        var response = HTTPResponse(status: 200, headers: ServerSentEvent.responseHeaders)
        response.stream = stream
        return response
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// An `application/json; charset=utf-8` response whose body is already-encoded JSON text.
    public static func json(_ json: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse.json(Array(json.utf8), status: status)
    }

    /// An `application/json; charset=utf-8` response whose body is already-encoded JSON bytes.
    public static func json(_ json: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json; charset=utf-8"], body: json)
    }

    /// The standard reason phrase for `status` ("Not Found" for 404), or "Unknown" for an unlisted code.
    public static func reasonPhrase(for status: Int) -> String {
        reasonPhrases[status] ?? "Unknown"
    }

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
        411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}
