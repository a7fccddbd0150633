import Airtable
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@preconcurrency import Glibc
import HTTPServer
import LocalBase
import Testing
@testable import AirtableServer

/// The API served for real: HTTPServer on a free loopback port in front of AirtableAPI over a LocalBase
/// (the harness's in-memory one; `scripts/conformance` serves a base file through the real binary).
struct LiveAPI {
    let harness: APIHarness
    let server: HTTPServer
    let port: Int

    /// Runs `body` against a fresh server and stops the server afterwards, whatever happens.
    static func run(rateLimit: Double? = nil, _ body: (LiveAPI) async throws -> Void) async throws {
        let harness = try await APIHarness(rateLimit: rateLimit)
        let api = harness.api
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0)) { request in await api.handle(request) }
        let live = LiveAPI(harness: harness, server: server, port: try server.start())
        do {
            try await body(live)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
    }

    var baseURL: String { "http://127.0.0.1:\(port)/v0/\(harness.base.baseID)" }
}

/// One long-lived session for the whole test process, as the house style asks.
let liveSession: URLSession = {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 20
    return URLSession(configuration: configuration)
}()

struct WireError: Error, CustomStringConvertible {
    var description: String
}

/// A response read off a socket.
struct WireReply {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
    var json: JSONValue { (try? JSONParser.parse(body)) ?? .null }
}

/// A plain TCP connection for tests that need to see the wire: keep-alive, pipelining, malformed
/// bytes. Blocking calls run on the connection's own serial queue, never on the cooperative pool, and
/// every read gives up after a few seconds so a stuck server fails the test rather than hanging it.
final class RawConnection: @unchecked Sendable {
    private let fd: Int32
    private let queue = DispatchQueue(label: "RawConnection")
    /// Bytes received and not yet consumed; only touched on `queue`.
    private var received: [UInt8] = []

    init(port: Int, readTimeoutSeconds: Int = 10) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw WireError(description: "socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: readTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(fd)
            throw WireError(description: "connect() failed: errno \(errno)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    func send(_ text: String) async throws { try await send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) async throws {
        try await onQueue {
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { Glibc.send(self.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                // The server may close a connection it refuses before reading all we send.
                guard count > 0 else { return }
                sent += count
            }
        }
    }

    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Reads one Content-Length-framed response (no body for HEAD, 204 and 304).
    func readResponse(head: Bool = false) async throws -> WireReply {
        try await onQueue {
            let terminator = Array("\r\n\r\n".utf8)
            var end = self.received.firstRange(of: terminator)
            while end == nil {
                guard try self.receive() else { throw WireError(description: "closed before a response") }
                end = self.received.firstRange(of: terminator)
            }
            guard let end else { throw WireError(description: "no response head") }
            let text = String(decoding: self.received[..<end.lowerBound], as: UTF8.self)
            self.received.removeSubrange(..<end.upperBound)
            var lines = text.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
                throw WireError(description: "bad status line: \(text)")
            }
            let headers = lines.compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let length = head || status == 204 || status == 304
                ? 0 : Int(headers.first { $0.name.lowercased() == "content-length" }?.value ?? "") ?? 0
            while self.received.count < length {
                guard try self.receive() else { throw WireError(description: "closed mid-body") }
            }
            defer { self.received.removeSubrange(..<length) }
            return WireReply(status: status, headers: headers, body: Array(self.received[..<length]))
        }
    }

    /// Everything until the server closes the connection; throws if it does not within the timeout.
    func readToEnd() async throws -> [UInt8] {
        try await onQueue {
            while try self.receive() {}
            defer { self.received = [] }
            return self.received
        }
    }

    /// Appends what arrives; false at end of stream.
    private func receive() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += buffer[0..<count]
                return true
            }
            if count == 0 || errno == ECONNRESET { return false }
            if errno == EINTR { continue }
            throw WireError(description: "recv() failed: \(String(cString: strerror(errno)))")
        }
    }

    private func onQueue<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }
}

/// A request as raw HTTP/1.1 text.
func rawRequest(_ method: String, _ target: String, token: String? = APIHarness.writer, body: String = "",
                extraHeaders: [String] = []) -> String {
    var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1"]
    if let token { lines.append("Authorization: Bearer \(token)") }
    lines += extraHeaders
    if !body.isEmpty || method == "POST" || method == "PATCH" || method == "PUT" {
        lines.append("Content-Type: application/json")
        lines.append("Content-Length: \(body.utf8.count)")
    }
    return lines.joined(separator: "\r\n") + "\r\n\r\n" + body
}
