import Dispatch
@preconcurrency import Glibc
import HTTPServer

struct ClientError: Error, CustomStringConvertible {
    var description: String
}

/// A raw HTTP client for live tests that reads a response as it streams. Blocking calls run on its own
/// dispatch queue, never on the cooperative pool; reads give up after a second at a time.
final class StreamClient: @unchecked Sendable {
    private let fd: Int32
    private let queue = DispatchQueue(label: "StreamClient")
    /// Everything received so far; touched only on `queue`.
    private var received: [UInt8] = []
    private var ended = false

    /// - Parameter source: the loopback address to connect from (127.x.y.z all reach the server on Linux): another
    ///   /24 is another network to the server's caps.
    init(port: Int, source: String? = nil) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            _ = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            Glibc.close(fd)
            throw ClientError(description: "connect failed: \(errno)")
        }
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    func get(_ path: String, headers: String = "") {
        send("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\(headers)\r\n")
    }

    func close() { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    /// Everything received until the text contains `needle`, or nil when it did not arrive in time.
    func read(until needle: String, within seconds: Double = 30) async -> String? {
        await withCheckedContinuation { continuation in
            queue.async {
                let deadline = DispatchTime.now() + seconds
                while true {
                    let text = String(decoding: self.received, as: UTF8.self)
                    if text.contains(needle) { return continuation.resume(returning: text) }
                    if self.ended || DispatchTime.now() > deadline { return continuation.resume(returning: nil) }
                    self.receiveOnce()
                }
            }
        }
    }

    /// Whether the server closed the connection within `seconds`.
    func closedByServer(within seconds: Double = 30) async -> Bool {
        await withCheckedContinuation { continuation in
            queue.async {
                let deadline = DispatchTime.now() + seconds
                while !self.ended, DispatchTime.now() < deadline { self.receiveOnce() }
                continuation.resume(returning: self.ended)
            }
        }
    }

    /// The text received after the response head.
    func bodyText() async -> String {
        await withCheckedContinuation { continuation in
            queue.async {
                let text = String(decoding: self.received, as: UTF8.self)
                let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
                continuation.resume(returning: body)
            }
        }
    }

    private func receiveOnce() {
        var buffer = [UInt8](repeating: 0, count: 8_192)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            received += buffer[0..<count]
        } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            ended = true
        }
    }
}

/// A server with the pickup screen in front of a stand-in for the token-protected API (401 for all).
func withDisplayServer(
    feed: PickupBoardFeed = PickupBoardFeed(), heartbeat: Duration = .seconds(15), maxStreams: Int = 32,
    limits: HTTPParserLimits = HTTPParserLimits(),
    _ body: (_ port: Int, _ server: HTTPServer) async throws -> Void
) async throws {
    let display = PickupDisplay(source: feed, heartbeat: heartbeat)
    let server = HTTPServer(
        configuration: .init(port: 0, limits: limits, maxStreams: maxStreams),
        handler: display.handler { _ in .json(#"{"error":"AUTHENTICATION_REQUIRED"}"#, status: 401) })
    let port = try server.start()
    do {
        try await body(port, server)
    } catch {
        await server.shutdown()
        throw error
    }
    await server.shutdown()
}

import PickupDisplay
