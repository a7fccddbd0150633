import Testing
@testable import HTTPServer

/// Every framing and syntax rule that makes the parser refuse a request, with the status it maps to.
@Suite struct HTTPRequestParserRejectionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let raw: String
        let status: Int
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "two spaces in request line", raw: "GET  / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "missing version", raw: "GET /\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "lower-case version", raw: "GET / http/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "HTTP/2.0", raw: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
        Case(name: "HTTP/0.9", raw: "GET / HTTP/0.9\r\n\r\n", status: 505),
        Case(name: "version with two digits", raw: "GET / HTTP/1.10\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "method with a slash", raw: "GE/T / HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "relative target", raw: "GET index.html HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "asterisk target with GET", raw: "GET * HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "tab in target", raw: "GET /a\tb HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "bare CR in request line", raw: "GET /\r HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        Case(name: "header without colon", raw: "GET / HTTP/1.1\r\nHost: x\r\nNoColon\r\n\r\n", status: 400),
        Case(name: "space before colon", raw: "GET / HTTP/1.1\r\nHost : x\r\n\r\n", status: 400),
        Case(name: "empty header name", raw: "GET / HTTP/1.1\r\nHost: x\r\n: v\r\n\r\n", status: 400),
        Case(name: "obsolete line folding", raw: "GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n 2\r\n\r\n", status: 400),
        Case(name: "NUL in header value", raw: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\u{0}b\r\n\r\n", status: 400),
        Case(name: "bare CR in header value", raw: "GET / HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n", status: 400),
        Case(name: "missing Host on HTTP/1.1", raw: "GET / HTTP/1.1\r\n\r\n", status: 400),
        Case(name: "two Host headers", raw: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", status: 400),
        Case(name: "Host with a path", raw: "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", status: 400),
        Case(name: "negative Content-Length", raw: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", status: 400),
        Case(name: "non-numeric Content-Length", raw: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1e3\r\n\r\n", status: 400),
        Case(name: "signed Content-Length", raw: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n", status: 400),
        Case(name: "empty Content-Length", raw: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n", status: 400),
        Case(name: "differing Content-Lengths", raw: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", status: 400),
        Case(name: "differing Content-Length list", raw: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabcd", status: 400),
        Case(name: "Content-Length and Transfer-Encoding", raw: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        Case(name: "Transfer-Encoding on HTTP/1.0", raw: "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", status: 400),
        Case(name: "gzip transfer coding", raw: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", status: 501),
        Case(name: "chunked twice", raw: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", status: 400),
        Case(name: "empty transfer coding", raw: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \r\n\r\n", status: 400),
        Case(name: "non-hex chunk size", raw: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 400),
        Case(name: "missing chunk size", raw: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n;ext\r\n", status: 400),
        Case(name: "chunk longer than declared", raw: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n", status: 400),
        Case(name: "control byte in chunk extension", raw: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2;a\u{1}\r\nab\r\n0\r\n\r\n", status: 400),
        Case(name: "malformed trailer", raw: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n", status: 400),
    ]

    @Test(arguments: cases)
    func rejects(_ testCase: Case) {
        let outcome = parse(testCase.raw)
        #expect(outcome.requests.isEmpty)
        #expect(outcome.error?.status == testCase.status, "\(String(describing: outcome.error))")
    }

    @Test func errorMessagesSayWhatAndWhere() {
        #expect(parse("GET / HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nBroken\r\n\r\n").error?.description
            == "malformed header on line 4: no ':' in 'Broken'")
        #expect(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 12a\r\n\r\n").error?.description
            == "Content-Length '12a' is not a non-negative decimal number")
        #expect(parse("GET / HTTP/3.0\r\n\r\n").error?.description
            == "HTTP version 'HTTP/3.0' is not supported; use HTTP/1.1 or HTTP/1.0")
    }

    @Test func refusesALongRequestLineBeforeItEnds() {
        let limits = HTTPParserLimits(maxRequestLineLength: 64)
        let outcome = parse("GET /" + String(repeating: "a", count: 100), limits: limits)
        #expect(outcome.error == .requestLineTooLong(limit: 64))
        #expect(outcome.error?.status == 414)
        #expect(parse("GET /" + String(repeating: "a", count: 50) + " HTTP/1.1\r\nHost: x\r\n\r\n", limits: limits)
            .requests.count == 1)
    }

    @Test func refusesOversizedHeaders() {
        let limits = HTTPParserLimits(maxHeaderLineLength: 32, maxHeaderCount: 3, maxHeaderBytes: 60)
        let longLine = parse("GET / HTTP/1.1\r\nX-Long: " + String(repeating: "v", count: 40), limits: limits)
        #expect(longLine.error == .headerLineTooLong(line: 2, limit: 32))
        let many = parse("GET / HTTP/1.1\r\nHost: x\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits: limits)
        #expect(many.error == .tooManyHeaders(limit: 3))
        let large = parse("GET / HTTP/1.1\r\nHost: x\r\nA: " + String(repeating: "1", count: 25)
            + "\r\nB: " + String(repeating: "2", count: 25) + "\r\n\r\n", limits: limits)
        #expect(large.error == .headersTooLarge(limit: 60))
        #expect([longLine, many, large].allSatisfy { $0.error?.status == 431 })
    }

    @Test func countsTrailersAgainstTheHeaderLimits() {
        let limits = HTTPParserLimits(maxHeaderCount: 2)
        let outcome = parse(
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT1: a\r\nT2: b\r\n\r\n", limits: limits)
        #expect(outcome.error == .tooManyHeaders(limit: 2))
    }

    @Test func refusesAnOversizedContentLengthBeforeReadingTheBody() {
        let limits = HTTPParserLimits(maxBodyBytes: 10)
        let outcome = parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n", limits: limits)
        #expect(outcome.error == .bodyTooLarge(limit: 10))
        #expect(outcome.heads.isEmpty)
        let huge = parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999999\r\n\r\n")
        #expect(huge.error?.status == 413)
        #expect(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits)
            .requests.first?.body.count == 10)
    }

    @Test func refusesAChunkedBodyOverTheLimit() {
        let limits = HTTPParserLimits(maxBodyBytes: 10)
        let overTotal = parse(
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\n", limits: limits)
        #expect(overTotal.error == .bodyTooLarge(limit: 10))
        let hugeSize = parse(
            "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFFFFFFFFFF\r\n", limits: limits)
        #expect(hugeSize.error == .bodyTooLarge(limit: 10))
    }
}
