import Foundation
import Synchronization
import Testing
@testable import LineEditor

/// Text announced while a line is being typed (an order sent by itself) shows above the prompt, and the
/// line goes on as it was.
@Suite struct TerminalAnnounceTests {
    @Test func announcedTextShowsAboveTheLineBeingTypedWhichStaysWhole() async throws {
        let pty = try PseudoTerminal()
        let reader = TerminalLineReader(input: pty.terminal, output: pty.terminal)
        // Nothing waiting for keys: the caller writes the text itself.
        #expect(!reader.announce("too early\n"))
        let line = Mutex<String??>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let read = reader.readLine(prompt: "> ")
            line.withLock { $0 = .some(read) }
            done.signal()
        }
        var screen = pty.screen(until: "> ")
        pty.type("order 熟成")
        screen = pty.screen(until: "order 熟成\u{1B}[0K", after: screen)
        // The reader is waiting for keys by now; a moment more where a thread is slow to get there.
        var announced = false
        for _ in 0..<100 where !announced {
            announced = reader.announce("Sent order #P1: its pickup number is #14\n")
            if !announced { try await Task.sleep(for: .milliseconds(20)) }
        }
        #expect(announced)
        screen = pty.screen(until: "#14\r\n\r> order 熟成")
        #expect(screen.contains("Sent order #P1: its pickup number is #14\r\n"), "\(screen.debugDescription)")
        // The line as it was, drawn again below it.
        #expect(screen.contains("#14\r\n\r> order 熟成"), "\(screen.debugDescription)")
        pty.type("紅茶\r")
        _ = pty.screen(until: "紅茶")
        _ = done.wait(timeout: .now() + 10)
        #expect(line.withLock { $0 } == .some("order 熟成紅茶"))
    }
}
