@preconcurrency import Glibc
import Synchronization
import Testing
@testable import HTTPServer

/// Deadlines, the connection cap and shutdown, against a live server with short test timeouts.
@Suite struct LiveRobustnessTests {
    static func configuration(header: Duration = .seconds(5), body: Duration = .seconds(5),
                              idle: Duration = .seconds(5)) -> HTTPServer.Configuration {
        HTTPServer.Configuration(port: 0, timeouts: ConnectionTimeouts(header: header, body: body, idle: idle))
    }

    // Header deadlines below are long enough for the test's first bytes to arrive even on a loaded machine:
    // a connection that has sent nothing when its deadline passes is closed without any response.

    @Test func answersASlowHeaderWith408AndCloses() async throws {
        try await withServer(Self.configuration(header: .milliseconds(500))) { _, port in
            let client = try TestClient(port: port)
            try await client.send("GET / HTTP/1.1\r\nHo")
            let response = try await client.readResponse()
            #expect(response.status == 408)
            #expect(response.text.contains("request header was not received"))
            #expect(await client.isClosedByServer())
        }
    }

    @Test func theHeaderDeadlineIsATotalNotAGapBetweenBytes() async throws {
        try await withServer(Self.configuration(header: .milliseconds(500))) { _, port in
            let client = try TestClient(port: port)
            try await client.send("GET ")
            let rest = Array("/trickle HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
            let trickle = Task {
                // One byte every 50 ms: each gap is far inside the deadline, the whole far outside it.
                for byte in rest {
                    try await Task.sleep(for: .milliseconds(50))
                    try await client.send([byte])
                }
            }
            let response = try await client.readResponse()
            #expect(response.status == 408)
            trickle.cancel()
        }
    }

    @Test func answersASlowBodyWith408() async throws {
        try await withServer(Self.configuration(body: .milliseconds(200))) { _, port in
            let client = try TestClient(port: port)
            try await client.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")
            let response = try await client.readResponse()
            #expect(response.status == 408)
            #expect(response.text.contains("request body was not received"))
        }
    }

    @Test func closesASilentConnectionQuietly() async throws {
        try await withServer(Self.configuration(header: .milliseconds(200))) { _, port in
            let silent = try TestClient(port: port)
            #expect(await silent.isClosedByServer(), "a connection that never sends is closed without a response")
        }
    }

    @Test func closesIdleKeptAliveConnectionsQuietly() async throws {
        try await withServer(Self.configuration(idle: .milliseconds(200))) { _, port in
            let kept = try TestClient(port: port)
            try await kept.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await kept.readResponse().status == 200)
            #expect(await kept.isClosedByServer(), "an idle keep-alive connection is closed without a 408")
        }
    }

    @Test func refusesConnectionsOverTheCapWith503() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.maxConnections = 2
        try await withServer(configuration) { _, port in
            var held: [TestClient] = []
            // From two networks: one alone may hold only its fair share, half of the two.
            for index in 0..<2 {
                let client = try TestClient(port: port, source: "127.0.\(index + 1).1")
                try await client.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().status == 200)
                held.append(client)
            }
            let extra = try TestClient(port: port, source: "127.0.5.1")
            try await extra.send("GET /extra HTTP/1.1\r\nHost: x\r\n\r\n")
            let refused = try await extra.readResponse()
            #expect(refused.status == 503)
            #expect(refused.headers["Connection"] == "close")
            #expect(await extra.isClosedByServer())

