import Airtable
import Testing
@testable import AirtableServer

/// The API over real sockets: kept-alive and pipelined connections, auth and rate-limit answers as
/// clients see them on the wire.
@Suite struct LiveProtocolTests {
    @Test func oneConnectionServesManyRequestsInOrderPipelinedOrNot() async throws {
        try await LiveAPI.run { live in
            let base = live.harness.base.baseID
            let connection = try RawConnection(port: live.port)
            try await connection.send(rawRequest("POST", "/v0/\(base)/OrderDrink", body: "{\"fields\":{\"orderName\":\"Amy\"}}"))
            let created = try await connection.readResponse()
            #expect(created.status == 200)
            #expect(created.header("Content-Type") == "application/json; charset=utf-8")
            #expect(created.header("Connection") == nil)  // HTTP/1.1 stays open
            let id = try #require(created.json["id"]?.stringValue)
            // Three requests in one write: answered in order on the same connection.
            try await connection.send(rawRequest("GET", "/v0/\(base)/OrderDrink/\(id)")
                + rawRequest("HEAD", "/v0/\(base)/OrderDrink")
                + rawRequest("PATCH", "/v0/\(base)/OrderDrink/\(id)", body: "{\"fields\":{\"price\":50}}"))
            let get = try await connection.readResponse()
            let head = try await connection.readResponse(head: true)
            let patch = try await connection.readResponse()
            #expect(get.json["fields"] == ["orderName": "Amy"])
            #expect(head.status == 200 && head.body.isEmpty && Int(head.header("Content-Length") ?? "") ?? 0 > 0)
            #expect(patch.json["fields"] == ["orderName": "Amy", "price": 50])
            // Errors keep the connection too.
            try await connection.send(rawRequest("GET", "/v0/\(base)/Nope") + rawRequest("GET", "/v0/\(base)/OrderDrink", token: nil))
            #expect(try await connection.readResponse().status == 403)
            #expect(try await connection.readResponse().status == 401)
            try await connection.send(rawRequest("DELETE", "/v0/\(base)/OrderDrink/\(id)",
                                                 extraHeaders: ["Content-Type: application/json", "Connection: close"]))
            let deleted = try await connection.readResponse()
            #expect(deleted.json == ["id": .string(id), "deleted": true])
            #expect(deleted.header("Connection") == "close")
            #expect(try await connection.readToEnd().isEmpty)
        }
    }

    @Test func authAndPermissionErrorsOnTheWire() async throws {
        try await LiveAPI.run { live in
            let base = live.harness.base.baseID
            let connection = try RawConnection(port: live.port)
            try await connection.send(rawRequest("GET", "/v0/\(base)/OrderDrink", token: "patWRONG0000000"))
            let unauthorized = try await connection.readResponse()
            #expect(unauthorized.status == 401)
            #expect(unauthorized.json == ["error": ["type": "AUTHENTICATION_REQUIRED", "message": "Authentication required"]])
            try await connection.send(rawRequest("POST", "/v0/\(base)/OrderDrink", token: APIHarness.reader,
                                                 body: "{\"fields\":{\"orderName\":\"Amy\"}}"))
            let forbidden = try await connection.readResponse()
            #expect(forbidden.status == 403)
            #expect(forbidden.json["error"]?["type"] == "INVALID_PERMISSIONS")
            #expect(try await live.harness.orders().isEmpty)
        }
    }

    @Test func overTheRateLimitTheWireCarriesRetryAfterAndNothingIsWritten() async throws {
        try await LiveAPI.run(rateLimit: 2) { live in
            let base = live.harness.base.baseID
            let connection = try RawConnection(port: live.port)
            var statuses: [Int] = []
            var retryAfter: String?
            for index in 0..<4 {
                try await connection.send(rawRequest("POST", "/v0/\(base)/OrderDrink", body: "{\"fields\":{\"orderName\":\"cup \(index)\"}}"))
                let reply = try await connection.readResponse()
                statuses.append(reply.status)
                if reply.status == 429 {
                    retryAfter = reply.header("Retry-After")
                    #expect(reply.json["error"]?["type"] == "RATE_LIMIT_REACHED")
                }
            }
            #expect(statuses == [200, 200, 429, 429])
            #expect(retryAfter == "30")
            let names = try await live.harness.orders().values.compactMap { $0["orderName"]?.stringValue }.sorted()
            #expect(names == ["cup 0", "cup 1"])
        }
    }
}
