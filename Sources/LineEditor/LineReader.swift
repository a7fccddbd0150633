import Dispatch
import Foundation

/// Where the REPL gets its lines: a terminal with a line editor, or a pipe.
///
/// `readLine` blocks until a line is complete, so call it from a thread of its own (or through
/// `nextLine`, which does that) and never on the cooperative pool.
public protocol LineReader: Sendable {
    /// The next line without its line end, after showing `prompt` where that makes sense; nil at the
    /// end of input (Ctrl-D, a closed pipe).
    func readLine(prompt: String) -> String?

    /// Like `readLine`, for a line that must stay private (a token): not echoed at a terminal and
    /// never kept in history.
    func readSecretLine(prompt: String) -> String?

    /// Like `readLine`, with a line above the prompt that changes by itself (the rotating banner). At a
    /// terminal the line is redrawn in place while the prompt waits, without touching what is typed.
    func readLine(prompt: String, statusLine: StatusLine?) -> String?

    /// Like `readLine`, for the answer to a question (`[y/N]`): shown as typed, never kept in history.
    func readAnswer(prompt: String) -> String?

    /// Like `readLine(prompt:statusLine:)`, with `notices` asked for news while the prompt waits: at a terminal
    /// each is written above the prompt with the bell, and the line being typed is drawn again below it.
    func readLine(prompt: String, statusLine: StatusLine?, notices: Notices?) -> String?

    /// The next line when it is already at hand and taking it cannot wait (`.some(nil)`: the input
    /// ended); nil when a read might wait, so the caller reads on the line readers' queue instead.
    func lineWithoutWaiting(prompt: String) -> String??

    /// Shows `text` (whole lines, already made safe for the terminal) above the line being typed, while a read
    /// waits, without touching what is typed: something that happened by itself (an order sent in the
    /// background). False when the reader cannot (no read waiting, or nothing to redraw): the caller writes it.
    func announce(_ text: String) -> Bool
}

/// News that cannot wait for the next command (an order from the customers' page): lines taken (each once)
/// every `every` while the prompt waits.
public struct Notices: Sendable {
    public let every: Duration
    public let take: @Sendable () -> [String]

    public init(every: Duration, take: @escaping @Sendable () -> [String]) {
        self.every = every
        self.take = take
    }
}

/// A line shown above the prompt that changes on its own clock: its text at an instant, and how long
/// until it changes (nil: never).
public struct StatusLine: Sendable {
    public let text: @Sendable (ContinuousClock.Instant) -> String
    public let timeUntilChange: @Sendable (ContinuousClock.Instant) -> Duration?

    public init(text: @escaping @Sendable (ContinuousClock.Instant) -> String,
                timeUntilChange: @escaping @Sendable (ContinuousClock.Instant) -> Duration?) {
        self.text = text
        self.timeUntilChange = timeUntilChange
    }
}

extension LineReader {
    /// Where nothing can be redrawn, the status line is written once above the prompt.
    public func readLine(prompt: String, statusLine: StatusLine?) -> String? {
        readLine(prompt: (statusLine.map { $0.text(.now) + "\n" } ?? "") + prompt)
    }

    /// `readLine(prompt:statusLine:)` run on the line readers' own queue (off the cooperative pool),
    /// or at once when the line is already at hand (see `lineWithoutWaiting`).
    public func nextLine(prompt: String, statusLine: StatusLine?) async -> String? {
        if let ready = lineWithoutWaiting(prompt: (statusLine.map { $0.text(.now) + "\n" } ?? "") + prompt) {
            return ready
        }
        return await LineReaderQueue.read { readLine(prompt: prompt, statusLine: statusLine) }
    }

    /// Where nothing can be redrawn, news that came is written above the prompt when it is shown.
    public func readLine(prompt: String, statusLine: StatusLine?, notices: Notices?) -> String? {
        readLine(prompt: (notices?.take() ?? []).map { $0 + "\n" }.joined() + prompt, statusLine: statusLine)
    }

