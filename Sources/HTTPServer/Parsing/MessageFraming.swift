/// The rules that decide, from a validated header section, how long the body is and whether the
/// request may proceed (RFC 9112 §3.2, §6, RFC 9110 §10.1.1).
///
/// Every ambiguity is refused rather than guessed at: two parties guessing differently about where
/// a body ends is what request smuggling exploits.
enum MessageFraming {
    struct Decision: Equatable {
        var framing: HTTPBodyFraming
        var expectsContinue: Bool
    }

    static func decide(
        version: HTTPVersion, headers: HTTPHeaders, limits: HTTPParserLimits
    ) throws(HTTPParseError) -> Decision {
        try checkHost(version: version, headers: headers)
        let framing = try bodyFraming(version: version, headers: headers, limits: limits)
        return Decision(framing: framing, expectsContinue: try expectsContinue(version: version, headers: headers))
    }

    private static func checkHost(version: HTTPVersion, headers: HTTPHeaders) throws(HTTPParseError) {
        let hosts = headers.values(for: "Host")
        if hosts.count > 1 { throw .invalidHost("sent \(hosts.count) times") }
        if version >= .http1_1, hosts.isEmpty { throw .invalidHost("missing, and HTTP/1.1 requires it") }
        if let host = hosts.first, host.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 || $0 == UInt8(ascii: "/") }) {
            throw .invalidHost("'\(host)' is not a host[:port]")
        }
    }

    private static func bodyFraming(
        version: HTTPVersion, headers: HTTPHeaders, limits: HTTPParserLimits
    ) throws(HTTPParseError) -> HTTPBodyFraming {
        let hasTransferEncoding = headers.contains("Transfer-Encoding")
        let hasContentLength = headers.contains("Content-Length")
        if hasTransferEncoding {
            if version < .http1_1 { throw .transferEncodingInHTTP10 }
            if hasContentLength { throw .contentLengthWithTransferEncoding }
            try checkTransferCodings(headers.values(for: "Transfer-Encoding"))
            return .chunked
        }
        guard hasContentLength else { return .none }
        let length = try contentLength(headers.values(for: "Content-Length"))
        guard length <= limits.maxBodyBytes else { throw .bodyTooLarge(limit: limits.maxBodyBytes) }
        return .length(length)
    }

    /// Only `chunked` is implemented; it must appear once and last.
    private static func checkTransferCodings(_ values: [String]) throws(HTTPParseError) {
        let joined = values.joined(separator: ", ")
        let codings = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingHTTPWhitespace().lowercased() }
        guard !codings.isEmpty, !codings.contains(where: \.isEmpty) else { throw .chunkedNotFinal(joined) }
        if let unknown = codings.first(where: { $0 != "chunked" }) {
            throw .unsupportedTransferCoding(unknown)
        }
        guard codings.count == 1 else { throw .chunkedNotFinal(joined) }
    }

    /// Every Content-Length value (a field may repeat or hold a list) must be the same decimal number.
    private static func contentLength(_ values: [String]) throws(HTTPParseError) -> Int {
        let elements = values.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { String($0.trimmingHTTPWhitespace()) }
        var lengths: [Int] = []
        for element in elements {
            guard !element.isEmpty, element.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw .invalidContentLength(element)
            }
            // Saturate instead of overflowing: any number this large is over the body limit anyway.
            let value = element.utf8.reduce(0) { total, digit in
                let (times10, overflow1) = total.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int(digit - 0x30))
                return overflow1 || overflow2 ? Int.max : sum
            }
            lengths.append(value)
        }
        guard let first = lengths.first else { throw .invalidContentLength(values.joined(separator: ", ")) }
        guard lengths.allSatisfy({ $0 == first }) else { throw .conflictingContentLengths(elements) }
        return first
    }

    /// HTTP/1.0 clients cannot have meant an expectation (RFC 9110 §10.1.1), so it is ignored there.
    private static func expectsContinue(version: HTTPVersion, headers: HTTPHeaders) throws(HTTPParseError) -> Bool {
        guard version >= .http1_1, headers.contains("Expect") else { return false }
        let expectations = headers.tokens(for: "Expect")
        guard !expectations.isEmpty, expectations.allSatisfy({ $0 == "100-continue" }) else {
            throw .unsupportedExpectation(headers.values(for: "Expect").joined(separator: ", "))
        }
        return true
    }
}
