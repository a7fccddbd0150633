import Synchronization

/// Reads lines from a pipe, a file or a terminal without editing: the fallback when no line editor
/// can run, and the reader for scripted input.
///
/// A UTF-8 byte-order mark at the very start is dropped. A line ends at "\n" (a "\r" before it is dropped); the last line counts even without a line end.
/// The prompt is shown only when the input is a terminal, so `drinkshop < orders.txt` prints results
/// and nothing else.
public final class PlainLineReader: LineReader {
    private struct State {
        var buffered: [UInt8] = []
        /// Where the unread bytes of `buffered` start (lines are taken from the front without moving
        /// the rest; the read part is dropped when more is read).
        var start = 0
        var ended = false
        var startChecked = false
        /// How many unread bytes are known to hold no line end, so a long line is scanned once.
        var scanned = 0

        /// The next whole line from what is already read: `.some(line)`; `.some(nil)` at the end of
        /// input; nil when more must be read first.
        mutating func takeLine() -> String?? {
            if let end = buffered[(start + scanned)...].firstIndex(of: UInt8(ascii: "\n")) {
                var stop = end
                if stop > start && buffered[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
                let line = String(decoding: buffered[start..<stop], as: UTF8.self)
                start = end + 1
                scanned = 0
                return .some(line)
            }
            scanned = buffered.count - start
            guard ended else { return nil }
            guard scanned > 0 else { return .some(nil) }
            let line = String(decoding: buffered[start...], as: UTF8.self)
            buffered.removeAll()
            start = 0
            scanned = 0
            return .some(line)
        }

        mutating func append(_ bytes: [UInt8]) {
            if bytes.isEmpty { ended = true }
            if start > 0 {
                buffered.removeFirst(start)
                start = 0
            }
            buffered += bytes
            // A file saved by a Windows editor starts with a UTF-8 byte-order mark; it is not part of
            // the first command.
            if !startChecked, buffered.count >= 3 || ended {
                startChecked = true
                if buffered.starts(with: [0xEF, 0xBB, 0xBF]) {
                    buffered.removeFirst(3)
                    scanned = 0
                }
            }
        }
    }

    private let input: Int32
    private let output: Int32
    private let showsPrompt: Bool
    private let state = Mutex(State())

    /// A reader of `input` that writes prompts to `output`; `showsPrompt` defaults to whether `input`
    /// is a terminal.
    public init(input: Int32 = 0, output: Int32 = 1, showsPrompt: Bool? = nil) {
        self.input = input
        self.output = output
        self.showsPrompt = showsPrompt ?? TerminalDevice.isTerminal(input)
    }

    public func readLine(prompt: String) -> String? {
        state.withLock { state in
            if showsPrompt && !prompt.isEmpty { FileDescriptorIO.writeAll(output, TerminalDevice.fitted(prompt, for: output)) }
            while true {
                if let line = state.takeLine() { return line }
                state.append(FileDescriptorIO.readSome(input))
            }
        }
    }

    /// A line already read from the pipe (piped commands come many to a read), taken without waiting;
    /// nil when reading would have to wait, or another read is under way.
    public func lineWithoutWaiting(prompt: String) -> String?? {
        state.withLockIfAvailable { state -> String?? in
            guard let line = state.takeLine() else { return nil }
            if showsPrompt && !prompt.isEmpty { FileDescriptorIO.writeAll(output, TerminalDevice.fitted(prompt, for: output)) }
            return line
        } ?? nil
    }
}