            // One client leaves (half-closes); the server closes its side when it sees the EOF, and its
            // slot is free once the client sees the server's close.
            held[0].shutdownWrite()
            #expect(await held[0].isClosedByServer())
            let again = try TestClient(port: port, source: "127.0.5.2")
            try await again.send("GET /again HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await again.readResponse().status == 200)
        }
    }

    @Test func stillServesWhileManyClientsTrickle() async throws {
        // The trickling requests must outlive the setting up of a hundred clients and five requests on a
        // busy machine: the header deadline is not what this test is about (HTTPServerTests has its own).
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.timeouts.header = .seconds(120)
        // All from one address here: the per-address cap has its own tests (AdmissionTests).
        configuration.maxConnectionsPerNetwork = 200
        try await withServer(configuration) { _, port in
            let tricklers = try await TestClient.many(100, port: port, sending: "GET /slow HTTP/1.1\r\nHo")
            for index in 0..<5 {
                let client = try TestClient(port: port)
                try await client.send("GET /fast/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try await client.readResponse().text == "GET /fast/\(index) ")
            }
            // The trickling requests are intact and can still complete.
            try await tricklers[0].send("st: x\r\n\r\n")
            #expect(try await tricklers[0].readResponse().text == "GET /slow ")
        }
    }

    @Test func shutdownFinishesTheRequestUnderWayAndClosesIdleOnes() async throws {
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { request in
            if request.target == "/slow" {
                startedSignal.yield()
                for await _ in release { break }
            }
            return .text("done \(request.target)")
        }
        let port = try server.start()
        // Reads wait up to 30 s for the server's close (5 s by default ran out once beside the stress runs' busy
        // loops): a cap on waiting for an event, not a figure.
        let idle = try TestClient(port: port, readTimeout: 30)
        try await idle.send("GET /quick HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await idle.readResponse().status == 200)

        var busy: TestClient? = try TestClient(port: port)
        try await busy?.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        for await _ in started { break }
        let stopping = Task { await server.shutdown() }
        #expect(await idle.isClosedByServer())
        releaseSignal.yield()
        let response = try await busy?.readResponse()
        #expect(response?.text == "done /slow")
        #expect(response?.headers["Connection"] == "close")
        busy = nil  // the server lingers on a closing connection until the client closes too
        await stopping.value
        #expect(server.port == nil)
        #expect(throws: TestClientError.self) { try TestClient(port: port) }
        #expect(throws: HTTPServerError.alreadyShutDown) { try server.start() }
    }

    @Test func shutdownClosesWhatRemainsAfterTheGracePeriod() async throws {
        var configuration = HTTPServer.Configuration(port: 0)
        configuration.shutdownGracePeriod = .milliseconds(100)
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let server = HTTPServer(configuration: configuration) { _ in
            startedSignal.yield()
            for await _ in release { break }  // never before the test has seen the connection closed
            return .text("too late")
        }
        let port = try server.start()
        let client = try TestClient(port: port)
        try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        for await _ in started { break }  // the request is under way when shutdown begins
        defer { releaseSignal.finish() }
        await server.shutdown()
        #expect(await client.isClosedByServer())
    }

    @Test func runReturnsWhenItsTaskIsCancelled() async throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { _ in .text("ok") }
        let port = try server.start()
        let running = Task { try await server.run() }
        let client = try TestClient(port: port)
        try await client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try await client.readResponse().status == 200)
        running.cancel()
        try await running.value
        #expect(server.port == nil)
    }

    @Test func reportsWhyItCannotListen() async throws {
        try await withServer { _, port in
            let second = HTTPServer(configuration: HTTPServer.Configuration(port: port)) { _ in .text("") }
            #expect(throws: HTTPServerError.self) { try second.start() }
            do throws(HTTPServerError) {
                try second.start()
            } catch {
                #expect(error.description.hasPrefix("cannot listen on 127.0.0.1:\(port):"))
            }
        }
        #expect(throws: HTTPServerError.invalidPort(70_000)) {
            try HTTPServer(configuration: HTTPServer.Configuration(port: 70_000)) { _ in .text("") }.start()
        }
    }
}

@Suite struct ShutdownSignalTests {
    @Test func aWatchedSignalShutsTheServerDown() async throws {
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { _ in .text("ok") }
        _ = try server.start()
        // SIGUSR2 rather than SIGTERM: the test process must not be asked to stop for real.
        let watch = server.shutdownOnSignals([SIGUSR2])
        let running = Task { try await server.run() }
        await watch.armed()  // dispatch arms its sources asynchronously; a signal sent before is ignored
        kill(getpid(), SIGUSR2)
        try await running.value
        #expect(server.port == nil)
        watch.cancel()
    }
}
