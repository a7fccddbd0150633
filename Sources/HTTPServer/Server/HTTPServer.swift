import Foundation
@preconcurrency import Glibc
import Synchronization

/// An HTTP/1.1 server on POSIX sockets that answers every request with an async handler.
///
/// All socket work happens on one dedicated thread running a poll(2) loop, so slow or hostile clients
/// never occupy the cooperative thread pool; the handler runs as a task and may take as long as it needs.
/// Connections persist (keep-alive), pipelined requests are answered in order, bodies may be chunked,
/// and every stage of a request has a deadline. It knows nothing of what it serves.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0)) { request in .text("hello") }
/// let port = try server.start()
/// // ...
/// await server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    /// Where to listen and how much to tolerate.
    public struct Configuration: Sendable {
        /// The address to bind; loopback unless told otherwise.
        public var host: String
        /// The port to bind; 0 picks a free one (see the value `start()` returns).
        public var port: Int
        /// Size limits of request lines, headers and bodies.
        public var limits: HTTPParserLimits
        /// Deadlines of each stage of a connection.
        public var timeouts: ConnectionTimeouts
        /// Connections served at once; one more is answered 503 and closed.
        public var maxConnections: Int
        /// Streamed responses (live pages) open at once, within `maxConnections`; one more is answered 503.
        public var maxStreams: Int
        /// Connections served at once from one client network (``ClientNetwork``: its /24 or /64), well below
        /// `maxConnections`, and never more than its ``FairShare`` of them, so that one machine cannot hold the
        /// server; one more is answered 503 and closed. When every slot is taken, a new connection from a network
        /// holding fewer closes an idle one of the network holding the most.
        public var maxConnectionsPerNetwork: Int
        /// Streamed responses open at once to one client network, well below `maxStreams` (and within its
        /// ``FairShare`` of them) so that the pickup screen on another network always gets one; one more is answered 503.
        public var maxStreamsPerNetwork: Int
        /// The kernel's queue of connections not yet accepted.
        public var backlog: Int32
        /// How long `shutdown()` lets requests under way finish before closing what remains.
        public var shutdownGracePeriod: Duration
        /// Called once per response (errors and refusals included) on the server's I/O thread;
        /// keep it quick. It receives no headers and no query string, so no credential can leak into a log.
        public var log: (@Sendable (HTTPRequestLogEntry) -> Void)?
        /// The priority of the tasks that run the handler. High by default: on Linux each priority has
        /// its own threads of the cooperative pool, so a request is answered in milliseconds even while
        /// the process's other tasks (webhook pings, an archive run, a test suite's hundreds of tests)
        /// keep the default priority's threads busy; at one shared priority it waits its turn behind all
        /// of them (seconds, on two busy cores).
        public var handlerPriority: TaskPriority

        /// A configuration; only the port usually needs choosing.
        public init(
            host: String = "127.0.0.1", port: Int = 8080, limits: HTTPParserLimits = HTTPParserLimits(),
            timeouts: ConnectionTimeouts = ConnectionTimeouts(), maxConnections: Int = 512, maxStreams: Int = 32,
            maxConnectionsPerNetwork: Int = 64, maxStreamsPerNetwork: Int = 8, backlog: Int32 = 512,
            shutdownGracePeriod: Duration = .seconds(10), log: (@Sendable (HTTPRequestLogEntry) -> Void)? = nil,
            handlerPriority: TaskPriority = .high
        ) {
            self.host = host
            self.port = port
            self.limits = limits
            self.timeouts = timeouts
            self.maxConnections = maxConnections
            self.maxStreams = maxStreams
            self.maxConnectionsPerNetwork = maxConnectionsPerNetwork
            self.maxStreamsPerNetwork = maxStreamsPerNetwork
            self.backlog = backlog
            self.shutdownGracePeriod = shutdownGracePeriod
            self.log = log
            self.handlerPriority = handlerPriority
        }
    }

    private enum Stage {
        case created
        case running(EventLoop, port: Int)
        case finished
    }

    private struct State {
        var stage: Stage = .created
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The configuration the server was created with.
    public let configuration: Configuration
    private let handler: @Sendable (HTTPRequest) async -> HTTPResponse
    private let state = Mutex(State())

    /// - Parameter handler: answers each request; it runs on the cooperative pool, one request per
    ///   connection at a time, many connections concurrently.
    public init(configuration: Configuration, handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.configuration = configuration
        self.handler = handler
    }

    /// Binds, listens and starts serving on the I/O thread; returns at once.
    ///
    /// Also sets SIGPIPE to be ignored process-wide, so a client vanishing mid-response cannot kill the process.
    /// - Returns: the port bound (useful with port 0). Calling it again returns the same port.
    /// - Throws: ``HTTPServerError`` when the address cannot be bound or the server was shut down.
    @discardableResult
    public func start() throws(HTTPServerError) -> Int {
        try state.withLock { state throws(HTTPServerError) -> Int in
            switch state.stage {
            case .running(_, let port): return port
            case .finished: throw .alreadyShutDown
            case .created: break
            }
            _ = signal(SIGPIPE, SIG_IGN)
            let (fd, port) = try POSIXSocket.listen(
                host: configuration.host, port: configuration.port, backlog: configuration.backlog)
            let loop: EventLoop
            do throws(HTTPServerError) {
                loop = try EventLoop(
                    listener: fd, configuration: configuration, handler: handler,
                    onFinish: { [weak self] in self?.finish() })
            } catch {
                POSIXSocket.close(fd)
                throw error
            }
            let thread = Thread { loop.run() }
            thread.name = "HTTPServer \(configuration.host):\(port)"
            thread.start()
            state.stage = .running(loop, port: port)
            return port
        }
    }

    /// The bound port while the server runs.
    public var port: Int? {
        state.withLock { state in
            if case .running(_, let port) = state.stage { return port }
            return nil
        }
    }

    /// Serves until ``shutdown()`` completes (starting first if needed). Cancelling the calling task
    /// shuts the server down gracefully.
    public func run() async throws {
        try start()
        await withTaskCancellationHandler {
            await waitUntilFinished()
        } onCancel: {
            requestShutdown()
        }
    }

    /// Stops gracefully: no new connections are accepted, idle connections close, requests under way
    /// finish and are answered with `Connection: close`; after the grace period whatever remains is
    /// closed. Returns once the I/O thread has let go of every socket.
    public func shutdown() async {
        requestShutdown()
        await waitUntilFinished()
    }

    private func requestShutdown() {
        let loop = state.withLock { state -> EventLoop? in
            switch state.stage {
            case .running(let loop, _):
                return loop
            case .created:
                state.stage = .finished
                return nil
            case .finished:
                return nil
            }
        }
        loop?.requestShutdown()
    }

    private func waitUntilFinished() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state in
                if case .finished = state.stage { return true }
                state.waiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
        }
    }

    private func finish() {
        let waiters = state.withLock { state in
            state.stage = .finished
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
