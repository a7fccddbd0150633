import AirtableHTTP
import AirtableURLSession
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing

/// The live transport over plain `http://` (a drinkshop serve on the shop's network), which is a socket of its own
/// (URLSession was seen to send a request's headers and never its body under load), against a raw socket server
/// that answers byte for byte as a test says.
@Suite struct PlainHTTPExchangeTests {
    /// A one-connection server on its own thread: reads the request whole (by its Content-Length) unless told not
    /// to, keeps it, writes `answer` and closes; with no answer it holds the connection until stopped.
    final class RawServer: Sendable {
        let port: Int
        private let listener: Int32
        private let received: Box<[UInt8]>
        private let done: Box<Bool>

        final class Box<Value: Sendable>: Sendable {
            let value: Mutex<Value>
            init(_ value: Value) { self.value = Mutex(value) }
        }

        init(readsRequest: Bool = true, answer: [UInt8]?) throws {
            let (listener, port) = try LoopbackSocket.bound(listening: 4)
            self.listener = listener
            self.port = port
            let received = Box<[UInt8]>([]), done = Box(false)
            self.received = received
            self.done = done
            Thread.detachNewThread {
                let connection = accept(listener, nil, nil)
                guard connection >= 0 else { return }
                defer { close(connection) }
                if readsRequest {
                    var bytes: [UInt8] = []
                    var chunk = [UInt8](repeating: 0, count: 65536)
                    while true {
                        let count = chunk.withUnsafeMutableBytes { recv(connection, $0.baseAddress!, $0.count, 0) }
                        guard count > 0 else { break }
                        bytes += chunk[0..<count]
                        let text = String(decoding: bytes, as: UTF8.self)
                        if let end = text.range(of: "\r\n\r\n") {
                            let head = text[..<end.lowerBound].lowercased()
                            let length = head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
                                .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                            if bytes.count >= text[..<end.upperBound].utf8.count + length { break }
                        }
                    }
                    received.value.withLock { $0 = bytes }
                }
                if let answer {
                    _ = answer.withUnsafeBytes { send(connection, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
                    return
                }
                while !done.value.withLock({ $0 }) { usleep(20_000) }
            }
        }

        var request: String { String(decoding: received.value.withLock { $0 }, as: UTF8.self) }

        func stop() {
            done.value.withLock { $0 = true }
            shutdown(listener, Int32(SHUT_RDWR))
            close(listener)
        }
    }

    @Test func aRequestIsWrittenWholeAndAChunkedAnswerAfterAnInterimOneIsRead() async throws {
        let answer = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\nX-Seen: one\r\n"
            + "X-Seen: two\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n"
        let server = try RawServer(answer: Array(answer.utf8))
        defer { server.stop() }
        let body = Array(String(repeating: "熟成紅茶", count: 40_000).utf8)  // 480 KB: written in several sends
        let response = try await URLSessionTransport.shared.send(
            TransportRequest(method: "PATCH", url: "http://127.0.0.1:\(server.port)/v0/appX/Order%20Drink?a=1",
                             headers: ["Authorization": "Bearer patSECRET", "X-Evil": "a\r\nInjected: yes"], body: body),
            timeout: 10)
        #expect(response.status == 201)
        #expect(response.body == Array("hello world".utf8))
        #expect(response.header("x-seen") == "one, two")
        let request = server.request
        let head = String(request.prefix(400))
        #expect(head.hasPrefix("PATCH /v0/appX/Order%20Drink?a=1 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"), "\(head)")
        #expect(head.contains("\r\nContent-Length: \(body.count)\r\n") && head.contains("\r\nConnection: close\r\n"), "\(head)")
        #expect(head.contains("\r\nContent-Type: application/json\r\n"), "\(head)")
        #expect(!head.contains("Injected"), "a header value with a line break was sent: \(head)")
        let whole = Array(request.utf8).suffix(body.count).elementsEqual(body)
        #expect(whole, "the body arrived cut (\(request.utf8.count) bytes in all)")
    }

    @Test func aServerThatNeverAnswersTimesOutAtTheDeadline() async throws {
        let silent = try RawServer(readsRequest: false, answer: nil)
        defer { silent.stop() }
        do {
            _ = try await URLSessionTransport.shared.send(
                TransportRequest(method: "GET", url: "http://127.0.0.1:\(silent.port)/v0/appX/Drink"), timeout: 1)
            Issue.record("a server that never answered was heard")
        } catch {
            #expect(error.kind == .timedOut)
        }
    }

    @Test func aCutOffAnswerIsInterrupted() async throws {
        let server = try RawServer(answer: Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort".utf8))
        defer { server.stop() }
        do {
            _ = try await URLSessionTransport.shared.send(
                TransportRequest(method: "POST", url: "http://127.0.0.1:\(server.port)/x", body: [1, 2, 3]), timeout: 5)
            Issue.record("a body shorter than its Content-Length was taken")
        } catch {
            #expect(error.kind == .interrupted)
        }
    }

    @Test func aURLCarryingALineBreakNeverReachesARequestLine() async throws {
        let server = try RawServer(answer: Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
        defer { server.stop() }
        do {
            _ = try await URLSessionTransport.shared.send(
                TransportRequest(method: "GET", url: "http://127.0.0.1:\(server.port)/x\r\nInjected: yes"), timeout: 2)
        } catch {}
        // URLSession, which takes such a URL, sends it percent-encoded: no header line of the attacker's.
        #expect(!server.request.contains("\r\nInjected"), "\(server.request)")
    }
}
