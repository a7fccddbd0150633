import Foundation
@preconcurrency import Glibc
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TestSupport
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
            var random = SplitMix64(seed: 0x5EED_50C4)
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

    /// Whether this machine has an IPv6 loopback to bind (containers sometimes do not).
    static let hasIPv6Loopback: Bool = {
        let fd = socket(AF_INET6, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_addr = in6addr_loopback
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) == 0
            }
        }
    }()

    @Test(.enabled(if: hasIPv6Loopback))
    func servesOverIPv6WithTheBracketedPeerAddress() async throws {
        try await withServer(HTTPServer.Configuration(host: "::1", port: 0), handler: { request in
            .text(request.remoteAddress ?? "none")
        }) { _, port in
            let client = try TestClient(host: "::1", port: port)
            try await client.send("GET / HTTP/1.1\r\nHost: [::1]\r\n\r\n")
            #expect(try await client.readResponse().text.hasPrefix("[::1]:"))
        }
    }
}
