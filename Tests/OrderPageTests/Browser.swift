import Dispatch
import Foundation
@preconcurrency import Glibc
import Synchronization

struct ClientError: Error, CustomStringConvertible {
    var description: String
}

/// A response as a browser receives it.
struct PageResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: String

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// One person's browser for live tests: its own cookie jar, one connection per request (`Connection: close`),
/// and blocking socket calls on its own dispatch queue, never on the cooperative pool.
final class Browser: @unchecked Sendable {
    let port: Int
    private let queue = DispatchQueue(label: "Browser")
    /// The page's cookie, once set.
    private let cookie = Mutex<String?>(nil)
    /// Sent as `Origin` on posts, as browsers do (nil: none).
    var origin: String?
    /// The form token of the last page read (its forms' hidden `token` field), sent with each post as the
    /// page's forms do; a test of a foreign post turns it off.
    private let formToken = Mutex<String?>(nil)
    var sendsFormToken = true

    init(port: Int) {
        self.port = port
        origin = "http://127.0.0.1:\(port)"
    }

    var cookieValue: String? { cookie.withLock { $0 } }

    func get(_ path: String) async throws -> PageResponse {
        try await exchange("GET", path, body: nil)
    }

    /// Posts `fields` as a browser's form does.
    func post(_ path: String, _ fields: [(String, String)] = []) async throws -> PageResponse {
        let token = sendsFormToken ? formToken.withLock { $0 }.map { [("token", $0)] } ?? [] : []
        let body = (token + fields).map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
        return try await exchange("POST", path, body: body)
    }

    private func exchange(_ method: String, _ path: String, body: String?) async throws -> PageResponse {
        try await withCheckedThrowingContinuation { continuation in
            queue.async {
                continuation.resume(with: Result { try self.roundTrip(method, path, body: body) })
            }
        }
    }

    private func roundTrip(_ method: String, _ path: String, body: String?) throws -> PageResponse {
        let fd = try Self.connect(port: port)
        defer { Glibc.close(fd) }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        if let cookie = cookieValue { head += "Cookie: \(cookie)\r\n" }
        if let body {
            if let origin { head += "Origin: \(origin)\r\n" }
            head += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
        }
        let bytes = Array((head + "\r\n" + (body ?? "")).utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            var buffer = [UInt8](repeating: 0, count: 16_384)
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { received += buffer[0..<count]; continue }
            if count == 0 { break }
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { continue }
            break
        }
        let text = String(decoding: received, as: UTF8.self)
        guard let split = text.range(of: "\r\n\r\n") else { throw ClientError(description: "no response to \(method) \(path)") }
        let lines = text[..<split.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw ClientError(description: "no status line")
        }
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        for header in headers where header.name.lowercased() == "set-cookie" {
            cookie.withLock { $0 = String(header.value.split(separator: ";")[0]) }
        }
        let body = String(text[split.upperBound...])
        if let field = body.range(of: "name=\"token\" value=\""), let end = body[field.upperBound...].firstIndex(of: "\"") {
            formToken.withLock { $0 = String(body[field.upperBound..<end]) }
        }
        return PageResponse(status: status, headers: headers, body: body)
    }

    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            Glibc.close(fd)
            throw ClientError(description: "connect failed: \(errno)")
        }
        return fd
    }

    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            if (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else if byte == 0x20 {
                out += "+"
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return out
    }

    /// Opens the group page's event stream with this browser's cookie.
    func events(_ path: String) throws -> EventReader {
        let reader = try EventReader(port: port)
        reader.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n" + (cookieValue.map { "Cookie: \($0)\r\n" } ?? "") + "\r\n")
        return reader
    }
}

/// A streamed response read as it arrives, on its own queue.
final class EventReader: @unchecked Sendable {
    private let fd: Int32
    private let queue = DispatchQueue(label: "EventReader")
    private var received: [UInt8] = []
    private var ended = false

    init(port: Int) throws { fd = try Browser.connect(port: port) }

    deinit { Glibc.close(fd) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything received until it contains `needle`, or nil when it did not arrive within `seconds`.
    func read(until needle: String, within seconds: Double = 30) async -> String? {
        await withCheckedContinuation { continuation in
            queue.async {
                let deadline = Date().addingTimeInterval(seconds)
                while true {
                    let text = String(decoding: self.received, as: UTF8.self)
                    if text.contains(needle) { return continuation.resume(returning: text) }
                    if self.ended || Date() > deadline { return continuation.resume(returning: nil) }
                    var buffer = [UInt8](repeating: 0, count: 8_192)
                    let count = buffer.withUnsafeMutableBytes { recv(self.fd, $0.baseAddress, $0.count, 0) }
                    if count > 0 {
                        self.received += buffer[0..<count]
                    } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                        self.ended = true
                    }
                }
            }
        }
    }

    func close() { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
}
