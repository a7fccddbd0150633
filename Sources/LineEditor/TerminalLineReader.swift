import Glibc
import Synchronization

/// Reads lines at a terminal with a line editor: cursor keys, Emacs keys, history kept across runs
/// and Tab completion, drawn correctly over Chinese text.
///
/// Each `readLine` puts the terminal into raw mode and restores its previous mode before returning,
/// whichever way it returns; SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGTSTP restore it too (see
/// `TerminalSignalGuard`). Ctrl-C abandons the line: `readLine` returns an empty string. Ctrl-D on an
/// empty line, or the terminal going away, is the end of input (nil). Keys typed ahead after Enter are
/// kept for the next line. When `input` turns out not to be a terminal, lines are read plainly.
public final class TerminalLineReader: LineReader {
    private struct State {
        var decoder = KeyDecoder()
        var typedAhead: [EditorKey] = []
        var history: KeptHistory
        var screen = Screen()
    }

    /// What is on screen for the line being edited: the status line directly above the prompt's row
    /// (nil once it is no longer directly above, e.g. after a completion listing) and the cursor's column.
    private struct Screen {
        var statusLine: StatusLine?
        var statusText = ""
        var statusWidth: Int { statusText.displayWidth }
        var cursorColumn = 0
    }

    /// How a line ended.
    private enum Ending {
        case line(String)
        case endOfInput
    }

    private enum InputEvent {
        case bytes([UInt8])
        case quiet
        case woken
        case interrupted
        case closed
    }

    private let input: Int32
    private let output: Int32
    private let completer: LineCompleter?
    private let fallback: PlainLineReader
    /// A pipe a signal handler writes to, so a reader waiting for keys wakes up to redraw.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state: Mutex<State>
    /// Whether a read is waiting for keys, and the text `announce` left for it to show above the line.
    private let announcements = Mutex<(reading: Bool, pending: [String])>((false, []))

    /// - Parameters:
    ///   - input: the terminal to read keys from (standard input by default).
    ///   - output: where the line is drawn (standard output by default).
    ///   - historyFile: keeps history across runs; nil keeps it for this process only.
    ///   - historyLimit: lines kept when there is no history file (a file brings its own limit).
    ///   - completer: offers completions on Tab; nil makes Tab ring the bell.
    ///   - isSecret: lines for which this is true are never kept in history or written to the file.
    public init(
        input: Int32 = 0,
        output: Int32 = 1,
        historyFile: HistoryFile? = nil,
        historyLimit: Int = 1000,
        completer: LineCompleter? = nil,
        isSecret: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.input = input
        self.output = output
        self.completer = completer
        fallback = PlainLineReader(input: input, output: output)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
        }
        wakeRead = ends[0]
        wakeWrite = ends[1]
        state = Mutex(State(history: KeptHistory(file: historyFile, limit: historyFile?.limit ?? historyLimit, isSecret: isSecret)))
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    /// The lines kept in history, oldest first.
    public var history: [String] { state.withLock { $0.history.history.entries } }

    /// The first failure to read or write the history file, for the caller to mention once.
    public var historyProblem: HistoryFileError? { state.withLock { $0.history.problem } }

    public func readLine(prompt: String) -> String? {
        read(prompt: prompt, secret: false, keptInHistory: true)
    }

    /// The status line stays on the row above the prompt and is redrawn there when it changes.
    public func readLine(prompt: String, statusLine: StatusLine?) -> String? {
        read(prompt: prompt, secret: false, keptInHistory: true, statusLine: statusLine)
    }

    /// News written above the prompt as it comes, with the bell; the status line and the line being typed are
    /// drawn again below it.
    public func readLine(prompt: String, statusLine: StatusLine?, notices: Notices?) -> String? {
        read(prompt: prompt, secret: false, keptInHistory: true, statusLine: statusLine, notices: notices)
    }

    public func readSecretLine(prompt: String) -> String? {
        read(prompt: prompt, secret: true, keptInHistory: false)
    }

    public func readAnswer(prompt: String) -> String? {
        read(prompt: prompt, secret: false, keptInHistory: false)
    }

    /// Queued for the waiting read, which wakes, writes it above the prompt and draws the line again as it was.
    public func announce(_ text: String) -> Bool {
        let queued = announcements.withLock { waiting in
            guard waiting.reading else { return false }
            waiting.pending.append(text)
            return true
        }
        if queued { wakeReader(wakeWrite) }
        return queued
    }

    // MARK: Reading a line

