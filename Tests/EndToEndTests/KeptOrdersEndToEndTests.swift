import Foundation
import Synchronization
import Testing
import TestSupport

/// Counters on `drinkshop serve` while it goes away and comes back: what they kept is sent by itself.
@Suite(.timeLimit(.minutes(3)), .clearOfShopMidnight) struct KeptOrdersEndToEndTests {
    /// A counter REPL with nobody typing sends the order it kept within seconds of the server coming back.
    @Test func anIdleCounterSendsWhatItKeptOnceTheServerIsBack() async throws {
        let shop = try Drinkshop()
        let port = try await offThePool { try FreePort.reserve() }
        let token = "pat" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let serve = ["--db", shop.database, "--create", "serve", "--port", String(port)]
        let serverEnvironment = ["PATH": "/usr/bin:/bin", "HOME": shop.directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                                 "DRINKSHOP_API_TOKEN": token, "TZ": "Asia/Taipei"]
        var (server, banner) = try await offThePool { try ServeProcess.launch(serve, environment: serverEnvironment) }
        let baseID = try #require(banner.split(separator: "\n").first { $0.contains("base id") }?.split(separator: " ").last)
        let counter = ["AIRTABLE_TOKEN": token, "AIRTABLE_BASE_ID": String(baseID),
                       "AIRTABLE_ENDPOINT_URL": "http://127.0.0.1:\(port)",
                       "DRINKSHOP_OUTBOX": shop.directory + "/outbox.sqlite"]
        let first = try await shop.run(["order", "熟成紅茶", "大杯", "半糖", "少冰", "for", "Amy"], database: false, environment: counter)
        #expect(first.status == 0, "\(first.stderr)")

        let repl = try CounterProcess(directory: shop.directory, environment: counter)
        defer { repl.end() }
        // A counter that was running before the outage: it has heard from the server (which says it keeps pickup
        // tickets' keys unique, so the counter claims one number at a time and the kept order becomes #2). The
        // one-shot order claimed the letter A for this outbox, which the REPL shares: its kept order is A-P1.
        repl.type("orders")
        #expect(try await repl.waitFor("Amy", within: .seconds(30)), "\(repl.said)")
        server.terminate()
        _ = await ChildProcess.waitForExit(server)
        repl.type("order 熟成紅茶 大杯 半糖 少冰 for 王小明")
        #expect(try await repl.waitFor("kept on this counter as #A-P1", within: .seconds(30)), "\(repl.said)")

        (server, _) = try await offThePool { try ServeProcess.launch(serve, environment: serverEnvironment) }
        defer { server.terminate() }
        // Nothing more is typed.
        #expect(try await repl.waitFor("Sent order #A-P1", within: .seconds(30)), "\(repl.said)")
        let listed = try await shop.run(["orders", "--json"], database: false, environment: counter)
        #expect(listed.stdout.contains("王小明") && listed.stdout.contains(#""pickupNumber":2"#), "\(listed.stdout)")
    }
}

/// `drinkshop` (the REPL) with a pipe for its input, kept open, and its output gathered as it comes.
final class CounterProcess: Sendable {
    private let process: Process
    private let input: Pipe
    private let output = Mutex("")

    init(directory: String, environment extra: [String: String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: Drinkshop.binary)
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                               "DRINKSHOP_STAFF": "Ken", "TZ": "Asia/Taipei", "XDG_STATE_HOME": directory + "/state"]
            .merging(extra) { $1 }
        input = Pipe()
        let pipe = Pipe()
        process.standardInput = input
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let reading = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = reading.availableData
                if data.isEmpty { return }
                self.output.withLock { $0 += String(decoding: data, as: UTF8.self) }
            }
        }
    }

    var said: String { output.withLock { $0 } }

    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Whether `text` appeared in the output within `limit`.
    func waitFor(_ text: String, within limit: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if said.contains(text) { return true }
            try await Task.sleep(for: .milliseconds(100))
        }
        return said.contains(text)
    }

    func end() {
        try? input.fileHandleForWriting.close()
        process.terminate()
    }
}
