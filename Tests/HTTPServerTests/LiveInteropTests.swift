import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTPServer

/// Real clients and hostile bytes against a live server.
@Suite struct LiveInteropTests {
    @Test func servesURLSessionOverOneKeptAliveConnection() async throws {
        try await withServer(handler: { request in
            .json(#"{"method":"\#(request.method)","bytes":\#(request.body.count),"peer":"\#(request.remoteAddress ?? "")"}"#)
        }) { _, port in
            let session = URLSession(configuration: .ephemeral)
            defer { session.finishTasksAndInvalidate() }
            var peers: Set<String> = []
            for method in ["GET", "POST", "PATCH", "DELETE"] {
                var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(port)/v0/app/Drink?x=1")))
                request.httpMethod = method
                if method == "POST" || method == "PATCH" {
                    request.httpBody = Data(#"{"records":[{"fields":{"name":"熟成紅茶"}}]}"#.utf8)
                    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                }
                let (data, response) = try await session.data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                #expect(http.statusCode == 200)
                let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                #expect(object["method"] as? String == method)
                if let peer = object["peer"] as? String { peers.insert(peer) }
            }
            #expect(peers.count == 1, "URLSession reused one connection: \(peers)")
        }
    }

    @Test func survivesMutatedRequestsOverSockets() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.limits = ParserFuzzTests.limits
        try await withServer(configuration) { _, port in
            var random = SplitMix64(state: 0x5EED_50C4)
            var answered = 0
            for _ in 0..<300 {
                var raw = ParserFuzzTests.corpus.randomElement(using: &random) ?? []
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0..<max(1, raw.count), using: &random)
                    if raw.isEmpty || Bool.random(using: &random) {
                        raw.insert(ParserFuzzTests.interesting.randomElement(using: &random) ?? 0, at: min(at, raw.count))
                    } else {
                        raw[at] = UInt8.random(in: 0...255, using: &random)
                    }
                }
                let client = try TestClient(port: port)
                try await client.send(raw)
                client.shutdownWrite()  // an incomplete request then ends at once instead of at a deadline
                if let reply = await client.readToEnd(), !reply.isEmpty {
                    #expect(reply.starts(with: Array("HTTP/1.1 ".utf8)))
                    answered += 1
                }
            }
            #expect(answered > 100)
            let client = try TestClient(port: port)
            try await client.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await client.readResponse().text == "GET /after ")
        }
    }
}