    private func read(prompt: String, secret: Bool, keptInHistory: Bool, statusLine: StatusLine? = nil,
                      notices: Notices? = nil) -> String? {
        guard let normalMode = RawTerminalMode.current(input) else {
            let status = statusLine.map { $0.text(.now) + "\n" } ?? ""
            return secret ? fallback.readSecretLine(prompt: prompt) : fallback.readLine(prompt: status + prompt)
        }
        // Lines above the prompt are written once, before raw mode (so "\n" still ends a line); only
        // the prompt's last line is redrawn.
        let lastBreak = prompt.lastIndex(of: "\n")
        let fitted = LineRenderer.fitting(
            prompt: lastBreak.map { String(prompt[prompt.index(after: $0)...]) } ?? prompt,
            width: TerminalDevice.columns(output))
        let written = String(lastBreak.map { prompt[...$0] } ?? "")
        var linesAbove = written + fitted.above
        let prompt = fitted.last
        // The status line is kept to one row, so it can be redrawn in place; when the prompt itself needs
        // rows above (a narrow terminal), it is written once above them instead.
        let status = fitted.above.isEmpty ? statusLine : nil
        let statusText = status.map { statusRow($0) }
        if let statusText { linesAbove += statusText + "\n" }
        if status == nil, let statusLine {
            linesAbove = written + statusLine.text(.now) + "\n" + fitted.above
        }
        return state.withLock { state in
            state.screen = Screen(statusLine: status, statusText: statusText ?? "")
            write(String(linesAbove))
            guard enterRawMode(from: normalMode) else {
                return secret ? fallback.readSecretLine(prompt: prompt) : fallback.readLine(prompt: prompt)
            }
            let slot = TerminalSignalGuard.arm(terminal: input, output: output, wake: wakeWrite, normalMode: normalMode)
            announcements.withLock { $0.reading = true }
            defer {
                if let slot { TerminalSignalGuard.disarm(slot) }
                leaveRawMode(to: normalMode)
                // Announced as the line ended: shown below it, before whatever the line does.
                let left = announcements.withLock { waiting in
                    waiting.reading = false
                    defer { waiting.pending = [] }
                    return waiting.pending
                }
                if !left.isEmpty { write(left.joined()) }
            }
            let entries = state.history.history.entries
            var editor = LineEditor(history: entries, isSecret: secret, completer: completer)
            switch edit(&editor, prompt: prompt, normalMode: normalMode, state: &state, notices: notices) {
            case .endOfInput:
                return nil
            case .line(let line):
                if keptInHistory { state.history.record(line) }
                return line
            }
        }
    }

    /// Feeds keys to the editor until the line ends.
    private func edit(_ editor: inout LineEditor, prompt: String, normalMode: termios, state: inout State,
                      notices: Notices?) -> Ending {
        draw(prompt, editor, screen: &state.screen)
        while true {
            var keys = state.typedAhead
            state.typedAhead = []
            if keys.isEmpty {
                if let news = notices?.take(), !news.isEmpty { announce(news, prompt, editor, screen: &state.screen) }
                var timeout: Int32 = state.decoder.isInsidePaste ? 1000 : (state.decoder.hasPendingBytes ? 50 : -1)
                for wait in [state.screen.statusLine?.timeUntilChange(.now), notices?.every].compactMap({ $0 }) {
                    let milliseconds = Int32(clamping: wait.components.seconds * 1000
                        + wait.components.attoseconds / 1_000_000_000_000_000 + 1)
                    timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
                }
                switch waitForInput(timeout: timeout) {
                case .bytes(let bytes): keys = LineEditor.typingPastedLines(state.decoder.feed(bytes))
                case .quiet:
                    keys = LineEditor.typingPastedLines(state.decoder.flush())
                    if keys.isEmpty, let status = state.screen.statusLine, statusRow(status) != state.screen.statusText {
                        redrawStatusLine(prompt, editor, screen: &state.screen)
                    }
                case .interrupted: continue
                case .woken:
                    let announced = announcements.withLock { waiting in
                        defer { waiting.pending = [] }
                        return waiting.pending
                    }
                    if announced.isEmpty { _ = enterRawMode(from: normalMode) }
                    redrawAfterResize(prompt, editor, screen: &state.screen, above: announced.joined())
                    continue
                case .closed:
                    write("\r\n")
                    return .endOfInput
                }
            }
            for (index, key) in keys.enumerated() {
                if let ending = perform(editor.handle(key), editor: editor, prompt: prompt, normalMode: normalMode,
                                        screen: &state.screen) {
                    state.typedAhead = Array(keys[(index + 1)...])
                    return ending
                }
            }
        }
    }

    /// Shows what a key did; the ending when the line is finished.
    private func perform(_ outcome: EditOutcome, editor: LineEditor, prompt: String, normalMode: termios,
                         screen: inout Screen) -> Ending? {
        switch outcome {
        case .redraw:
            draw(prompt, editor, screen: &screen)
        case .unchanged:
            break
        case .bell:
            write("\u{7}")
        case .submit(let line):
            // The whole line, wrapped by the terminal, so the scrollback keeps all of it (while typing, a
            // line wider than the screen scrolls sideways on one row).
            write(LineRenderer.submitted(prompt: prompt, buffer: editor.isSecret ? [] : editor.state.buffer,
                                         width: TerminalDevice.columns(output)))
            write("\r\n")
            return .line(line)
        case .endOfInput:
            write("\r\n")
            return .endOfInput
        case .abandon:
            write("^C\r\n")
            return .line("")
        case .clearScreen:
            write("\u{1B}[H\u{1B}[2J")
            if let status = screen.statusLine {
                let text = statusRow(status)
                screen.statusText = text
                write(text + "\r\n")
            }
            draw(prompt, editor, screen: &screen)
        case .showCompletions(let candidates):
            let lines = CompletionListing.lines(candidates, width: TerminalDevice.columns(output))
            write("\r\n" + lines.map { $0 + "\r\n" }.joined())
            screen.statusLine = nil  // no longer directly above the prompt
            draw(prompt, editor, screen: &screen)
        case .suspend:
            leaveRawMode(to: normalMode)
            _ = raise(SIGTSTP)
            _ = enterRawMode(from: normalMode)
            draw(prompt, editor, screen: &screen)
        }
        return nil
    }

