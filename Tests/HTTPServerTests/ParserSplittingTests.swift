import Testing
@testable import HTTPServer

/// Bytes arrive in arbitrary pieces; the parser must make the same requests of them however they are cut.
@Suite struct ParserSplittingTests {
    static let streams: [String] = [
        "GET /v0/app1/Drink?fields%5B%5D=name HTTP/1.1\r\nHost: localhost:8080\r\nAuthorization: Bearer t\r\n\r\n",
        "POST /v0/app1/OrderDrink HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 23\r\n\r\n"
            + "{\"records\":[{\"a\":\"b\"}]}",
        "PATCH /t HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nT: v\r\n\r\n"
            + "GET /next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "\r\nDELETE /a HTTP/1.0\nContent-Length: 0\n\nGET /b HTTP/1.1\nHost: y\n\n",
    ]

    @Test(arguments: streams)
    func sameRequestsAtEverySplitPoint(_ text: String) {
        let raw = bytes(text)
        let whole = parse(chunks: [raw])
        #expect(whole.error == nil)
        #expect(!whole.requests.isEmpty)
        for cut in 0...raw.count {
            let split = parse(chunks: [Array(raw[..<cut]), Array(raw[cut...])])
            #expect(split == whole, "split at byte \(cut)")
        }
    }

    @Test(arguments: streams)
    func sameRequestsFedOneByteAtATime(_ text: String) {
        let raw = bytes(text)
        #expect(parse(chunks: raw.map { [$0] }) == parse(chunks: [raw]))
    }

    @Test func sameErrorAtEverySplitPoint() {
        let raw = bytes("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n")
        let whole = parse(chunks: [raw])
        #expect(whole.error == .malformedChunk("chunk data is longer than its declared size (no CRLF after it)"))
        for cut in 0...raw.count {
            #expect(parse(chunks: [Array(raw[..<cut]), Array(raw[cut...])]) == whole, "split at byte \(cut)")
        }
    }
}
