/// Why a request could not be parsed, with the status the server answers before closing the connection.
///
/// After any of these the byte stream can no longer be trusted to be framed correctly, so the
/// connection is always closed after the error response.
public enum HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 414: the request line (mostly the target) exceeds the limit.
    case requestLineTooLong(limit: Int)
    /// 400: the request line is not `METHOD TARGET HTTP/x.y`.
    case malformedRequestLine(String)
    /// 505: a well-formed version other than HTTP/1.x.
    case unsupportedVersion(String)
    /// 431: one field line exceeds the limit.
    case headerLineTooLong(line: Int, limit: Int)
    /// 431: more field lines than allowed.
    case tooManyHeaders(limit: Int)
    /// 431: the field lines together exceed the limit.
    case headersTooLarge(limit: Int)
    /// A field line that breaks the syntax; `line` counts the request line as line 1.
    case malformedHeader(line: Int, reason: String)
    /// 400: Host missing on HTTP/1.1, repeated, or not a host.
    case invalidHost(String)
    /// 400: a Content-Length that is not plain decimal digits.
    case invalidContentLength(String)
    /// 400: Content-Length values that disagree.
    case conflictingContentLengths([String])
    /// 400: both Content-Length and Transfer-Encoding, the classic smuggling setup.
    case contentLengthWithTransferEncoding
    /// 400: Transfer-Encoding on an HTTP/1.0 request, whose framing cannot be trusted.
    case transferEncodingInHTTP10
    /// 501: a transfer coding other than chunked.
    case unsupportedTransferCoding(String)
    /// 400: chunked repeated, or an empty coding list.
    case chunkedNotFinal(String)
    /// 413: the declared or received body exceeds the limit.
    case bodyTooLarge(limit: Int)
    /// 400: a chunk size, extension or chunk terminator that breaks the syntax.
    case malformedChunk(String)
    /// 417: an Expect value other than 100-continue.
    case unsupportedExpectation(String)

    /// The status code to answer with.
    public var status: Int {
        switch self {
        case .requestLineTooLong: 414
        case .unsupportedVersion: 505
        case .headerLineTooLong, .tooManyHeaders, .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .unsupportedTransferCoding: 501
        case .unsupportedExpectation: 417
        case .malformedRequestLine, .malformedHeader, .invalidHost, .invalidContentLength,
            .conflictingContentLengths, .contentLengthWithTransferEncoding, .transferEncodingInHTTP10,
            .chunkedNotFinal, .malformedChunk:
            400
        }
    }

    /// What was wrong, for the body of the error response; it quotes at most a short, escaped excerpt of the input.
    public var description: String {
        switch self {
        case .requestLineTooLong(let limit):
            "the request line is longer than \(limit) bytes"
        case .malformedRequestLine(let reason):
            "malformed request line: \(reason)"
        case .unsupportedVersion(let version):
            "HTTP version '\(version)' is not supported; use HTTP/1.1 or HTTP/1.0"
        case .headerLineTooLong(let line, let limit):
            "header line \(line) is longer than \(limit) bytes"
        case .tooManyHeaders(let limit):
            "more than \(limit) header fields"
        case .headersTooLarge(let limit):
            "the header fields together are larger than \(limit) bytes"
        case .malformedHeader(let line, let reason):
            "malformed header on line \(line): \(reason)"
        case .invalidHost(let reason):
            "invalid Host header: \(reason)"
        case .invalidContentLength(let value):
            "Content-Length '\(value)' is not a non-negative decimal number"
        case .conflictingContentLengths(let values):
            "conflicting Content-Length values: \(values.joined(separator: ", "))"
        case .contentLengthWithTransferEncoding:
            "a request must not carry both Content-Length and Transfer-Encoding"
        case .transferEncodingInHTTP10:
            "Transfer-Encoding is not allowed in an HTTP/1.0 request"
        case .unsupportedTransferCoding(let coding):
            "transfer coding '\(coding)' is not supported; only 'chunked' is"
        case .chunkedNotFinal(let codings):
            "'chunked' must be the final transfer coding, applied once (got '\(codings)')"
        case .bodyTooLarge(let limit):
            "the body is larger than \(limit) bytes"
        case .malformedChunk(let reason):
            "malformed chunked body: \(reason)"
        case .unsupportedExpectation(let value):
            "expectation '\(value)' is not supported; only '100-continue' is"
        }
    }
}
