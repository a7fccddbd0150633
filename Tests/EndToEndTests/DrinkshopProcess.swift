import Foundation

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

    /// Runs `drinkshop --db <store> arguments…` with `input` on standard input.
    func run(_ arguments: [String], input: String? = nil, database: Bool = true,
             environment extra: [String: String] = [:]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Drinkshop.binary)
        // --create: a store at a new --db path is made only when asked.
        process.arguments = (database ? ["--db", self.database, "--create"] : []) + arguments
        var environment = ["PATH": "/usr/bin:/bin", "HOME": directory, "DRINKSHOP_SEEDS": Drinkshop.seeds,
                           "DRINKSHOP_STAFF": "Ken", "TZ": "Asia/Taipei", "XDG_STATE_HOME": directory + "/state"]
        environment.merge(extra) { $1 }
        process.environment = environment
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so a chatty process cannot block on a full pipe.
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    func write(_ name: String, _ contents: String) throws -> String {
        let path = directory + "/" + name
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
