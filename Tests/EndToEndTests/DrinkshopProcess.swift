import Foundation
import TestSupport

/// Runs the built `drinkshop` binary as staff would from a shell, against a store in a temporary folder.
struct Drinkshop: ~Copyable {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let directory: String
    var database: String { directory + "/shop.sqlite" }

    /// The binary SwiftPM built next to the test bundle.
    static var binary: String { Bundle.main.bundlePath + "/drinkshop" }
    static let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Seeds").path

    init() throws {
        directory = NSTemporaryDirectory() + "drinkshop-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// Runs `drinkshop --db <store> arguments…` with `input` on standard input. The child is read and
    /// awaited off the cooperative pool (TestSupport's ChildProcess), so the suites running beside this
    /// one keep their threads.
    func run(_ arguments: [String], input: String? = nil, database: Bool = true,
             environment extra: [String: String] = [:]) async throws -> Result {
        try await Drinkshop.run(arguments, directory: directory, storePath: database ? self.database : nil,
                                input: input, environment: extra)
    }

    /// `run` for a store of one's own choosing (several processes on one new store); `--create`: a store at a
    /// new --db path is made only when asked.
    static func run(_ arguments: [String], directory: String, storePath: String?, input: String? = nil,
                    environment extra: [String: String] = [:]) async throws -> Result {
        var environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                           "DRINKSHOP_STAFF": "Ken", "TZ": "Asia/Taipei", "XDG_STATE_HOME": directory + "/state"]
        environment.merge(extra) { $1 }
        let finished = try await ChildProcess.run(
            Drinkshop.binary, (storePath.map { ["--db", $0, "--create"] } ?? []) + arguments, environment: environment, input: input)
        return Result(status: finished.status, stdout: finished.stdout, stderr: finished.stderr)
    }

    func write(_ name: String, _ contents: String) throws -> String {
        let path = directory + "/" + name
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
