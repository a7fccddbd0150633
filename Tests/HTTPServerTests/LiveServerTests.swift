import Testing
@testable import HTTPServer

@Suite struct LiveServerTests {
    @Test func answersARequestAndKeepsTheConnectionAlive() async throws {
        try await withServer { _, port in
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
    }
}
