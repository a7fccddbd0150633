import Dispatch
@preconcurrency import Glibc
import Testing
@testable import HTTPServer

/// A response as read off the wire by the test client.
struct WireResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

struct TestClientError: Error, CustomStringConvertible {
    var description: String
}

/// A raw TCP client for live tests. Its blocking calls run on its own serial dispatch queue, never on
/// the cooperative pool the server's handlers need; every read gives up after `readTimeout` seconds so
/// a broken server fails a test instead of hanging it.
final class TestClient: @unchecked Sendable {
    private let fd: Int32
    private let queue = DispatchQueue(label: "TestClient.receive")
    /// Sends have their own queue so a test can send while a read waits.
    private let sendQueue = DispatchQueue(label: "TestClient.send")
    /// Bytes received but not yet consumed; touched only on `queue`.
    private var pending: [UInt8] = []

    /// - Parameter receiveBufferSize: a small kernel receive buffer (SO_RCVBUF), so that the server's
    ///   writes must wait for this client.
    /// - Parameter source: the local IPv4 address to connect from (any 127.x.y.z works on Linux loopback), so
    ///   a test can be two clients on two addresses.
    init(host: String = "127.0.0.1", port: Int, readTimeout: Int = 5, receiveBufferSize: Int32? = nil,
         source: String? = nil) throws {
        var hints = addrinfo()
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &results) == 0, let info = results else {
            throw TestClientError(description: "cannot resolve \(host)")
        }
        defer { freeaddrinfo(results) }
        let fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestClientError(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: readTimeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferSize {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                let code = errno
                Glibc.close(fd)
                throw TestClientError(description: "bind \(source): \(String(cString: strerror(code)))")
            }
        }
        let status = connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
        guard status == 0 else {
            let code = errno
            Glibc.close(fd)
            throw TestClientError(description: "connect: \(String(cString: strerror(code)))")
        }
        // Assigned last: an initializer that throws after every property is set still runs deinit,
        // which would close the descriptor a second time (and maybe someone else's by then).
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) async throws {
        try await onQueue(sendQueue) { try self.sendHere(bytes) }
    }

    /// Opens `count` connections and sends `text` on each, in one trip off the cooperative pool: on a
    /// busy machine every trip waits its turn for a pool thread, and a hundred of them in a row can
    /// outlast the server's header deadline before the test gets to its point.
    static func many(_ count: Int, port: Int, sending text: String, source: String? = nil) async throws -> [TestClient] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "TestClient.many").async {
                continuation.resume(with: Result {
                    try (0..<count).map { _ in
                        let client = try TestClient(port: port, source: source)
                        if !text.isEmpty { try client.sendHere(Array(text.utf8)) }
                        return client
                    }
                })
            }
        }
    }

    /// Sends on the calling thread, which must not be one of the pool's.
    private func sendHere(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(self.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw TestClientError(description: "send failed: errno \(errno)") }
            sent += count
        }
    }

    /// On a queue of its own, off the pool: waits until `ready()` (60 s at most), only then connects (so the
    /// server's header deadline runs from the request, not from the wait), sends `text`, reads one response and
    /// runs `then` (whether or not a response came) before the caller's task is resumed.
    static func exchange(port: Int, _ text: String, when ready: @escaping @Sendable () -> Bool,
                         then done: @escaping @Sendable () -> Void) async throws -> WireResponse {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue(label: "TestClient.exchange").async {
                continuation.resume(with: Result {
                    defer { done() }
                    let end = DispatchTime.now() + .seconds(60)
                    while !ready(), DispatchTime.now() < end { usleep(1_000) }
                    let client = try TestClient(port: port)
                    try client.sendHere(Array(text.utf8))
                    let head = try client.readHead()
                    let length = Int(head.headers["Content-Length"] ?? "") ?? 0
                    return WireResponse(status: head.status, headers: head.headers, body: try client.readExactly(length))
                })
            }
        }
    }

    func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }

    /// Reads one response framed by Content-Length (or none, for HEAD, 1xx, 204 and 304).
    func readResponse(forHead: Bool = false) async throws -> WireResponse {
        try await onQueue {
            let head = try self.readHead()
            let noBody = forHead || head.status < 200 || head.status == 204 || head.status == 304
            let length = noBody ? 0 : Int(head.headers["Content-Length"] ?? "") ?? 0
            return WireResponse(status: head.status, headers: head.headers, body: try self.readExactly(length))
        }
    }

    /// Reads until `needle` has arrived; returns all that arrived (nil when the connection ended or stayed quiet
    /// for the read timeout first).
    func readUntil(_ needle: String) async -> String? {
        try? await onQueue {
            var all = self.pending
            self.pending = []
            while !String(decoding: all, as: UTF8.self).contains(needle) {
                guard let chunk = try self.receiveChunk() else { return nil }
                all += chunk
            }
            return String(decoding: all, as: UTF8.self)
        } ?? nil
    }

    /// Reads until the server closes the connection; returns what arrived (nil on reset or timeout).
    func readToEnd() async -> [UInt8]? {
        try? await onQueue {
            var all = self.pending
            self.pending = []
            while true {
                guard let chunk = try self.receiveChunk() else { return all }
                all += chunk
            }
        }
    }

    /// Whether the server has closed the connection (EOF with nothing more to read).
    func isClosedByServer() async -> Bool {
        await readToEnd()?.isEmpty == true
    }

    // MARK: Internals

    private func onQueue<T: Sendable>(
        _ chosen: DispatchQueue? = nil, _ work: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            (chosen ?? queue).async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// nil at EOF; throws on timeout or error.
    private func receiveChunk() throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(buffer[0..<count]) }
            if count == 0 { return nil }
            if errno == EINTR { continue }
            throw TestClientError(description: "recv failed: \(String(cString: strerror(errno)))")
        }
    }

    private func readHead() throws -> (status: Int, headers: HTTPHeaders) {
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            if let range = pending.firstRange(of: terminator) {
                let text = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
                pending.removeSubrange(..<range.upperBound)
                var lines = text.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
                    throw TestClientError(description: "bad status line in \(text)")
                }
                var headers = HTTPHeaders()
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { throw TestClientError(description: "bad header \(line)") }
                    headers.add(
                        name: String(line[..<colon]),
                        value: String(line[line.index(after: colon)...].drop(while: { $0 == " " })))
                }
                return (status, headers)
            }
            guard let chunk = try receiveChunk() else {
                throw TestClientError(description: "connection closed before a response head")
            }
            pending += chunk
        }
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        while pending.count < count {
            guard let chunk = try receiveChunk() else { throw TestClientError(description: "closed mid-body") }
            pending += chunk
        }
        defer { pending.removeSubrange(..<count) }
        return Array(pending[..<count])
    }
}

/// Runs `body` against a server on a free loopback port, shutting it down afterwards.
func withServer(
    _ configuration: HTTPServer.Configuration = HTTPServer.Configuration(port: 0),
    handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse = echo,
    _ body: (HTTPServer, Int) async throws -> Void
) async throws {
    var configuration = configuration
    configuration.port = 0
    let server = HTTPServer(configuration: configuration, handler: handler)
    let port = try server.start()
    do {
        try await body(server, port)
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
}

/// Answers with the method, target and body it received.
@Sendable func echo(_ request: HTTPRequest) async -> HTTPResponse {
    HTTPResponse.text("\(request.method) \(request.target) \(String(decoding: request.body, as: UTF8.self))")
}
