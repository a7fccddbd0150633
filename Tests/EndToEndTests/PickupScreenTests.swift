import Foundation
import Glibc
import Testing
import TestSupport

/// `drinkshop serve` carries the pickup screen: tokenless at /display only, fed by the shop's orders as
/// counters write them through the API.
@Suite(.timeLimit(.minutes(3)), .clearOfShopMidnight) struct PickupScreenTests {
    @Test func theScreenNeedsNoTokenShowsOnlyNumbersAndFollowsOrdersPlacedThroughTheAPI() async throws {
        let shop = try Drinkshop()
        let token = "pat" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let (database, directory) = (shop.database, shop.directory)
        let server = try await offThePool { try ServeProcess(database: database, directory: directory, token: token) }
        defer { server.stop() }

        let page = try await offThePool { try RawHTTP.exchange(port: server.port, "GET /display HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") }
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains("text/html"))
        let api = try await offThePool {
            try RawHTTP.exchange(port: server.port, "GET /v0/\(server.baseID)/OrderDrink HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        #expect(api.hasPrefix("HTTP/1.1 401"))
        let strange = try await offThePool {
            try RawHTTP.exchange(port: server.port, "GET /display/%2e%2e/v0/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        }
        #expect(strange.hasPrefix("HTTP/1.1 404"))
        let post = try await offThePool { try RawHTTP.exchange(port: server.port, "POST /display HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n") }
        #expect(post.hasPrefix("HTTP/1.1 405"))
        let huge = String(repeating: "a", count: 100_000)
        let tooBig = try await offThePool {
            try RawHTTP.exchange(port: server.port, "GET /display HTTP/1.1\r\nHost: x\r\nX-Big: \(huge)\r\nConnection: close\r\n\r\n")
        }
        #expect(tooBig.hasPrefix("HTTP/1.1 431"))

        let events = try await offThePool { try RawHTTP.EventReader(port: server.port) }
        defer { events.close() }
        #expect(try await offThePool { try events.read(until: #"data: {"preparing":[],"ready":[],"newestReady":null,"earlier":[]}"#) })

        let counter = ["AIRTABLE_TOKEN": token, "AIRTABLE_BASE_ID": server.baseID,
                       "AIRTABLE_ENDPOINT_URL": "http://127.0.0.1:\(server.port)",
                       "DRINKSHOP_OUTBOX": shop.directory + "/outbox.sqlite"]
        let placed = try await shop.run(["order", "熟成紅茶", "大杯", "半糖", "少冰", "for", "王小明"], database: false,
                                        environment: counter)
        #expect(placed.status == 0, "\(placed.stderr)")
        #expect(try await offThePool { try events.read(until: #"data: {"preparing":[1],"ready":[],"newestReady":null,"earlier":[]}"#) })
        for _ in 0..<2 {
            #expect(try await shop.run(["advance", "#1"], database: false, environment: counter).status == 0)
        }
        let seen = try await offThePool { try events.read(until: #"data: {"preparing":[],"ready":[1],"newestReady":1,"earlier":[]}"#) }
        #expect(seen)
        #expect(!events.received.contains("王"))
    }

    /// A counter changes the shop's time zone while the server runs: the screen counts days as the counters
    /// now do, without a restart. Pago Pago (UTC-11) and Kiritimati (UTC+14) are 25 hours apart, so the
    /// order made "today" in the first is always an earlier day's in the second, and moves to the strip.
    @Test func aTimeZoneSetAtACounterReachesTheScreenWithoutARestart() async throws {
        let shop = try Drinkshop()
        let token = "pat" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let (database, directory) = (shop.database, shop.directory)
        let server = try await offThePool {
            try ServeProcess(database: database, directory: directory, token: token,
                             environment: ["DRINKSHOP_TIME_ZONE": "Pacific/Pago_Pago"])
        }
        defer { server.stop() }
        let events = try await offThePool { try RawHTTP.EventReader(port: server.port) }
        defer { events.close() }
        let counter = ["AIRTABLE_TOKEN": token, "AIRTABLE_BASE_ID": server.baseID,
                       "AIRTABLE_ENDPOINT_URL": "http://127.0.0.1:\(server.port)",
                       "DRINKSHOP_OUTBOX": shop.directory + "/outbox.sqlite"]
        #expect(try await shop.run(["order", "熟成紅茶", "大杯", "半糖", "少冰"], database: false, environment: counter).status == 0)
        for _ in 0..<2 {
            #expect(try await shop.run(["advance", "#1"], database: false, environment: counter).status == 0)
        }
        #expect(try await offThePool { try events.read(until: #"data: {"preparing":[],"ready":[1],"newestReady":1,"earlier":[]}"#) })

        var kiritimati = counter
        kiritimati["DRINKSHOP_TIME_ZONE"] = "Pacific/Kiritimati"
        let changed = try await shop.run(["orders"], database: false, environment: kiritimati)
        #expect(changed.status == 0, "\(changed.stderr)")
        // The server reads the shared settings every 5 s, and its screen ticks every 5 s.
        let moved = try await offThePool {
            try events.read(until: #"data: {"preparing":[],"ready":[],"newestReady":null,"earlier":[{"number":1,"#, within: 30)
        }
        #expect(moved, "the screen still counts days in the old time zone: \(events.received.suffix(300))")
    }
}


/// `drinkshop serve --port 0` on the test's store.
final class ServeProcess: Sendable {
    let port: Int
    let baseID: String
    private let process: Process

    /// `arguments` go after `serve --port 0` (e.g. `--webhook-allow URL`); `environment` adds to (or replaces)
    /// the server's own.
    init(database: String, directory: String, token: String, arguments: [String] = [],
         environment extra: [String: String] = [:]) throws {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                           "DRINKSHOP_API_TOKEN": token, "TZ": "Asia/Taipei"].merging(extra) { $1 }
        let (process, text) = try Self.launch(["--db", database, "--create", "serve", "--port", "0"] + arguments,
                                              environment: environment)
        self.process = process
        let port = text.split(separator: "\n").first { $0.contains("endpoint") }
            .flatMap { $0.split(separator: ":").last?.split(separator: " ").first }.flatMap { Int($0) }
        let base = text.split(separator: "\n").first { $0.contains("base id") }?.split(separator: " ").last
        guard let port, let base else {
            process.terminate()
            throw POSIXError(.EPROTO)
        }
        self.port = port
        baseID = String(base)
    }

    /// Ends the server (Foundation reaps the child; nothing here waits for it).
    func stop() {
        process.terminate()
    }

    /// Starts `drinkshop` with `arguments` and reads its banner up to "Press Ctrl-C" (blocking: call it off
    /// the pool); the process is stopped when the banner never comes.
    static func launch(_ arguments: [String], environment: [String: String]) throws -> (process: Process, banner: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Drinkshop.binary)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        // Its log, kept in a file: read back only to say why it never started.
        let log = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("drinkshop-launch-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let logHandle = try FileHandle(forWritingTo: log)
        process.standardError = logHandle
        defer {
            try? logHandle.close()
            try? FileManager.default.removeItem(at: log)
        }
        try process.run()
        var text = ""
        let handle = output.fileHandleForReading
        while !text.contains("Press Ctrl-C") {
            let data = handle.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard text.contains("Press Ctrl-C") else {
            process.terminate()
            let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw LaunchError(arguments: arguments, output: text, log: String(said.suffix(2000)))
        }
        return (process, text)
    }
}

/// `drinkshop` ended before its banner: what it printed and logged, for the test's failure.
struct LaunchError: Error, CustomStringConvertible {
    let arguments: [String]
    let output: String
    let log: String
    var description: String { "drinkshop \(arguments.joined(separator: " ")) did not start; printed: \(output) logged: \(log)" }
}

/// Plain HTTP over a loopback socket, blocking: for the off-pool threads of these tests only.
enum RawHTTP {
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var limit = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func send(_ fd: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Sends a request and reads the answer until the server closes.
    static func exchange(port: Int, _ request: String) throws -> String {
        let fd = try connect(port: port)
        defer { Glibc.close(fd) }
        send(fd, request)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            answer += buffer[0..<count]
        }
        return String(decoding: answer, as: UTF8.self)
    }

    /// The pickup screen's event stream, read as it arrives.
    final class EventReader: @unchecked Sendable {
        private let fd: Int32
        private(set) var received = ""

        init(port: Int) throws {
            fd = try RawHTTP.connect(port: port)
            RawHTTP.send(fd, "GET /display/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        }

        /// Whether `needle` arrived: false when the stream ended, or stayed quiet for 10 s, or (given `seconds`)
        /// when that long passed.
        func read(until needle: String, within seconds: Double = .infinity) throws -> Bool {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let started = Date()
            while !received.contains(needle) {
                if Date().timeIntervalSince(started) > seconds { return false }
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                // With a bound of its own, 10 quiet seconds (heartbeats come every 15) are not the end.
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK, seconds.isFinite { continue }
                if count <= 0 { return false }
                received += String(decoding: buffer[0..<count], as: UTF8.self)
            }
            return true
        }

        func close() { Glibc.close(fd) }
    }
}
