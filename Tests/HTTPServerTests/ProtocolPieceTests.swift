import Testing
@testable import HTTPServer

@Suite struct KeepAlivePolicyTests {
    @Test(arguments: [
        (HTTPVersion.http1_1, [String](), true),
        (.http1_1, ["close"], false),
        (.http1_1, ["Keep-Alive, Close"], false),
        (.http1_1, ["upgrade", "CLOSE"], false),
        (.http1_1, ["keep-alive"], true),
        (.http1_0, [], false),
        (.http1_0, ["Keep-Alive"], true),
        (.http1_0, ["foo,  keep-alive "], true),
        (.http1_0, ["keep-alive", "close"], false),
    ])
    func decidesFromVersionAndConnectionTokens(version: HTTPVersion, connection: [String], expected: Bool) {
        let headers = HTTPHeaders(connection.map { (name: "Connection", value: $0) })
        #expect(KeepAlivePolicy.clientAllowsReuse(version: version, headers: headers) == expected)
    }

    @Test func theResponseOrTheServerCanCloseToo() {
        #expect(!KeepAlivePolicy.keepsAlive(
            requestVersion: .http1_1, requestHeaders: [:], responseHeaders: ["connection": "Close"]))
        #expect(!KeepAlivePolicy.keepsAlive(
            requestVersion: .http1_1, requestHeaders: [:], responseHeaders: [:], serverWantsClose: true))
        #expect(KeepAlivePolicy.keepsAlive(requestVersion: .http1_1, requestHeaders: [:], responseHeaders: [:]))
    }
}

@Suite struct ResponseEncoderTests {
    func encode(_ response: HTTPResponse, head: Bool = false, keepAlive: Bool = true,
                version: HTTPVersion = .http1_1) -> String {
        String(decoding: ResponseEncoder.encode(
            response, isHeadRequest: head, keepAlive: keepAlive, requestVersion: version, date: "D"), as: UTF8.self)
    }

    @Test func writesStatusHeadersDateAndLength() {
        let text = encode(.json(#"{"records":[]}"#, status: 201))
        #expect(text == "HTTP/1.1 201 Created\r\nContent-Type: application/json; charset=utf-8\r\nDate: D\r\n"
            + "Content-Length: 14\r\n\r\n{\"records\":[]}")
    }

    @Test func ownsTheFramingHeaders() {
        let response = HTTPResponse(
            status: 200, headers: ["Content-Length": "999", "Transfer-Encoding": "chunked", "Connection": "close",
                                   "Date": "Mine"], body: Array("abc".utf8))
        let text = encode(response, keepAlive: false)
        #expect(text == "HTTP/1.1 200 OK\r\nDate: Mine\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
    }

    @Test func omitsTheBodyForHEADAnd204() {
        #expect(encode(.text("hello"), head: true).hasSuffix("Content-Length: 5\r\n\r\n"))
        #expect(encode(HTTPResponse(status: 204, body: [1])) == "HTTP/1.1 204 No Content\r\nDate: D\r\n\r\n")
    }

    @Test func tellsAnHTTP10ClientItIsKeptAlive() {
        #expect(encode(.text(""), version: .http1_0).contains("Connection: keep-alive\r\n"))
    }

    @Test func dropsHeadersThatCouldSplitTheResponse() {
        let text = encode(HTTPResponse(status: 200, headers: [
            "X-Echo": "a\r\nSet-Cookie: evil", "Bad Name": "v", "X-Fine": "ok",
        ]))
        #expect(!text.contains("evil"))
        #expect(!text.contains("Bad Name"))
        #expect(text.contains("X-Fine: ok\r\n"))
    }

    @Test func turnsAnImpossibleStatusInto500() {
        #expect(encode(HTTPResponse(status: 42)).hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
        #expect(encode(HTTPResponse(status: 101)).hasPrefix("HTTP/1.1 500 "))
    }
}

@Suite struct HTTPDateTests {
    @Test(arguments: [
        (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"),
        (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
        (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
        (1_798_761_599, "Thu, 31 Dec 2026 23:59:59 GMT"),
        (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
    ])
    func formatsIMFFixdate(seconds: Int64, expected: String) {
        #expect(HTTPDate.format(secondsSince1970: seconds) == expected)
    }
}

@Suite struct HTTPHeadersTests {
    @Test func looksUpNamesCaseInsensitivelyAndKeepsRepeats() {
        var headers: HTTPHeaders = ["Accept": "a", "X-Tag": "1", "x-tag": "2"]
        #expect(headers["ACCEPT"] == "a")
        #expect(headers.values(for: "X-TAG") == ["1", "2"])
        headers.replaceOrAdd(name: "X-Tag", value: "3")
        #expect(headers.values(for: "x-tag") == ["3"])
        #expect(headers.map(\.name) == ["Accept", "X-Tag"])
        headers.remove(name: "accept")
        #expect(!headers.contains("Accept"))
        #expect(headers.count == 1)
    }

    @Test func splitsTokenLists() {
        let headers: HTTPHeaders = ["Connection": " Keep-Alive ,, Upgrade", "connection": "CLOSE"]
        #expect(headers.tokens(for: "Connection") == ["keep-alive", "upgrade", "close"])
    }
}

@Suite struct AcceptErrorPolicyTests {
    @Test func retriesTransientFailuresAndBacksOffWhenOutOfDescriptors() {
        #expect(AcceptErrorPolicy.decide(errno: 11, previousPause: nil) == .waitForReadiness)  // EAGAIN
        #expect(AcceptErrorPolicy.decide(errno: 4, previousPause: nil) == .tryNext)  // EINTR
        #expect(AcceptErrorPolicy.decide(errno: 103, previousPause: nil) == .tryNext)  // ECONNABORTED
        #expect(AcceptErrorPolicy.decide(errno: 24, previousPause: nil) == .pause(.milliseconds(10)))  // EMFILE
        #expect(AcceptErrorPolicy.decide(errno: 23, previousPause: .milliseconds(10)) == .pause(.milliseconds(20)))
        #expect(AcceptErrorPolicy.decide(errno: 24, previousPause: .milliseconds(800)) == .pause(.seconds(1)))
    }
}

@Suite struct HTTPRequestTests {
    @Test func splitsPathAndQueryWithoutDecoding() {
        let request = HTTPRequest(method: "GET", target: "/v0/app/Tea%3F?filterByFormula=%7Bname%7D%3D%27a%27&x=?")
        #expect(request.path == "/v0/app/Tea%3F")
        #expect(request.query == "filterByFormula=%7Bname%7D%3D%27a%27&x=?")
        #expect(HTTPRequest(method: "GET", target: "/plain").query == nil)
    }
}
