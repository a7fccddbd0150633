/// One line of the server's request log.
///
/// It deliberately holds no headers and no query string, so credentials (bearer tokens, `api_key`
/// query parameters) can never reach a log through it.
public struct HTTPRequestLogEntry: Sendable, Equatable, CustomStringConvertible {
    /// The request method, or `-` when the request was refused before its method was known.
    public var method: String
    /// The target's path without the query string, still percent-encoded, or `-` when unknown.
    public var path: String
    /// The status code sent.
    public var status: Int
    /// From the request's first byte to its response being queued for sending.
    public var milliseconds: Double

    /// An entry with the given fields.
    public init(method: String, path: String, status: Int, milliseconds: Double) {
        self.method = method
        self.path = path
        self.status = status
        self.milliseconds = milliseconds
    }

    /// `GET /v0/app1/Drink 200 3.2ms`
    public var description: String {
        let tenths = (milliseconds * 10).rounded() / 10
        return "\(method) \(path) \(status) \(tenths)ms"
    }
}
