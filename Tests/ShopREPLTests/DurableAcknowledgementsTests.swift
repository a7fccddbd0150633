import Dispatch
import Foundation
import ShopREPL
import Synchronization
import Testing

/// A piped REPL's acknowledgements on a store whose commits are made durable apart: each text goes out, in order,
/// only after a sync that covers every commit made before it was written; a failed sync stops the output.
@Suite struct DurableAcknowledgementsTests {
    /// A disk: commits counted as they are made, syncs that cover what was committed when they began.
    final class Disk: Sendable {
        let committed = Atomic<Int>(0)
        let synced = Atomic<Int>(0)
        let syncs = Atomic<Int>(0)
        let failAtSync: Int?
        /// Held shut, the first sync waits until it opens (or gives up after 10 s, which is recorded).
        let gate = DispatchSemaphore(value: 0)
        let gateGaveUp = Atomic<Bool>(false)

        init(failAtSync: Int? = nil) { self.failAtSync = failAtSync }

        func sync() throws {
            let wanted = committed.load(ordering: .acquiring)
            guard synced.load(ordering: .acquiring) < wanted else { return }
            let number = syncs.add(1, ordering: .relaxed).newValue
            if number == failAtSync { throw CocoaError(.fileWriteUnknown) }
            if number == 1, failAtSync == nil, gate.wait(timeout: .now() + 10) == .timedOut { gateGaveUp.store(true, ordering: .relaxed) }
            synced.store(wanted, ordering: .releasing)
        }
    }

    /// What reached the terminal, each text with the commits on the disk when it was written.
    final class Terminal: ShopOutput {
        let disk: Disk
        let written = Mutex<[(text: String, synced: Int, error: Bool)]>([])
        init(_ disk: Disk) { self.disk = disk }
        func write(_ text: String) { written.withLock { $0.append((text, disk.synced.load(ordering: .acquiring), false)) } }
        func writeError(_ text: String) { written.withLock { $0.append((text, disk.synced.load(ordering: .acquiring), true)) } }
    }

    @Test("each acknowledgement waits for a sync covering its commit; they stay in order; the session does not wait for the disk")
    func acknowledgementsWaitForTheirCommits() async throws {
        let disk = Disk()
        let terminal = Terminal(disk)
        let output = DurableAcknowledgements(terminal, makeDurable: { try disk.sync() })
        for number in 1...30 {
            disk.committed.add(1, ordering: .releasing)  // the command's commit, then its acknowledgement
            output.write("#\(number)\n")
        }
        output.writeError("error: the last line\n")  // a command that commits nothing is told after the others
        // All of it was handed over while the first sync still waited for the disk: the session never waits.
        #expect(terminal.written.withLock { $0.isEmpty })
        disk.gate.signal()
        #expect(await output.settle())
        let gaveUp = disk.gateGaveUp.load(ordering: .relaxed)
        #expect(!gaveUp)
        let written = terminal.written.withLock { $0 }
        #expect(written.map(\.text) == (1...30).map { "#\($0)\n" } + ["error: the last line\n"])
        for (index, entry) in written.prefix(30).enumerated() {
            #expect(entry.synced >= index + 1, "#\(index + 1) went out with \(entry.synced) commits on the disk")
        }
        // The first sync covered the commits made when it began (the first, or more), a second the rest.
        #expect((1...2).contains(disk.syncs.load(ordering: .relaxed)))
    }

    @Test("a sync that fails stops the output with one error: nothing after it is acknowledged")
    func aFailedSyncStopsTheOutput() async throws {
        let disk = Disk(failAtSync: 3)
        let terminal = Terminal(disk)
        let output = DurableAcknowledgements(terminal, makeDurable: { try disk.sync() })
        for number in 1...6 {
            disk.committed.add(1, ordering: .releasing)
            output.write("#\(number)\n")
            _ = await output.settle()  // one sync each
        }
        #expect(await output.settle() == false)
        #expect(output.hasStopped)
        let written = terminal.written.withLock { $0 }
        #expect(written.filter { !$0.error }.map(\.text) == ["#1\n", "#2\n"])
        #expect(written.filter(\.error).count == 1)
        #expect(written.last?.text.contains("nothing after this line was acknowledged") == true)
    }
}
