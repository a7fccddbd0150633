/// Turns a handler's response into the bytes sent on the wire, with the framing the server owns.
enum ResponseEncoder {
    /// The interim response that tells a client waiting on `Expect: 100-continue` to send its body.
    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// - Parameters:
    ///   - isHeadRequest: HEAD gets the headers a GET would, `Content-Length` included, but no body.
    ///   - keepAlive: whether the connection stays open; when not, `Connection: close` is sent.
    ///   - requestVersion: an HTTP/1.0 client kept alive is told so with `Connection: keep-alive`.
    ///   - date: the `Date` header value.
    static func encode(
        _ response: HTTPResponse, isHeadRequest: Bool, keepAlive: Bool, requestVersion: HTTPVersion, date: String
    ) -> [UInt8] {
        let status = statusCode(of: response)
        let mayHaveBody = status != 204 && status != 304
        var text = statusAndHeaders(response, date: date)
        if mayHaveBody { text += "Content-Length: \(response.body.count)\r\n" }
        if !keepAlive {
            text += "Connection: close\r\n"
        } else if requestVersion < .http1_1 {
            text += "Connection: keep-alive\r\n"
        }
        text += "\r\n"
        var bytes = Array(text.utf8)
        if mayHaveBody, !isHeadRequest { bytes += response.body }
        return bytes
    }

    /// A handler that returns an impossible status is a bug, but the client still gets a valid reply.
    private static func statusCode(of response: HTTPResponse) -> Int {
        (200...999).contains(response.status) ? response.status : 500
    }

    /// The status line and the handler's safe headers (framing headers are the encoder's own), with a
    /// `Date` unless the handler gave one.
    private static func statusAndHeaders(_ response: HTTPResponse, date: String) -> String {
        let status = statusCode(of: response)
        var text = "HTTP/1.1 \(status) \(HTTPResponse.reasonPhrase(for: status))\r\n"
        var hasDate = false
        for field in response.headers where isSafe(field) {
            switch field.name.lowercased() {
            case "content-length", "transfer-encoding", "connection": continue
            case "date": hasDate = true
            default: break
            }
            text += "\(field.name): \(field.value)\r\n"
        }
        if !hasDate { text += "Date: \(date)\r\n" }
        return text
    }

    /// The head of a streamed response: no `Content-Length`, so the body runs until the connection closes
    /// (`Connection: close` says so to HTTP/1.1 clients; HTTP/1.0 clients read to the end anyway).
    static func encodeStreamHead(_ response: HTTPResponse, date: String) -> [UInt8] {
        Array((statusAndHeaders(response, date: date) + "Connection: close\r\n\r\n").utf8)
    }

    /// The response for a request the parser refused or that timed out; the connection closes after it.
    static func errorResponse(status: Int, message: String) -> HTTPResponse {
        HTTPResponse.text(message + "\n", status: status)
    }

    /// Field lines that could split the response (CR, LF) or are not valid syntax are left out, so a
    /// handler echoing client input can never inject headers.
    private static func isSafe(_ field: HTTPHeaders.Field) -> Bool {
        HTTPSyntax.isToken(field.name.utf8) && field.value.utf8.allSatisfy(HTTPSyntax.isFieldValueByte)
    }
}
