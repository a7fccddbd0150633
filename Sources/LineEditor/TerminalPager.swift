import Dispatch
import Glibc

/// Long output at a terminal, a screenful at a time: after each screenful a prompt waits for a key
/// (space or Enter: the next screenful; ↓ or j: one more line; q, Escape or Ctrl-C: stop).
///
/// Only when both ends are a capable terminal (`TERM` set and not `dumb`): with standard input piped,
/// or output that is not a terminal, everything is written at once. The window's size is asked for
/// before every screenful, so a resized window is followed. Keys are read in raw mode on the line
/// readers' queue, never on the cooperative pool, and the terminal's mode is restored before `show`
/// returns (and by `TerminalSignalGuard` if a signal ends the process meanwhile).
public final class TerminalPager: Sendable {
    /// What a key asks of the pager.
    enum Move: Equatable {
        case page
        case line
        case stop
    }

    private let input: Int32
    private let output: Int32
    private let environment: [String: String]

    /// Nil when `output` is not a terminal (a pipe or a file gets the whole text, unfitted).
    public init?(input: Int32 = 0, output: Int32 = 1,
                 environment: [String: String] = TerminalDevice.environment) {
        guard TerminalDevice.isTerminal(output) else { return nil }
        self.input = input
        self.output = output
        self.environment = environment
    }

    /// Rows and columns of the window now (`LINES`/`COLUMNS` where the terminal cannot say).
    public var size: (rows: Int, columns: Int) {
        TerminalDevice.size(output, environment: environment)
    }

    /// Writes `text`, pausing after each screenful when it is longer than the window and someone can
    /// answer at the keyboard.
    public func show(_ text: String) async {
        let text = TerminalSafeText.encode(text)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        let canAsk = TerminalDevice.isTerminal(input) && TerminalDevice.supportsLineEditing(environment: environment)
        guard canAsk, lines.count > size.rows - 1, let normalMode = RawTerminalMode.current(input) else {
            FileDescriptorIO.writeAll(output, text)
            return
        }
        var shown = 0
        var room = max(1, size.rows - 1)
        while shown < lines.count {
            let end = min(lines.count, shown + room)
            FileDescriptorIO.writeAll(output, lines[shown..<end].map { $0 + "\n" }.joined())
            shown = end
            guard shown < lines.count else { return }
            let prompt = "-- \(shown) of \(lines.count) lines · space/Enter: more · q: stop --"
            FileDescriptorIO.writeAll(output, "\u{1B}[7m" + prompt.truncated(toWidth: max(1, size.columns - 1)) + "\u{1B}[0m")
            let move = await Self.onReaderQueue { self.readMove(normalMode: normalMode) }
            // The prompt is wiped so the text reads on as one listing.
            FileDescriptorIO.writeAll(output, "\r\u{1B}[K")
            switch move {
            case .stop: return
            case .line: room = 1
            case .page: room = max(1, size.rows - 1)
            }
        }
    }

    /// What a decoded key asks for; nil for keys the pager ignores.
    static func move(for key: EditorKey) -> Move? {
        switch key {
        case .text(let typed):
            switch typed.first {
            case " ", "f": return .page
            case "j": return .line
            case "q", "Q": return .stop
            default: return nil
            }
        case .enter: return .page
        case .down: return .line
        case .escape, .control("c"), .control("d"): return .stop
        default: return nil
        }
    }

    /// Waits for a key that means something, in raw mode; the end of input or a failure stops.
    private func readMove(normalMode: termios) -> Move {
        guard RawTerminalMode.apply(RawTerminalMode.raw(from: normalMode), to: input) else { return .stop }
        let slot = TerminalSignalGuard.arm(terminal: input, output: output, wake: -1, normalMode: normalMode)
        defer {
            if let slot { TerminalSignalGuard.disarm(slot) }
            RawTerminalMode.apply(normalMode, to: input)
        }
        var decoder = KeyDecoder()
        while true {
            // A lone Escape waits in the decoder for a sequence that may follow; a short pause settles it.
            var watched = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&watched, 1, decoder.hasPendingBytes ? 50 : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .stop
            }
            let keys: [EditorKey]
            if ready == 0 {
                keys = decoder.flush()
            } else {
                let bytes = FileDescriptorIO.readSome(input, limit: 64)
                if bytes.isEmpty { return .stop }
                keys = decoder.feed(bytes)
            }
            if let move = keys.lazy.compactMap(Self.move(for:)).first { return move }
        }
    }

    /// Runs a blocking read on the line readers' queue; the caller waits without holding a pool thread.
    private static func onReaderQueue(_ read: @escaping @Sendable () -> Move) async -> Move {
        await withCheckedContinuation { continuation in
            LineReaderQueue.shared.async { continuation.resume(returning: read()) }
        }
    }
}
