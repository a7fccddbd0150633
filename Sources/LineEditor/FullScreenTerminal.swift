import Foundation
import Glibc
import Synchronization

/// A terminal taken over by a full-screen view (the make line): raw mode, the alternate screen, no
/// cursor, keys decoded on a thread of its own. `run` gives everything back as it found it, however it
/// ends; SIGINT, SIGTERM, SIGHUP and SIGQUIT restore the terminal's mode too (`TerminalSignalGuard`).
public final class FullScreenTerminal: Sendable {
    /// Something that happened at the keyboard or to the window.
    public enum Event: Sendable, Equatable {
        case key(EditorKey)
        /// The window changed size (or the process was resumed): draw again.
        case redraw
        /// The terminal went away.
        case closed
    }

    private let input: Int32
    private let output: Int32
    private let normalMode: termios
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let stopped = Mutex(false)

    /// Nil when `input` or `output` is not a terminal (the caller prints plain output instead).
    public init?(input: Int32 = 0, output: Int32 = 1) {
        guard TerminalDevice.isTerminal(input), TerminalDevice.isTerminal(output),
              let mode = RawTerminalMode.current(input) else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        self.input = input
        self.output = output
        normalMode = mode
        wakeRead = ends[0]
        wakeWrite = ends[1]
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Rows and columns of the window now.
    public var size: (rows: Int, columns: Int) {
        var size = winsize()
        let status = ioctl(output, UInt(TIOCGWINSZ), &size)
        guard status == 0, size.ws_row > 0, size.ws_col > 0 else { return (24, 80) }
        return (Int(size.ws_row), Int(size.ws_col))
    }

    /// Takes the terminal over, calls `body` with the keyboard's events, and restores the terminal when
    /// `body` returns or throws. Keys are read on their own thread, never on the cooperative pool.
    public func run<Result: Sendable>(
        _ body: (AsyncStream<Event>) async throws -> Result
    ) async rethrows -> Result {
        RawTerminalMode.apply(RawTerminalMode.raw(from: normalMode), to: input)
        // Alternate screen, cursor hidden.
        FileDescriptorIO.writeAll(output, "\u{1B}[?1049h\u{1B}[?25l")
        let slot = TerminalSignalGuard.arm(terminal: input, output: output, wake: wakeWrite, normalMode: normalMode)
        stopped.withLock { $0 = false }
        let (events, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .unbounded)
        let reader = Thread { [self] in readKeys(into: continuation) }
        reader.name = "FullScreenTerminal keys"
        reader.start()
        defer {
            stopped.withLock { $0 = true }
            var byte: UInt8 = 0
            _ = write(wakeWrite, &byte, 1)
            if let slot { TerminalSignalGuard.disarm(slot) }
            FileDescriptorIO.writeAll(output, "\u{1B}[?25h\u{1B}[?1049l")
            RawTerminalMode.apply(normalMode, to: input)
        }
        return try await body(events)
    }

    /// Rings the terminal's bell (news on the screen).
    public func bell() {
        FileDescriptorIO.writeAll(output, "\u{7}")
    }

    /// Replaces the screen with `lines`, each cut to the window's width and the whole to its height.
    public func draw(_ lines: [String]) {
        let (rows, columns) = size
        var frame = "\u{1B}[H"
        for (index, line) in lines.prefix(rows).enumerated() {
            if index > 0 { frame += "\r\n" }
            frame += TerminalSafeText.encode(line).truncated(toWidth: columns - 1) + "\u{1B}[0m\u{1B}[K"
        }
        frame += "\u{1B}[J"
        FileDescriptorIO.writeAll(output, frame)
    }

    private func readKeys(into continuation: AsyncStream<Event>.Continuation) {
        var decoder = KeyDecoder()
        while !stopped.withLock({ $0 }) {
            var watched = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&watched, 2, decoder.hasPendingBytes ? 50 : 250)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 {
                for key in decoder.flush() { continuation.yield(.key(key)) }
                continue
            }
            if watched[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                _ = read(wakeRead, &drained, drained.count)
                if stopped.withLock({ $0 }) { break }
                // A resize or a resume: raw mode again (a stop gave the terminal back), then redraw.
                RawTerminalMode.apply(RawTerminalMode.raw(from: normalMode), to: input)
                FileDescriptorIO.writeAll(output, "\u{1B}[?1049h\u{1B}[?25l")
                continuation.yield(.redraw)
            }
            if watched[0].revents & Int16(POLLIN) != 0 {
                let bytes = FileDescriptorIO.readSome(input)
                if bytes.isEmpty {
                    continuation.yield(.closed)
                    break
                }
                for key in decoder.feed(bytes) { continuation.yield(.key(key)) }
            } else if watched[0].revents & Int16(POLLHUP | POLLERR) != 0 {
                continuation.yield(.closed)
                break
            }
        }
        continuation.finish()
    }
}
