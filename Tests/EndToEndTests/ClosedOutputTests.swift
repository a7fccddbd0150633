import Foundation
import Glibc
import Testing
import TestSupport

/// `drinkshop serve | head -1`: the server's standard output and its log (standard error) close under it,
/// and it goes on serving, then stops cleanly on SIGTERM (no "Broken pipe" fatal error, no death by SIGPIPE).
@Suite(.timeLimit(.minutes(3)), .clearOfShopMidnight) struct ClosedOutputTests {
    @Test func serveGoesOnWhenItsOutputAndLogAreClosed() async throws {
        let shop = try Drinkshop()
        let port = try await offThePool { try FreePort.reserve() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Drinkshop.binary)
        process.arguments = ["--db", shop.database, "--create", "serve", "--port", String(port)]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": shop.directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                               "DRINKSHOP_API_TOKEN": "patClosedOutputTest0001", "TZ": "Asia/Taipei"]
        let output = Pipe()
        let log = Pipe()
        process.standardOutput = output
        process.standardError = log
        try process.run()
        try? output.fileHandleForWriting.close()
        try? log.fileHandleForWriting.close()
        // The log is never read: closed at once. Standard output is read up to its first line, as `head -1` does.
        try log.fileHandleForReading.close()
        let first = try await offThePool { () -> String in
            var text = ""
            while !text.contains("\n") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        try output.fileHandleForReading.close()
        #expect(first.hasPrefix("DrinkShop is serving"))

        // Every answer is logged to the closed standard error; the server must still answer the next one.
        let answers = try await offThePool { () -> [String] in
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, process.isRunning {
                if let answer = try? RawHTTP.exchange(port: port, "GET /display HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
                   !answer.isEmpty {
                    return try (0..<3).map { _ in
                        try RawHTTP.exchange(port: port, "GET /display HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    }
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return []
        }
        #expect(answers.count == 3)
        #expect(answers.allSatisfy { $0.hasPrefix("HTTP/1.1 200") })
        #expect(process.isRunning)

        // "Stopped." goes to the closed standard output; the exit is still a clean 0.
        process.terminate()
        let status = await ChildProcess.waitForExit(process)
        #expect(process.terminationReason == .exit)
        #expect(status == 0)
    }
}

/// A loopback port free a moment ago, for a child that must be told its port before it prints anything.
///
/// Taken below the kernel's ephemeral range (`ip_local_port_range`, 32768–60999 by default): a port the
/// kernel hands out (a bind to port 0, any outgoing connection of the suite's other tests) comes from that
/// range, so one chosen from it could be taken again between this check and the child's bind (seen in a
/// stress run: "Address already in use"). Below it, only another test choosing the same way competes.
enum FreePort {
    static func reserve() throws -> Int {
        let low = ephemeralLow()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let port = Int.random(in: 20_000..<max(20_001, low), using: &generator)
            if try binds(port) { return port }
        }
        throw POSIXError(.EADDRINUSE)
    }

    /// The first port of the kernel's ephemeral range (32768 when it cannot be read).
    private static func ephemeralLow() -> Int {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        return text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
    }

    /// Whether a loopback socket can bind `port` now.
    private static func binds(_ port: Int) throws -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return bound == 0
    }
}
