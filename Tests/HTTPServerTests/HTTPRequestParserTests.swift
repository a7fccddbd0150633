import Testing
@testable import HTTPServer

@Suite struct HTTPRequestParserTests {
    @Test func parsesASimpleGet() throws {
        let outcome = parse("GET /v0/app1/Drink?maxRecords=3 HTTP/1.1\r\nHost: localhost\r\nAccept: */*\r\n\r\n")
        #expect(outcome.error == nil)
        let request = try #require(outcome.requests.first)
        #expect(request.method == "GET")
        #expect(request.target == "/v0/app1/Drink?maxRecords=3")
        #expect(request.path == "/v0/app1/Drink")
        #expect(request.query == "maxRecords=3")
        #expect(request.version == .http1_1)
        #expect(request.headers["host"] == "localhost")
        #expect(request.body.isEmpty)
        #expect(outcome.heads.count == 1)
    }

    @Test func keepsTheTargetUndecoded() throws {
        let outcome = parse("GET /v0/app1/Drinks%2FTea%20Menu HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try #require(outcome.requests.first).target == "/v0/app1/Drinks%2FTea%20Menu")
    }

    @Test func reducesAbsoluteFormTargetsToOriginForm() throws {
        #expect(parse("GET http://example.test:8080/a/b?c=1 HTTP/1.1\r\nHost: x\r\n\r\n").requests.first?.target == "/a/b?c=1")
        #expect(parse("GET HTTP://example.test HTTP/1.1\r\nHost: x\r\n\r\n").requests.first?.target == "/")
        #expect(parse("GET http://example.test?q HTTP/1.1\r\nHost: x\r\n\r\n").requests.first?.target == "/?q")
    }

    @Test func acceptsTheAsteriskTargetForOPTIONS() {
        #expect(parse("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n").requests.first?.target == "*")
    }

    @Test func keepsRepeatedHeadersInOrderAndTrimsOptionalWhitespace() throws {
        let outcome = parse("GET / HTTP/1.1\r\nHost: x\r\nX-Tag:  one \t\r\nx-tag:two\r\n\r\n")
        let request = try #require(outcome.requests.first)
        #expect(request.headers.values(for: "X-TAG") == ["one", "two"])
        #expect(request.headers.count == 3)
    }

    @Test func readsAContentLengthBody() throws {
        let outcome = parse("POST /OrderDrink HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n{\"a\":\"b\"}\r\n")
        #expect(outcome.requests.first?.body == bytes("{\"a\":\"b\"}\r\n"))
        #expect(outcome.heads.first?.framing == .length(11))
    }

    @Test func acceptsRepeatedIdenticalContentLengths() {
        #expect(parse("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc")
            .requests.first?.body == bytes("abc"))
    }

    @Test func decodesAChunkedBodyWithExtensionsAndTrailers() throws {
        let raw = "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Checksum: 42\r\n\r\n"
        let outcome = parse(raw)
        #expect(outcome.error == nil)
        let request = try #require(outcome.requests.first)
        #expect(request.body == bytes("helloabcdefghijklmnopqrstuvwxyz"))
        #expect(request.trailers["x-checksum"] == "42")
        #expect(request.headers["X-Checksum"] == nil)
        #expect(outcome.heads.first?.framing == .chunked)
    }

    @Test func acceptsBareLineFeedsAsLineEnds() throws {
        let outcome = parse("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n")
        #expect(outcome.requests.first?.body == bytes("abc"))
    }

    @Test func parsesPipelinedRequestsInOrder() {
        let raw = "GET /1 HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi"
            + "\r\nPOST /3 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nyo\r\n0\r\n\r\n"
            + "GET /4 HTTP/1.0\r\n\r\n"
        let outcome = parse(raw)
        #expect(outcome.error == nil)
        #expect(outcome.requests.map(\.target) == ["/1", "/2", "/3", "/4"])
        #expect(outcome.requests.map(\.body) == [[], bytes("hi"), bytes("yo"), []])
        #expect(outcome.requests.last?.version == .http1_0)
    }

    @Test func waitsForMoreBytesWithoutAnEvent() throws {
        var parser = HTTPRequestParser()
        parser.append(bytes("GET / HTTP/1.1\r\nHost: x\r\n"))
        #expect(try parser.nextEvent() == nil)
        #expect(!parser.isIdle)
        parser.append(bytes("\r\n"))
        guard case .head? = try parser.nextEvent() else { Issue.record("expected the head"); return }
        guard case .request? = try parser.nextEvent() else { Issue.record("expected the request"); return }
        #expect(parser.isIdle)
    }

    @Test func reportsAnExpectationOfContinueOnlyForHTTP11() {
        let expecting = parse("PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\n")
        #expect(expecting.heads.first?.expectsContinue == true)
        #expect(expecting.requests.isEmpty)
        let old = parse("PUT / HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n")
        #expect(old.heads.first?.expectsContinue == false)
        #expect(parse("PUT / HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\n\r\n").error?.status == 417)
    }

    @Test func servesOtherMinorVersionsAsHTTP11() {
        #expect(parse("GET / HTTP/1.7\r\nHost: x\r\n\r\n").requests.first?.version == HTTPVersion(major: 1, minor: 7))
    }

    @Test func skipsAFewEmptyLinesBeforeARequest() {
        #expect(parse("\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n").requests.count == 1)
        #expect(parse(String(repeating: "\r\n", count: 20) + "GET / HTTP/1.1\r\n").error?.status == 400)
    }

    @Test func staysFailedAfterAnError() {
        var parser = HTTPRequestParser()
        parser.append(bytes("BAD REQUEST LINE HERE\r\n"))
        #expect(throws: HTTPParseError.self) { try parser.nextEvent() }
        parser.append(bytes("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
        #expect(throws: HTTPParseError.self) { try parser.nextEvent() }
        #expect(parser.failure != nil)
    }

    @Test func decodesNonUTF8HeaderValuesByteForByteAsLatin1() throws {
        var raw = bytes("GET / HTTP/1.1\r\nHost: x\r\nX-Name: caf")
        raw += [0xE9] + bytes("\r\nX-Tea: \u{7D05}\u{8336}\r\n\r\n")
        let request = try #require(parse(chunks: [raw]).requests.first)
        #expect(request.headers["X-Name"] == "café")
        #expect(request.headers["X-Tea"] == "紅茶")
    }
}
