import Foundation
import Testing
import TestSupport

/// `drinkshop serve | head -1`: the server's standard output and its log (standard error) close under it,
/// and it goes on serving, then stops cleanly on SIGTERM (no "Broken pipe" fatal error, no death by SIGPIPE).
@Suite(.timeLimit(.minutes(2))) struct ClosedOutputTests {
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
enum FreePort {
    static func reserve() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
