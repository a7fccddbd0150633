import Testing
@testable import HTTPServer

/// One address cannot hold the server: per-address caps on connections and streams, in the pure policy and
/// live (127.0.0.1 holding connections, the screen on 127.0.0.2 still served).
@Suite(.timeLimit(.minutes(2))) struct AdmissionTests {
    private static let limits = AdmissionPolicy.Limits(connections: 10, connectionsPerAddress: 3, streams: 4,
                                                       streamsPerAddress: 2)

    @Test func anAddressAtItsCapIsRefusedWhileOthersAreServed() {
        var policy = AdmissionPolicy(limits: Self.limits)
        for _ in 0..<3 { #expect(policy.admitConnection(from: "127.0.0.1") == .admit) }
        guard case .refuse(let reason) = policy.admitConnection(from: "127.0.0.1") else {
            Issue.record("a fourth connection from one address was admitted")
            return
        }
        #expect(reason.contains("from your address"))
        #expect(policy.admitConnection(from: "127.0.0.2") == .admit)
        #expect(policy.connections(from: "127.0.0.1") == 3 && policy.connections == 4)
        // One closes: that address may connect again.
        policy.connectionClosed(from: "127.0.0.1")
        #expect(policy.admitConnection(from: "127.0.0.1") == .admit)
    }

    @Test func theTotalCapStillHolds() {
        var policy = AdmissionPolicy(limits: Self.limits)
        for address in 0..<10 { #expect(policy.admitConnection(from: "10.0.0.\(address)") == .admit) }
        #expect(policy.admitConnection(from: "10.0.0.99") == .refuse("the server is at its connection limit; try again shortly"))
        policy.connectionClosed(from: "10.0.0.3")
        #expect(policy.admitConnection(from: "10.0.0.99") == .admit)
    }

    @Test func streamsAreCappedPerAddressAndInTotal() {
        var policy = AdmissionPolicy(limits: Self.limits)
        #expect(policy.admitStream(from: "a") == .admit)
        #expect(policy.admitStream(from: "a") == .admit)
        #expect(policy.admitStream(from: "a") != .admit)
        #expect(policy.admitStream(from: "b") == .admit)
        #expect(policy.admitStream(from: "c") == .admit)
        #expect(policy.admitStream(from: "d") != .admit, "four streams are the total")
        policy.streamClosed(from: "a")
        #expect(policy.streams(from: "a") == 1)
        #expect(policy.admitStream(from: "d") == .admit)
    }

    @Test(arguments: [("127.0.0.1:51234", "127.0.0.1"), ("[::1]:8080", "[::1]"), ("", "")])
    func theClientIsTheHostWithoutItsPort(_ address: String, _ client: String) {
        #expect(AdmissionPolicy.client(of: address) == client)
    }

    @Test func silentConnectionsFromOneAddressDoNotKeepAnotherOut() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.timeouts.header = .seconds(120)  // the silent ones stay for the whole test
        try await withServer(configuration) { _, port in
            let silent = try await TestClient.many(100, port: port, sending: "", source: "127.0.0.1")
            let other = try TestClient(port: port, readTimeout: 5, source: "127.0.0.2")
            try await other.send("GET /screen HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try await other.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text == "GET /screen ")
            // And 127.0.0.1 itself is told why it waits.
            let more = try TestClient(port: port, source: "127.0.0.1")
            try await more.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let refused = try await more.readResponse()
            #expect(refused.status == 503)
            #expect(refused.text.contains("from your address"))
            _ = silent.count
        }
    }

    @Test func streamsFromOneAddressLeaveRoomForTheScreen() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.maxStreamsPerAddress = 2
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { _ in
            let stream = HTTPResponseStream()
            stream.send(Array("data: hello\n\n".utf8))
            return .eventStream(stream)
        }
        try await withServer(configuration, handler: handler) { _, port in
            var held: [TestClient] = []
            for _ in 0..<2 {
                let client = try TestClient(port: port, source: "127.0.0.1")
                try await client.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await client.readUntil("data: hello")?.hasPrefix("HTTP/1.1 200") == true)
                held.append(client)
            }
            let third = try TestClient(port: port, source: "127.0.0.1")
            try await third.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await third.readResponse().status == 503)
            let screen = try TestClient(port: port, source: "127.0.0.2")
            try await screen.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await screen.readUntil("data: hello")?.hasPrefix("HTTP/1.1 200") == true)
            _ = held.count
        }
    }

    @Test func aStreamWhoseClientDoesNotReadIsClosedAndItsPlaceFreed() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.maxStreamsPerAddress = 1
        configuration.timeouts.write = .milliseconds(300)
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
            let stream = HTTPResponseStream()
            // More than the kernel's buffers hold for a client that never reads, less than the server's backlog cap.
            if request.target == "/flood" { stream.send([UInt8](repeating: 0x61, count: 900 * 1_024)) }
            stream.send(Array("data: hello\n\n".utf8))
            return .eventStream(stream)
        }
        try await withServer(configuration, handler: handler) { _, port in
            let stalled = try TestClient(port: port, receiveBufferSize: 4_096, source: "127.0.0.1")
            try await stalled.send("GET /flood HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await stalled.readResponse(forHead: true).status == 200)  // the head, and then no more reading
            // Its stream is the address's one; once the write deadline closes it, a new one is admitted (asked
            // every 0.2 s for up to 30 s: a loaded machine may be slow, a server that never closes it fails).
            var status = 0
            for _ in 0..<150 where status != 200 {
                let next = try TestClient(port: port, source: "127.0.0.1")
                try await next.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                status = try await next.readResponse(forHead: true).status
                if status != 200 { try await Task.sleep(for: .milliseconds(200)) }
            }
            #expect(status == 200)
            _ = stalled
        }
    }
}