    /// `readLine(prompt:statusLine:notices:)` on the line readers' own queue, or at once when the line is at hand.
    public func nextLine(prompt: String, statusLine: StatusLine?, notices: Notices?) async -> String? {
        guard let notices else { return await nextLine(prompt: prompt, statusLine: statusLine) }
        if let ready = lineWithoutWaiting(prompt: (statusLine.map { $0.text(.now) + "\n" } ?? "") + prompt) {
            return ready
        }
        return await LineReaderQueue.read { readLine(prompt: prompt, statusLine: statusLine, notices: notices) }
    }

    /// By default a line is always read on the line readers' queue.
    public func lineWithoutWaiting(prompt: String) -> String?? { nil }

    /// By default nothing is redrawn: the caller writes the text itself.
    public func announce(_ text: String) -> Bool { false }

    /// Secret lines are plain lines where nothing is echoed or kept anyway.
    public func readSecretLine(prompt: String) -> String? {
        readLine(prompt: prompt)
    }

    /// Answers are plain lines where no history is kept.
    public func readAnswer(prompt: String) -> String? {
        readLine(prompt: prompt)
    }

    /// `readAnswer` run on the line readers' own queue, so an async caller waits without blocking the pool.
    public func nextAnswer(prompt: String) async -> String? {
        await LineReaderQueue.read { readAnswer(prompt: prompt) }
    }

    /// `readLine` run on the line readers' own queue, so an async caller waits without blocking the pool
    /// (a plain line already at hand is taken at once).
    public func nextLine(prompt: String, secret: Bool = false) async -> String? {
        if !secret, let ready = lineWithoutWaiting(prompt: prompt) { return ready }
        return await LineReaderQueue.read { secret ? readSecretLine(prompt: prompt) : readLine(prompt: prompt) }
    }
}

/// Where blocking reads of standard input wait: one serial queue of their own, off Swift's cooperative
/// pool, so a line costs no new thread (a piped day of 1,000 orders started 1,000 threads before).
enum LineReaderQueue {
    static let shared = DispatchQueue(label: "line reader")

    /// Runs the blocking `read` on that queue; the caller waits without holding a thread of the pool.
    static func read(_ read: @escaping @Sendable () -> String?) async -> String? {
        await withCheckedContinuation { continuation in
            shared.async { continuation.resume(returning: read()) }
        }
    }
}

/// Chooses the line reader for standard input and output.
public enum LineReaders {
    /// The line editor when both standard input and standard output are terminals and `TERM` allows
    /// cursor movement; otherwise plain line reading (which shows the prompt only when standard input
    /// is a terminal, so piped commands produce clean output).
    ///
    /// - Parameters:
    ///   - historyFile: where the editor keeps history across runs; nil keeps it in memory only.
    ///   - completer: Tab completion for the editor.
    ///   - isSecret: lines for which this is true are never written to history.
    public static func make(
        historyFile: HistoryFile? = nil,
        completer: LineCompleter? = nil,
        isSecret: @escaping @Sendable (String) -> Bool = { _ in false },
        environment: [String: String] = TerminalDevice.environment
    ) -> any LineReader {
        let edits = usesLineEditor(
            inputIsTerminal: TerminalDevice.isTerminal(0), outputIsTerminal: TerminalDevice.isTerminal(1),
            environment: environment)
        if edits {
            return TerminalLineReader(historyFile: historyFile, completer: completer, isSecret: isSecret)
        }
        return PlainLineReader()
    }

    /// The rule `make` applies: edit lines only between two terminals and under a capable `TERM`.
    public static func usesLineEditor(
        inputIsTerminal: Bool, outputIsTerminal: Bool, environment: [String: String]
    ) -> Bool {
        inputIsTerminal && outputIsTerminal && TerminalDevice.supportsLineEditing(environment: environment)
    }
}
