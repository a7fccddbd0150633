import Airtable
import AirtableHTTP
import Foundation
import Glibc
import Synchronization

/// One exchange over plain `http://` (a `drinkshop serve` on the shop's own network) on a socket of our own, on a
/// thread of its own (never a thread of Swift's pool): the request written whole, the answer read until the server
/// closes (the request says `Connection: close`) or its `Content-Length` or last chunk arrives.
///
/// Why not URLSession there: under load, corelibs' URLSession (libcurl) was seen to send a request's headers and
/// never its body, on a quiet machine too (bench 7 stopped at its 224th order's payment; with four busy loops within
/// seconds). The server waits for the body, the counter's deadline passes, and a write that never reached the server
/// reads as "may or may not have been applied". Here a request that was not written whole is `.notSent`, which the
/// client may send again; one written whole and then cut off is `.interrupted`, as before. `https://` (Airtable
/// itself) stays with URLSession.
enum PlainHTTPExchange {
    /// The largest answer taken (an Airtable page of 100 records is far less).
    static let maximumResponse = 64 << 20

    /// The parts of an `http://` URL a request needs.
    struct Target: Equatable {
        var host: String
        var port: Int
        /// The path and query, as the URL spells them (`/` when it names none).
        var path: String

        init?(_ url: String) {
            // A space or control character (scalars, not Characters: "\r\n" is one) would break the request line:
            // such a URL is left to URLSession, which refuses it.
            guard url.lowercased().hasPrefix("http://"),
                  !url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else { return nil }
            let rest = url.dropFirst("http://".count)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            var path = String(rest.dropFirst(authority.count).prefix { $0 != "#" })
            if path.isEmpty { path = "/" } else if path.first == "?" { path = "/" + path }
            guard !authority.isEmpty, !authority.contains("@") else { return nil }
            var host = String(authority), port = 80
            if host.hasPrefix("[") {
                guard let close = host.firstIndex(of: "]") else { return nil }
                let after = host[host.index(after: close)...]
                if after.hasPrefix(":") { guard let number = Int(after.dropFirst()) else { return nil }; port = number }
                else if !after.isEmpty { return nil }
                host = String(host[host.index(after: host.startIndex)..<close])
            } else if let colon = host.lastIndex(of: ":") {
                guard let number = Int(host[host.index(after: colon)...]) else { return nil }
                port = number
                host = String(host[..<colon])
            }
            guard !host.isEmpty, (1...65535).contains(port) else { return nil }
            self.host = host
            self.port = port
            self.path = path
        }

        /// The `Host` header's value.
        var hostHeader: String {
            (host.contains(":") ? "[\(host)]" : host) + (port == 80 ? "" : ":\(port)")
        }
    }

