import Testing
@testable import HTTPServer

/// One network cannot hold the server: per-network caps and fair shares of connections and streams, in the pure
/// policy and live (127.0.0.x holding connections, the screen on another /24, 127.1.0.1, still served).
@Suite(.timeLimit(.minutes(2))) struct AdmissionTests {
    private static let limits = AdmissionPolicy.Limits(connections: 10, connectionsPerNetwork: 3, streams: 4,
                                                       streamsPerNetwork: 2)

    @Test func aNetworkAtItsCapIsRefusedWhileOthersAreServed() {
        var policy = AdmissionPolicy(limits: Self.limits)
        for _ in 0..<3 { #expect(policy.admitConnection(from: "127.0.0.0/24") == .admit) }
        guard case .refuse(let reason) = policy.admitConnection(from: "127.0.0.0/24") else {
            Issue.record("a fourth connection from one network was admitted")
            return
        }
        #expect(reason.contains("from your network"))
        #expect(policy.admitConnection(from: "127.1.0.0/24") == .admit)
        #expect(policy.connections(from: "127.0.0.0/24") == 3 && policy.connections == 4)
        // One closes: that network may connect again.
        policy.connectionClosed(from: "127.0.0.0/24")
        #expect(policy.admitConnection(from: "127.0.0.0/24") == .admit)
    }

    @Test func theTotalCapStillHolds() {
        var policy = AdmissionPolicy(limits: Self.limits)
        for network in 0..<10 { #expect(policy.admitConnection(from: "10.0.\(network).0/24") == .admit) }
        #expect(policy.admitConnection(from: "10.0.99.0/24") == .full("the server is at its connection limit; try again shortly"))
        policy.connectionClosed(from: "10.0.3.0/24")
        #expect(policy.admitConnection(from: "10.0.99.0/24") == .admit)
    }

    @Test func aNetworkTakesNoMoreThanItsFairShareWhateverItsOwnCap() {
        var policy = AdmissionPolicy(limits: .init(connections: 10, connectionsPerNetwork: 100, streams: 4, streamsPerNetwork: 100))
        var admitted = 0
        while policy.admitConnection(from: "a") == .admit { admitted += 1 }
        #expect(admitted == 5, "half of the ten")
        // The next network gets half of what is left, and so on: the first one never fills the server.
        #expect(policy.admitConnection(from: "b") == .admit)
        #expect(policy.admitConnection(from: "b") == .admit)
        #expect(policy.admitConnection(from: "b") == .admit)
        #expect(policy.admitConnection(from: "b") != .admit)
        #expect(policy.admitConnection(from: "c") == .admit)
        #expect(policy.connections == 9)
    }

    @Test func streamsAreCappedPerNetworkAndInTotal() {
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

    @Test func manyAddressesOfOneNetworkAreOneNetworkLive() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.timeouts.header = .seconds(120)  // the silent ones stay for the whole test
        configuration.maxConnectionsPerNetwork = 6
        try await withServer(configuration) { _, port in
            var silent: [TestClient] = []
            for host in 2..<8 { silent.append(try TestClient(port: port, source: "127.0.0.\(host)")) }
            // A seventh address of the same /24 is refused; an address of another /24 is served.
            let more = try TestClient(port: port, source: "127.0.0.9")
            try await more.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let refused = try await more.readResponse()
            #expect(refused.status == 503)
            #expect(refused.text.contains("from your network"))
            let other = try TestClient(port: port, readTimeout: 5, source: "127.1.0.1")
            try await other.send("GET /screen HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await other.readResponse().status == 200)
            _ = silent.count
        }
    }

    @Test func whenEverySlotIsTakenAnIdleConnectionOfTheBiggestNetworkMakesRoom() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.timeouts.header = .seconds(120)
        configuration.maxConnections = 10
        var held: [TestClient] = []
        try await withServer(configuration) { _, port in
            // Fair shares of ten: 5, then 3, 1 and 1 from four networks fill the server with silent connections.
            for (network, count) in [(0, 5), (1, 3), (2, 1), (3, 1)] {
                for host in 0..<count { held.append(try TestClient(port: port, source: "127.0.\(network).\(host + 2)")) }
            }
            try await Task.sleep(for: .milliseconds(200))
            let late = try TestClient(port: port, readTimeout: 5, source: "127.0.9.1")
            try await late.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await late.readResponse().status == 200)
            _ = held.count
        }
    }

    @Test func silentConnectionsFromOneAddressDoNotKeepAnotherOut() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.timeouts.header = .seconds(120)  // the silent ones stay for the whole test
        try await withServer(configuration) { _, port in
            let silent = try await TestClient.many(100, port: port, sending: "", source: "127.0.0.1")
            let other = try TestClient(port: port, readTimeout: 5, source: "127.1.0.2")
            try await other.send("GET /screen HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try await other.readResponse()
            #expect(answer.status == 200)
            #expect(answer.text == "GET /screen ")
            // And 127.0.0.1 itself is told why it waits.
            let more = try TestClient(port: port, source: "127.0.0.1")
            try await more.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            let refused = try await more.readResponse()
            #expect(refused.status == 503)
            #expect(refused.text.contains("from your network"))
            _ = silent.count
        }
    }

    @Test func streamsFromOneAddressLeaveRoomForTheScreen() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.maxStreamsPerNetwork = 2
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
            let screen = try TestClient(port: port, source: "127.1.0.2")
            try await screen.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await screen.readUntil("data: hello")?.hasPrefix("HTTP/1.1 200") == true)
            _ = held.count
        }
    }

    @Test func aStreamWhoseClientDoesNotReadIsClosedAndItsPlaceFreed() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.maxStreamsPerNetwork = 1
        configuration.timeouts.write = .milliseconds(300)
        let handler: @Sendable (HTTPRequest) async -> HTTPResponse = { request in
            let stream = HTTPResponseStream()
            // More than the kernel's buffers hold for a client that never reads, less than the server's backlog cap.
            if request.target == "/flood" { stream.send([UInt8](repeating: 0x61, count: 48 * 1_024)) }
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
