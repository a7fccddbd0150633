import Foundation
import Glibc
import Synchronization
import Testing
@testable import Printing

/// A printer path that is a named pipe (FIFO): with nobody reading, the send fails within its deadline
/// instead of blocking in `open`; with a reader, the job goes through. No timed assertions: a send that
/// hung would run into the suite's time limit, and the error's kind shows the deadline caught it.
@Suite(.timeLimit(.minutes(3))) struct FIFOSinkTests {
    private func makeFIFO() throws -> String {
        let path = NSTemporaryDirectory() + "labels-\(UUID().uuidString).fifo"
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    @Test func aFIFOThatNobodyReadsFailsWithinTheDeadline() async throws {
        let path = try makeFIFO()
        defer { unlink(path) }
        let sink = PrinterSink(address: .file(path: path), connectTimeout: .milliseconds(300))
        await #expect {
            try await sink.send(Array("SIZE 40 mm,30 mm\r\n".utf8))
        } throws: { error in
            (error as? PrinterError) == .noReader(path: path, seconds: 0.3)
                && "\(error)" == "nothing read the printer pipe \(path) within 0.3 s; is the print spooler running?"
        }
    }

    @Test func aFIFOWithAReaderGetsTheWholeJob() async throws {
        let path = try makeFIFO()
        defer { unlink(path) }
        let received = Mutex<[UInt8]?>(nil)
        // The reader blocks in open and read, on a thread of its own (never the pool).
        let reader = Thread {
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            defer { close(fd) }
            var all: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                all += buffer[0..<count]
            }
            received.withLock { $0 = all }
        }
        reader.start()
        let job = [UInt8](repeating: 0x41, count: 200_000)  // more than a pipe holds: writes wait for the reader
        try await PrinterSink(address: .file(path: path), connectTimeout: .seconds(10)).send(job)
        for _ in 0..<500 where received.withLock({ $0 == nil }) { try await Task.sleep(for: .milliseconds(10)) }
        #expect(received.withLock { $0 } == job)
    }

    /// The watch answers for a send whose thread never comes back (an `open` stuck in the kernel).
    @Test func theWatchAnswersForAThreadThatNeverReturns() async {
        let watch = SendWatch(address: "/dev/stuck", openStage: "open", openLimit: .milliseconds(100),
                              writeLimit: .milliseconds(100), grace: .milliseconds(50))
        let result: Result<Void, PrinterError> = await withCheckedContinuation { continuation in
            watch.begin(continuation)  // and no thread ever finishes it
        }
        #expect(throws: PrinterError.timedOut(address: "/dev/stuck", stage: "open", seconds: 0.1)) { try result.get() }
        // A late answer from the thread is dropped.
        watch.finish(.success(()))
    }
}