    /// Sends `request` to `target`, answering within `timeout` seconds or throwing `.timedOut`.
    static func send(_ request: TransportRequest, to target: Target, timeout: Double, place: String)
        async throws(TransportError) -> TransportResponse
    {
        let exchange = Exchange(deadline: Date().timeIntervalSince1970 + timeout, place: place)
        let bytes = requestBytes(request, target: target)
        let result: Result<TransportResponse, TransportError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // A thread of its own for the blocking socket calls: not Swift's pool, and not a concurrent dispatch
                // queue, whose few threads a handful of slow exchanges would hold while the others wait.
                Thread.detachNewThread {
                    do throws(TransportError) {
                        continuation.resume(returning: .success(try exchange.run(bytes, to: target, method: request.method)))
                    } catch {
                        continuation.resume(returning: .failure(error))
                    }
                }
            }
        } onCancel: {
            exchange.cancel()
        }
        return try result.get()
    }

    /// The request as written: the request line, `Host`, the caller's headers (not its own `Host`,
    /// `Content-Length` or `Connection`), the body's length, `Connection: close`, then the body.
    static func requestBytes(_ request: TransportRequest, target: Target) -> [UInt8] {
        var head = "\(request.method) \(target.path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\n"
        var hasType = false
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            let lower = name.lowercased()
            if lower == "host" || lower == "content-length" || lower == "connection" { continue }
            if lower == "content-type" { hasType = true }
            // A header cannot carry a line break into the request (scalars: "\r\n" is one Character).
            guard !name.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == ":" }),
                  !value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) else { continue }
            head += "\(name): \(value)\r\n"
        }
        if let body = request.body {
            if !hasType { head += "Content-Type: application/json\r\n" }
            head += "Content-Length: \(body.count)\r\n"
        } else if ["POST", "PATCH", "PUT"].contains(request.method.uppercased()) {
            head += "Content-Length: 0\r\n"
        }
        head += "Connection: close\r\n\r\n"
        return Array(head.utf8) + (request.body ?? [])
    }

    /// One exchange's socket and state, shared with the task's cancellation.
    private final class Exchange: Sendable {
        let deadline: Double
        let place: String
        /// The socket while it is open, and whether the exchange was cancelled.
        private let state = Mutex<(fd: Int32?, cancelled: Bool)>((nil, false))

        init(deadline: Double, place: String) {
            self.deadline = deadline
            self.place = place
        }

        func cancel() {
            state.withLock { state in
                state.cancelled = true
                if let fd = state.fd { shutdown(fd, Int32(SHUT_RDWR)) }
            }
        }

        private var cancelled: Bool { state.withLock { $0.cancelled } }

        /// Milliseconds left before the deadline (at least 0).
        private func left() -> Int32 {
            Int32(max(0, min(Double(Int32.max), (deadline - Date().timeIntervalSince1970) * 1000)))
        }

        private func failure(_ kind: TransportError.Kind, _ text: String) -> TransportError {
            if cancelled { return TransportError(.cancelled, "the request to \(place) was cancelled") }
            return TransportError(kind, text)
        }

        func run(_ bytes: [UInt8], to target: Target, method: String) throws(TransportError) -> TransportResponse {
            let fd = try connect(target)
            defer {
                state.withLock { $0.fd = nil }
                close(fd)
            }
            try write(bytes, to: fd)
            return try read(from: fd, method: method)
        }

        private func connect(_ target: Target) throws(TransportError) -> Int32 {
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(target.host, String(target.port), &hints, &list) == 0, let first = list else {
                throw failure(.notSent, "the host of \(place) could not be found")
            }
            defer { freeaddrinfo(first) }
            var timedOut = false
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let info = next {
                next = info.pointee.ai_next
                let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
                guard fd >= 0 else { continue }
                let registered = state.withLock { state -> Bool in
                    guard !state.cancelled else { return false }
                    state.fd = fd
                    return true
                }
                guard registered else {
                    close(fd)
                    throw failure(.cancelled, "")
                }
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                if Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
                if errno == EINPROGRESS {
                    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    let ready = poll(&poller, 1, left())
                    var problem: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    if ready > 0, getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length) == 0, problem == 0 { return fd }
                    if ready == 0 { timedOut = true }
                }
                state.withLock { $0.fd = nil }
                close(fd)
                if timedOut || cancelled { break }
            }
            if timedOut { throw failure(.timedOut, "\(place) did not answer in time") }
            throw failure(.notSent, "could not connect to \(place) (is the server running?)")
        }

        /// Writes every byte; a request not written whole never reached the server as a request.
        private func write(_ bytes: [UInt8], to fd: Int32) throws(TransportError) {
            var sent = 0
            while sent < bytes.count {
                let count = bytes.withUnsafeBytes { buffer in
                    Glibc.send(fd, buffer.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                }
                if count > 0 {
                    sent += count
                    continue
                }
                if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    if poll(&poller, 1, left()) == 0 { throw failure(.timedOut, "\(place) did not answer in time") }
                    continue
                }
                throw failure(.notSent, "the request to \(place) could not be sent (the connection closed)")
            }
        }

        /// Reads the answer: the status line and headers, then the body by its length, its chunks or the close.
        private func read(from fd: Int32, method: String) throws(TransportError) -> TransportResponse {
            var buffer: [UInt8] = []
            var closed = false
            func more() throws(TransportError) {
                var chunk = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
                    if count > 0 {
                        buffer += chunk[0..<count]
                        guard buffer.count <= maximumResponse else {
                            throw failure(.interrupted, "\(place) sent an answer too large to take")
                        }
                        return
                    }
                    if count == 0 {
                        closed = true
                        return
                    }
                    if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR {
                        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                        if poll(&poller, 1, left()) == 0 { throw failure(.timedOut, "\(place) did not answer in time") }
                        continue
                    }
                    throw failure(.interrupted, "the connection to \(place) was lost")
                }
            }
            /// More bytes where the answer is not whole yet: a close now cuts it off.
            func needMore() throws(TransportError) {
                if closed { throw failure(.interrupted, "the connection to \(place) was lost") }
                try more()
            }
            while true {
                // The head, skipping interim (1xx) answers.
                var end: Int?
                while end == nil {
                    end = PlainHTTPExchange.headEnd(buffer)
                    if end == nil {
                        try needMore()
                    }
                }
                guard let headEnd = end, let head = PlainHTTPExchange.head(Array(buffer[..<headEnd])) else {
                    throw failure(.interrupted, "\(place) sent a response that is not valid HTTP")
                }
                buffer.removeFirst(headEnd + 4)
                if (100..<200).contains(head.status) { continue }
                if method.uppercased() == "HEAD" || head.status == 204 || head.status == 304 {
                    return TransportResponse(status: head.status, headers: head.headers, body: [])
                }
                if head.headers["transfer-encoding"]?.lowercased().contains("chunked") == true {
                    var body: [UInt8] = []
                    while true {
                        var line: Int?
                        while line == nil {
                            line = PlainHTTPExchange.lineEnd(buffer)
                            if line == nil {
                                try needMore()
                            }
                        }
                        guard let lineEnd = line,
                              let size = Int(String(decoding: buffer[..<lineEnd], as: UTF8.self)
                                .split(separator: ";").first?.trimmingCharacters(in: .whitespaces) ?? "", radix: 16),
                              size >= 0
                        else { throw failure(.interrupted, "\(place) sent a response that is not valid HTTP") }
                        buffer.removeFirst(lineEnd + 2)
                        if size == 0 { return TransportResponse(status: head.status, headers: head.headers, body: body) }
                        while buffer.count < size + 2 {
                            try needMore()
                        }
                        body += buffer[..<size]
                        buffer.removeFirst(size + 2)
                    }
                }
                if let text = head.headers["content-length"] {
                    guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0, length <= maximumResponse else {
                        throw failure(.interrupted, "\(place) sent a response that is not valid HTTP")
                    }
                    while buffer.count < length {
                        try needMore()
                    }
                    return TransportResponse(status: head.status, headers: head.headers, body: Array(buffer[..<length]))
                }
                while !closed { try more() }
                return TransportResponse(status: head.status, headers: head.headers, body: buffer)
            }
        }
    }

    /// Where the head ends (the index of its blank line's `\r\n\r\n`).
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    static func lineEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        for index in 0...(bytes.count - 2) where bytes[index] == 13 && bytes[index + 1] == 10 { return index }
        return nil
    }

    /// The status and headers (names in lower case; a repeated header's values joined with ", ").
    static func head(_ bytes: [UInt8]) -> (status: Int, headers: [String: String])? {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first else { return nil }
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]), (100...999).contains(status)
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { $0 + ", " + value } ?? value
        }
        return (status, headers)
    }
}