    // MARK: Terminal

    private func enterRawMode(from normalMode: termios) -> Bool {
        guard RawTerminalMode.apply(RawTerminalMode.raw(from: normalMode), to: input) else { return false }
        write("\u{1B}[?2004h")  // bracketed paste: pasted text arrives marked, never run as keys
        return true
    }

    private func leaveRawMode(to normalMode: termios) {
        write("\u{1B}[?2004l")
        RawTerminalMode.apply(normalMode, to: input)
    }

    private func draw(_ prompt: String, _ editor: LineEditor, screen: inout Screen, cursorAtEnd: Bool = false) {
        let buffer = editor.isSecret ? [] : editor.state.buffer
        let cursor = cursorAtEnd || editor.isSecret ? buffer.count : editor.state.cursor
        let drawn = LineRenderer.layout(prompt: prompt, buffer: buffer, cursor: cursor, width: TerminalDevice.columns(output))
        screen.cursorColumn = drawn.cursorColumn
        write(drawn.output)
    }

    /// The status line's text now, cut to one row of the terminal.
    private func statusRow(_ status: StatusLine) -> String {
        let text = status.text(.now)
        let room = max(TerminalDevice.columns(output) - 1, 1)
        return text.displayWidth > room ? text.truncated(toWidth: room) : text
    }

    /// The status line changed: rewrite the row above the prompt, then the prompt's row as it was.
    private func redrawStatusLine(_ prompt: String, _ editor: LineEditor, screen: inout Screen) {
        guard let status = screen.statusLine else { return }
        let text = statusRow(status)
        screen.statusText = text
        write("\r\u{1B}[1A\u{1B}[2K" + text + "\r\n")
        draw(prompt, editor, screen: &screen)
    }

    /// News above the prompt: the prompt's row (and the status line right above it) cleared, the news written
    /// there fitted to the width, with the bell, then the status line and the prompt drawn again below.
    private func announce(_ news: [String], _ prompt: String, _ editor: LineEditor, screen: inout Screen) {
        let width = TerminalDevice.columns(output)
        var text = "\r\u{1B}[2K" + (screen.statusLine == nil ? "" : "\u{1B}[1A\u{1B}[2K")
        for line in news {
            text += TerminalSafeText.encode(line).wrapped(toWidth: width).replacingOccurrences(of: "\n", with: "\r\n") + "\r\n"
        }
        text += "\u{7}"
        if let status = screen.statusLine {
            let row = statusRow(status)
            screen.statusText = row
            text += row + "\r\n"
        }
        write(text)
        draw(prompt, editor, screen: &screen)
    }

    /// The window was resized (or the program resumed, or text was announced): go back to where the drawing
    /// began, however the terminal rewrapped it, clear everything below, write `above` (announced lines), and
    /// draw the status line and the prompt again.
    private func redrawAfterResize(_ prompt: String, _ editor: LineEditor, screen: inout Screen, above announced: String = "") {
        let width = TerminalDevice.columns(output)
        let above = screen.statusLine == nil ? [] : [screen.statusWidth]
        write(LineRenderer.rewind(linesAbove: above, cursorColumn: screen.cursorColumn, width: width))
        // Raw mode: a line feed does not return the carriage.
        if !announced.isEmpty { write(announced.replacingOccurrences(of: "\n", with: "\r\n")) }
        if let status = screen.statusLine {
            let text = statusRow(status)
            screen.statusText = text
            write(text + "\r\n")
        }
        draw(prompt, editor, screen: &screen)
    }

    private func write(_ text: String) {
        FileDescriptorIO.writeAll(output, text)
    }

    /// Waits for keys, for a signal's wake-up, or (with a timeout) for the input to go quiet.
    private func waitForInput(timeout: Int32) -> InputEvent {
        var watched = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&watched, nfds_t(watched.count), timeout)
        if ready < 0 { return errno == EINTR ? .interrupted : .closed }
        if ready == 0 { return .quiet }
        if watched[1].revents & Int16(POLLIN) != 0 {
            while !FileDescriptorIO.readSome(wakeRead, limit: 64).isEmpty {}  // non-blocking: stops when empty
            return .woken
        }
        guard watched[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 else { return .closed }
        let bytes = FileDescriptorIO.readSome(input, limit: 1024)
        return bytes.isEmpty ? .closed : .bytes(bytes)
    }
}

/// One byte on the reader's wake pipe (outside the type, whose `write` writes text to the terminal).
private func wakeReader(_ pipe: Int32) {
    var byte: UInt8 = 1
    _ = write(pipe, &byte, 1)
}
