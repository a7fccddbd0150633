import Foundation

/// Runs a program to its end for a test without blocking Swift's cooperative thread pool.
///
/// `readDataToEndOfFile()` and `waitUntilExit()` hold the calling thread until the child is done; on a
/// two-core machine the pool has two threads, so two tests doing that inside async code stop every other
/// task in the process (an in-process server's handlers included) until their children exit. Here the
/// pipes are read and the exit is awaited on threads of their own, and the caller is resumed by a
/// continuation.
public enum ChildProcess {
    /// What a finished child left behind.
    public struct Result: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
    }

    /// Runs `executable` with `arguments` and `environment`, feeding it `input` and closing its standard
    /// input; returns once it has exited and both of its outputs are read to the end.
    /// - Parameter mergeOutput: send standard error into standard output (`stderr` is then empty).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                           input: String? = nil, mergeOutput: Bool = false) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = mergeOutput ? stdout : stderr
        process.standardInput = stdin
        try process.run()
        // Closed here so only the child holds the write ends: the readers then see the end of each output.
        try? stdout.fileHandleForWriting.close()
        try? stderr.fileHandleForWriting.close()
        async let out = readToEnd(stdout.fileHandleForReading)
        async let err = readToEnd(stderr.fileHandleForReading)
        async let fed: Void = feed(stdin.fileHandleForWriting, input ?? "")
        _ = await fed
        let output = await out
        let errors = await err
        let status = await waitForExit(process)
        return Result(status: status, stdout: String(decoding: output, as: UTF8.self),
                      stderr: String(decoding: errors, as: UTF8.self))
    }

    /// The data a handle gives until its end, read on a thread of its own.
    public static func readToEnd(_ handle: FileHandle) async -> Data {
        await offThePool("ChildProcess read") { (try? handle.readToEnd()) ?? Data() }
    }

    /// Writes `text` and closes the handle, on a thread of its own (a child that does not read yet must
    /// not hold the caller on a full pipe).
    static func feed(_ handle: FileHandle, _ text: String) async {
        await offThePool("ChildProcess feed") {
            try? handle.write(contentsOf: Data(text.utf8))
            try? handle.close()
        }
    }

    /// The exit status of `process`, waited for on a thread of its own.
    public static func waitForExit(_ process: Process) async -> Int32 {
        await offThePool("ChildProcess wait") {
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    /// Sends SIGTERM to `process` and measures, on a thread of its own, how long the child takes to end: the
    /// moment it is a zombie (or gone) in `/proc`, not the moment this process notices, so a test process whose
    /// own threads are all busy (the whole suite at once) measures the child, not itself. Gives up after `limit`.
    public static func timeToEnd(afterTerminating process: Process, limit: Duration = .seconds(120)) async -> Duration {
        await offThePool("ChildProcess end") {
            let pid = process.processIdentifier
            let started = ContinuousClock.now
            process.terminate()
            while ContinuousClock.now - started < limit, isRunning(pid) { usleep(2_000) }
            return ContinuousClock.now - started
        }
    }

    /// Whether `pid` is still running: not yet ended (a zombie is ended, though not reaped yet).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].drop(while: { $0 == " " }).first
        return state != "Z" && state != "X"
    }

    /// Runs blocking `work` on a new thread and resumes the caller with its result.
    public static func offThePool<T: Sendable>(_ name: String, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = name
            thread.start()
        }
    }
}
