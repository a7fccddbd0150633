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
        var ended = false
        var startChecked = false
        /// How many buffered bytes are known to hold no line end, so a long line is scanned once.
        var scanned = 0
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
            if showsPrompt && !prompt.isEmpty { FileDescriptorIO.writeAll(output, prompt) }
            while true {
                if let end = state.buffered[min(state.scanned, state.buffered.count)...].firstIndex(of: UInt8(ascii: "\n")) {
                    var line = Array(state.buffered[..<end])
                    state.buffered.removeFirst(end + 1)
                    state.scanned = 0
                    if line.last == UInt8(ascii: "\r") { line.removeLast() }
                    return String(decoding: line, as: UTF8.self)
                }
                state.scanned = state.buffered.count
                if state.ended {
                    guard !state.buffered.isEmpty else { return nil }
                    defer {
                        state.buffered.removeAll()
                        state.scanned = 0
                    }
                    return String(decoding: state.buffered, as: UTF8.self)
                }
                let bytes = FileDescriptorIO.readSome(input)
                if bytes.isEmpty { state.ended = true } else { state.buffered += bytes }
                // A file saved by a Windows editor starts with a UTF-8 byte-order mark; it is not
                // part of the first command.
                if !state.startChecked, state.buffered.count >= 3 || state.ended {
                    state.startChecked = true
                    if state.buffered.starts(with: [0xEF, 0xBB, 0xBF]) {
                        state.buffered.removeFirst(3)
                        state.scanned = 0
                    }
                }
            }
        }
    }
}
