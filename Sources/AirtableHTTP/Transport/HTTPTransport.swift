import Airtable
/// The seam between the client and the network: one HTTP exchange, whatever carries it. The live
/// implementation is `URLSessionTransport` (module AirtableURLSession, the only one that imports
/// FoundationNetworking); tests substitute a scripted one.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and returns the response, whatever its status.
    ///
    /// Throws only when no complete response arrived. It must return or throw `.timedOut` within
    /// `timeout` seconds: the client's deadline is enforced here, not left to the network stack.
    func send(_ request: TransportRequest, timeout: Double) async throws(TransportError) -> TransportResponse
}

/// One HTTP request as the client sends it. Its textual forms leave the `Authorization` value out, so
/// a request printed, logged or dumped never shows the token.
public struct TransportRequest: Sendable, Equatable {
    /// `GET`, `POST`, `PATCH`, `PUT` or `DELETE`.
    public var method: String
    /// The complete URL, already percent-encoded; a transport sends it byte for byte.
    public var url: String
    /// Header fields by name.
    public var headers: [String: String]
    /// The body; nil sends none (a GET must never carry one).
    public var body: [UInt8]?

    public init(method: String, url: String, headers: [String: String] = [:], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The body as text (JSON bodies are UTF-8), for tests and diagnostics.
    public var bodyText: String? { body.map { String(decoding: $0, as: UTF8.self) } }
}

extension TransportRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `PATCH https://…/v0/app…/Drink (312 bytes)`: no headers, so no token.
    public var description: String {
        "\(method) \(url)" + (body.map { " (\($0.count) bytes)" } ?? "")
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["method": method, "url": url, "headers": headers.keys.sorted(),
                                "bodyBytes": body?.count ?? 0])
    }
}

/// A response: the status, the header fields (names in lower case) and the body.
public struct TransportResponse: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// Header fields, names in lower case.
    public var headers: [String: String]
    /// The body as received.
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// A header's value, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Why no response arrived. The kind decides whether the client may send the request again.
public struct TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The request never left: no connection could be made. Any request may be sent again.
        case notSent
        /// The connection failed after the request may have reached the server: it may have been
        /// applied. Only requests that are safe to repeat may be sent again.
        case interrupted
        /// The time allowed (the client's deadline) ran out.
        case timedOut
        /// The calling task was cancelled.
        case cancelled
    }

    /// Whether the request may have been applied.
    public var kind: Kind
    /// What happened, for a person; never holds headers or the token.
    public var detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }
}
