import Airtable
import AirtableHTTP
import Foundation
import Synchronization
import Testing

@Suite("One pacing state per base, shared by the processes of a machine")
struct PacingFileTests {
    private func temporaryPath() -> String {
        NSTemporaryDirectory() + "pacing-\(UUID().uuidString)/app123-test.pacing"
    }

    /// Whether every window of send times holds at most what a bucket of `tokens` refilled at `rate`
    /// (starting full) admits.
    private func fitsBucket(_ sends: [Double], tokens: Double, rate: Double) -> Bool {
        let sorted = sends.sorted()
        for i in sorted.indices {
            for j in i..<sorted.count where Double(j - i + 1) > tokens + rate * (sorted[j] - sorted[i]) + 1e-4 {
                return false
            }
        }
        return true
    }

    @Test("reservations are paced at the rate after the burst, and each one is counted in its day and month")
    func pacingAndCounting() {
        var state = PacingState()
        let start = 1_764_547_200.0  // 2025-12-01T00:00:00Z
        let sends = (0..<8).map { _ in state.reserve(at: start, requestsPerSecond: 5, burst: 3) }
        #expect(sends.prefix(3).allSatisfy { $0 == start })
        #expect(abs(sends[7] - (start + 1.0)) < 1e-4)
        #expect(state.usage(at: start) == CallUsage(day: "2025-12-01", callsToday: 8, month: "2025-12", callsThisMonth: 8))
        // The next day starts a new day's count; the month keeps counting; a new month starts afresh.
        _ = state.reserve(at: start + 86_400, requestsPerSecond: 5, burst: 3)
        #expect(state.usage(at: start + 86_400) == CallUsage(day: "2025-12-02", callsToday: 1, month: "2025-12", callsThisMonth: 9))
        #expect(state.usage(at: start + 31 * 86_400).callsThisMonth == 0)
        #expect(state.usage(at: start + 31 * 86_400).month == "2026-01")
    }

    @Test("a hold set after a 429 delays every reservation; a hold or pacing far in the future is forgotten")
    func holdsAndStaleness() {
        var state = PacingState()
        state.hold(until: 130, at: 100)
        #expect(state.reserve(at: 100, requestsPerSecond: 5, burst: 3) == 130)
        var stale = PacingState()
        stale.hold(until: 100 + PacingState.stalenessLimit + 50, at: 100)
        // Read again after a clock jump or from a file of before a reboot: the budget is not stuck.
        #expect(stale.reserve(at: 100, requestsPerSecond: 5, burst: 3) == 100)
    }

    @Test("the file round-trips the state, and a torn or foreign file reads as a fresh state")
    func fileText() async throws {
        let file = PacingFile(path: temporaryPath())
        let first = try await file.update { $0.reserve(at: 1_764_547_200, requestsPerSecond: 5, burst: 3) }
        #expect(first == 1_764_547_200)
        let read = try await file.read()
        #expect(read.callsThisMonth == 1)
        #expect(read.theoreticalArrival == 1_764_547_200.2)
        try Data("drinkshop-pac".utf8).write(to: URL(fileURLWithPath: file.path))
        #expect(try await file.read() == PacingState())
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)).count == 13)
        _ = try await file.update { $0.reserve(at: 10, requestsPerSecond: 5, burst: 3) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)).count == 256)
    }

    @Test("a file is read and written in its program's format: a file another program wrote reads as a fresh state")
    func formatNames() async throws {
        let path = temporaryPath()
        // As a program's earlier version wrote it, before the format's name came from the program.
        let earlier = "drinkshop-pacing 1 tat=1764547200.2 held=0.0 day=2025-12-01 calls-today=7 month=2025-12 calls-month=9"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(earlier.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try await PacingFile(path: path).read() == PacingState())
        let own = PacingFile(path: path, formatName: "drinkshop-pacing")
        #expect(try await own.read().callsThisMonth == 9)
        _ = try await own.update { $0.reserve(at: 1_764_547_200, requestsPerSecond: 5, burst: 3) }
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written.hasPrefix("drinkshop-pacing 1 "))
        #expect(try await own.read().callsThisMonth == 10)
    }

    @Test("throttles of several processes on one file, each racing 40 requests, stay within one bucket together")
    func processesShareOneBudget() async throws {
        let path = temporaryPath()
        let origin = Date().timeIntervalSince1970
        // Four throttles, each with its own open file (flock locks per open file, as between processes).
        let throttles = (0..<4).map { _ in
            RequestThrottle(requestsPerSecond: 5, burst: 3, pacingFile: PacingFile(path: path), wallClock: { origin })
        }
        let sends = await withTaskGroup(of: [Double].self) { group in
            for throttle in throttles {
                group.addTask {
                    var mine: [Double] = []
                    for _ in 0..<40 { mine.append(await throttle.reserveSlot(at: 0)) }
                    return mine
                }
            }
            return await group.reduce(into: [Double]()) { $0 += $1 }
        }
        #expect(sends.count == 160)
        #expect(Set(sends.map { ($0 * 1000).rounded() }).count >= 158)  // slots are shared out, not duplicated
        #expect(fitsBucket(sends, tokens: 3, rate: 5))
        // The least time the rate allows for 160 requests with a burst of 3.
        #expect(abs((sends.max() ?? 0) - Double(160 - 3) / 5) < 1e-4)
        let state = try await PacingFile(path: path).read()
        #expect(state.callsThisMonth == 160)
    }

    @Test("a 429 seen by one process holds the others")
    func holdReachesOtherProcesses() async {
        let path = temporaryPath()
        let origin = 1_000_000.0
        let first = RequestThrottle(requestsPerSecond: 5, burst: 3, pacingFile: PacingFile(path: path), wallClock: { origin })
        let second = RequestThrottle(requestsPerSecond: 5, burst: 3, pacingFile: PacingFile(path: path), wallClock: { origin })
        await first.holdEveryone(until: 30, now: 0)
        #expect(await second.reserveSlot(at: 0) == 30)
    }

    @Test("an unusable pacing file is reported once and the process paces itself alone")
    func unusableFile() async {
        let reports = Mutex(0)
        let throttle = RequestThrottle(requestsPerSecond: 5, burst: 1,
                                       pacingFile: PacingFile(path: "/proc/no-such-place/app.pacing"),
                                       onFileError: { _ in reports.withLock { $0 += 1 } })
        let first = await throttle.reserveSlot(at: 0)
        let second = await throttle.reserveSlot(at: 0)
        #expect(first == 0)
        #expect(abs(second - 0.2) < 1e-9)
        #expect(reports.withLock { $0 } == 1)
    }
}
