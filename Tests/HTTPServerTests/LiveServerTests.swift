import Synchronization
import Testing
@testable import HTTPServer

@Suite struct LiveServerTests {
    @Test func answersARequestAndKeepsTheConnectionAlive() async throws {
        let peers = Mutex<[String?]>([])
        try await withServer(handler: { request in
            peers.withLock { $0.append(request.remoteAddress) }
            return await echo(request)
        }) { _, port in
            let client = try TestClient(port: port)
            try await client.send("GET /a?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let first = try await client.readResponse()
            #expect(first.status == 200)
            #expect(first.text == "GET /a?x=1 ")
            #expect(first.headers["Connection"] == nil)
            #expect(first.headers["Date"]?.hasSuffix(" GMT") == true)
            try await client.send("POST /b HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello")
            let second = try await client.readResponse()
            #expect(second.text == "POST /b hello")
        }
        let seen = peers.withLock { $0 }
        #expect(seen.count == 2)
        #expect(seen[0]?.hasPrefix("127.0.0.1:") == true)
        #expect(seen[0] == seen[1], "both requests came over one connection")
    }

    @Test func answersPipelinedRequestsInOrder() async throws {
        try await withServer(handler: { request in
            // The first takes longest, so answering in completion order would show up as a reordering.
            if request.target == "/1" { try? await Task.sleep(for: .milliseconds(50)) }
            return await echo(request)
        }) { _, port in
            let client = try TestClient(port: port)
            try await client.send(
                "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPOST /2 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n0\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n")
            var texts: [String] = []
            for _ in 0..<3 { texts.append(try await client.readResponse().text) }
            #expect(texts == ["GET /1 ", "POST /2 abc", "GET /3 "])
        }
    }

    @Test func closesWhenTheClientAsksAndForHTTP10WithoutKeepAlive() async throws {
        try await withServer { _, port in
            let closing = try TestClient(port: port)
            try await closing.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: Keep-Alive, CLOSE\r\n\r\n")
            #expect(try await closing.readResponse().headers["Connection"] == "close")
            #expect(await closing.isClosedByServer())

            let old = try TestClient(port: port)
            try await old.send("GET / HTTP/1.0\r\n\r\n")
            #expect(try await old.readResponse().headers["Connection"] == "close")
            #expect(await old.isClosedByServer())

            let oldKeepAlive = try TestClient(port: port)
            try await oldKeepAlive.send("GET /1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try await oldKeepAlive.readResponse().headers["Connection"] == "keep-alive")
            try await oldKeepAlive.send("GET /2 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(try await oldKeepAlive.readResponse().text == "GET /2 ")
        }
    }

    @Test func honoursAHandlersConnectionClose() async throws {
        try await withServer(handler: { _ in HTTPResponse(status: 200, headers: ["Connection": "close"]) }) { _, port in
            let client = try TestClient(port: port)
            try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().headers["Connection"] == "close")
            #expect(await client.isClosedByServer())
        }
    }

    @Test func answersARequestSentBeforeTheClientHalfCloses() async throws {
        try await withServer { _, port in
            let client = try TestClient(port: port)
            try await client.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
            client.shutdownWrite()
            #expect(try await client.readResponse().text == "GET /1 ")
            #expect(try await client.readResponse().text == "GET /2 ")
            #expect(await client.isClosedByServer())
        }
    }

    @Test func sendsHeadersButNoBodyForHEAD() async throws {
        try await withServer(handler: { _ in .text("twelve bytes") }) { _, port in
            let client = try TestClient(port: port)
            try await client.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try await client.readResponse(forHead: true)
            #expect(head.headers["Content-Length"] == "12")
            #expect(head.body.isEmpty)
            // Had a body followed the HEAD response, it would be read here as a broken status line.
            #expect(try await client.readResponse().text == "twelve bytes")
        }
    }

    @Test func sendsContinueBeforeReadingAnExpectedBody() async throws {
        try await withServer { _, port in
            let client = try TestClient(port: port)
            try await client.send("PUT /t HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
            let interim = try await client.readResponse()
            #expect(interim.status == 100)
            try await client.send("body")
            let final = try await client.readResponse()
            #expect(final.status == 200)
            #expect(final.text == "PUT /t body")
        }
    }

    @Test func refusesAnOversizedExpectedBodyWithoutAskingForIt() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.limits.maxBodyBytes = 100
        try await withServer(configuration) { _, port in
            let client = try TestClient(port: port)
            try await client.send("PUT /t HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 101\r\n\r\n")
            let response = try await client.readResponse()
            #expect(response.status == 413)
            #expect(response.text.contains("larger than 100 bytes"))
            #expect(response.headers["Connection"] == "close")
            #expect(await client.isClosedByServer())
        }
    }

    @Test func enforcesTheSizeLimits() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.limits = HTTPParserLimits(
            maxRequestLineLength: 100, maxHeaderLineLength: 100, maxHeaderCount: 5, maxBodyBytes: 10)
        try await withServer(configuration) { _, port in
            let cases: [(String, Int)] = [
                ("GET /" + String(repeating: "a", count: 200) + " HTTP/1.1\r\n\r\n", 414),
                ("GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + String(repeating: "b", count: 200) + "\r\n\r\n", 431),
                ("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "A: 1\r\n", count: 6) + "\r\n", 431),
                ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 11\r\n\r\n01234567890", 413),
                ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nB\r\n01234567890\r\n0\r\n\r\n", 413),
                ("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                ("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
                ("GET / HTTP/2.0\r\n\r\n", 505),
                ("\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}\r\n", 400),
            ]
            for (raw, status) in cases {
                let client = try TestClient(port: port)
                try await client.send(raw)
                let response = try await client.readResponse()
                #expect(response.status == status, "\(raw.prefix(40))")
                #expect(response.headers["Connection"] == "close")
                #expect(await client.isClosedByServer())
            }
        }
    }

    @Test func logsMethodPathStatusAndTimeButNeverHeadersOrQuery() async throws {
        let entries = Mutex<[HTTPRequestLogEntry]>([])
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.log = { entry in entries.withLock { $0.append(entry) } }
        try await withServer(configuration, handler: { _ in HTTPResponse(status: 201) }) { _, port in
            let client = try TestClient(port: port)
            try await client.send("POST /v0/app/Drink?api_key=secret HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: Bearer patSECRET\r\nContent-Length: 0\r\n\r\n")
            _ = try await client.readResponse()
            try await client.send("GARBAGE\r\n")
            _ = try await client.readResponse()
        }
        let logged = entries.withLock { $0 }
        #expect(logged.map(\.method) == ["POST", "-"])
        #expect(logged.map(\.path) == ["/v0/app/Drink", "-"])
        #expect(logged.map(\.status) == [201, 400])
        #expect(logged.allSatisfy { $0.milliseconds >= 0 })
        #expect(!logged.map(\.description).joined().contains("secret"))
        #expect(!logged.map(\.description).joined().contains("SECRET"))
    }

    @Test func survivesAClientThatLeavesMidResponse() async throws {
        let big = [UInt8](repeating: 0x61, count: 8 * 1_024 * 1_024)
        try await withServer(handler: { request in
            request.target == "/big" ? HTTPResponse(status: 200, body: big) : .text("still here")
        }) { _, port in
            for _ in 0..<3 {
                let leaving = try TestClient(port: port)
                try await leaving.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = leaving  // closed here, mid-response: the server must not die of SIGPIPE
            }
            let client = try TestClient(port: port)
            try await client.send("GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "still here")
        }
    }

    @Test func finishesALargeResponseBeforeTheNextPipelinedOne() async throws {
        var pattern = [UInt8](repeating: 0x62, count: 6 * 1_024 * 1_024)
        for index in stride(from: 0, to: pattern.count, by: 4_099) { pattern[index] = UInt8(truncatingIfNeeded: index) }
        let big = pattern
        let (answered, answeredSignal) = AsyncStream<Void>.makeStream()
        try await withServer(handler: { request in
            if request.target == "/big" { answeredSignal.yield() }
            return request.target == "/big" ? HTTPResponse(status: 200, body: big) : .text("small")
        }) { _, port in
            // A small receive buffer and nothing read until the big answer is under way: the server's
            // writes must wait for the client many times over (6 MB through a few kilobytes).
            let client = try TestClient(port: port, receiveBufferSize: 4_096)
            try await client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /small HTTP/1.1\r\nHost: x\r\n\r\n")
            for await _ in answered { break }
            #expect(try await client.readResponse().body == big)
            #expect(try await client.readResponse().text == "small")
        }
    }
}
