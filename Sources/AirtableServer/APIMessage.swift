import Airtable

/// A request as the Airtable API layer sees it: independent of the socket layer, so routes are tested
/// without sockets.
public struct APIRequest: Sendable {
    public var method: String
    /// The raw request target: undecoded path plus optional `?query`.
    public var target: String
    /// Header names as sent; lookups ignore case.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A response of the Airtable API layer: always a JSON object body (airtable.js treats anything else as
/// an unexpected error).
public struct APIResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    static let jsonContentType = (name: "Content-Type", value: "application/json; charset=utf-8")

    /// A 200 (or other) JSON response.
    static func json(_ value: JSONValue, status: Int = 200) -> APIResponse {
        APIResponse(status: status, headers: [jsonContentType], body: JSONWriter.bytes(value))
    }

    /// An error in Airtable's body shape, with `Retry-After` on 429.
    static func error(_ error: APIError, retryAfter: Int? = nil) -> APIResponse {
        var response = APIResponse.json(error.body, status: error.status)
        if let retryAfter { response.headers.append((name: "Retry-After", value: String(retryAfter))) }
        return response
    }
}

extension APIError {
    /// A request target of 16,000 characters or more (Airtable's limit; 414 is what clients see).
    static let urlTooLong = APIError(
        status: 414, type: "URL_TOO_LONG",
        message: "The URL is 16,000 characters or longer; send long list requests as POST …/listRecords with a JSON body")
}
