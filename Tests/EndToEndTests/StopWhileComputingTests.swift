import Foundation
import Testing
import TestSupport

/// SIGTERM ends `serve` promptly even while requests compute: the grace period for requests under way is a
/// second, and the store's closing note does not wait for a listing still running (it waited before, and the
/// grace period was 10 s).
@Suite(.timeLimit(.minutes(3)), .clearOfShopMidnight) struct StopWhileComputingTests {
    @Test func sigtermEndsServeWhileFiltersCompute() async throws {
        let shop = try Drinkshop()
        let port = try await offThePool { try FreePort.reserve() }
        let token = "patStopWhileComputing01"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Drinkshop.binary)
        process.arguments = ["--db", shop.database, "--create", "serve", "--port", String(port)]
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": shop.directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                               "DRINKSHOP_API_TOKEN": token, "TZ": "Asia/Taipei"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let banner = try await offThePool { () -> String in
            var text = ""
            while !text.contains("Press Ctrl-C") {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
            }
            return text
        }
        let baseLine = banner.split(separator: "\n").first { $0.contains("base id") }
        let baseID = try #require(baseLine?.split(separator: " ").last.map(String.init))
        @Sendable func request(_ method: String, _ target: String, _ body: String = "") throws -> String {
            try RawHTTP.exchange(port: port, "\(method) \(target) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        }
        let note = String(repeating: "less ice, half sugar ", count: 20)
        let records = (0..<10).map { #"{"fields":{"orderName":"n\#($0)","note":"\#(note)"}}"# }.joined(separator: ",")
        let created = try await offThePool { try request("POST", "/v0/\(baseID)/OrderDrink", #"{"records":[\#(records)]}"#) }
        #expect(created.hasPrefix("HTTP/1.1 200"), "\(created.prefix(200))")

        // Filters that spend the whole step budget, one after another from two clients, until the server goes.
        let formula = "REGEX_MATCH(REPT({note},20),'(.|..){60}z')".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        for _ in 0..<2 {
            Thread.detachNewThread {
                while (try? request("GET", "/v0/\(baseID)/OrderDrink?filterByFormula=\(formula)")) != nil {}
            }
        }
        try await Task.sleep(for: .milliseconds(700))
        // Measured from the signal to the child's end as /proc shows it, on a thread of its own: beside the whole
        // suite this process's own threads can be held for seconds (a test spinning on every one of them), and a
        // stress run once counted 27 s when the time was taken from this test's own task.
        let took = await ChildProcess.timeToEnd(afterTerminating: process)
        let status = await ChildProcess.waitForExit(process)
        #expect(status == 0)
        // The probe (scripts/attack) holds it to 2 s on a quiet machine; here, beside the whole suite on a machine
        // that may be at a load of 20 (5.3 s was seen), to under 9 s: still under the 10 s grace period (and the
        // unbounded wait for the store) it replaced, so a server that waits for the computations still fails.
        #expect(took < .seconds(9), "\(took)")
    }
}
