/// Suggests completions for the word at the cursor: given the whole line and the cursor (counted in
/// characters), returns the words that could stand in for the whitespace-separated word that ends at
/// the cursor. Called on the reading thread, so it must not block for long.
public typealias LineCompleter = @Sendable (_ line: String, _ cursor: Int) -> [String]

/// What the terminal should do after a key.
public enum EditOutcome: Sendable, Equatable {
    /// The line or the cursor changed: draw it again.
    case redraw
    /// Nothing changed and nothing is wrong (an unbound key).
    case unchanged
    /// The key could not do anything here (Backspace at the start): ring the bell.
    case bell
    /// Enter: the line is done.
    case submit(String)
    /// Ctrl-D on an empty line: no more input.
    case endOfInput
    /// Ctrl-C: the line is thrown away.
    case abandon
    /// Ctrl-L: clear the screen, then draw the line again.
    case clearScreen
    /// A second Tab: show these candidates below the line, then draw it again.
    case showCompletions([String])
    /// Ctrl-Z: hand the terminal back to the shell until the program is resumed.
    case suspend
}

/// The line editor's key bindings over a `LineEditState`: Emacs-style keys as in bash, plus Tab
/// completion. Pure, so every binding is tested by feeding keys.
public struct LineEditor: Sendable {
    /// The line, cursor, kill buffer and history.
    public private(set) var state: LineEditState
    /// Whether the line is secret (a token, a password): no history browsing and no completion.
    public let isSecret: Bool
    private let completer: LineCompleter?
    private var previousKeyWasTab = false

    /// Starts editing an empty line with `history` (oldest first) to browse.
    public init(history: [String] = [], isSecret: Bool = false, completer: LineCompleter? = nil) {
        state = LineEditState(history: isSecret ? [] : history)
        self.isSecret = isSecret
        self.completer = isSecret ? nil : completer
    }

    /// Applies one key and says what the screen should do.
    public mutating func handle(_ key: EditorKey) -> EditOutcome {
        defer { previousKeyWasTab = key == .tab }
        switch key {
        case .text(let text): return insert(Self.printable(text))
        case .paste(let text): return insert(Self.printable(text))
        case .enter: return .submit(state.text)
        case .tab: return complete()
        case .backspace: return edited(state.deleteBackward())
        case .delete: return edited(state.deleteForward())
        case .left, .control("b"): return edited(state.moveLeft())
        case .right, .control("f"): return edited(state.moveRight())
        case .home, .control("a"): return edited(state.moveToStart())
        case .end, .control("e"): return edited(state.moveToEnd())
        case .wordLeft, .alt("b"): return edited(state.moveWordLeft())
        case .wordRight, .alt("f"): return edited(state.moveWordRight())
        case .up, .control("p"): return edited(state.historyPrevious())
        case .down, .control("n"): return edited(state.historyNext())
        case .control("k"): return edited(state.killToEnd())
        case .control("u"): return edited(state.killToStart())
        case .control("w"): return edited(state.killPreviousWord())
        case .altBackspace: return edited(state.killPreviousAlphanumericWord())
        case .alt("d"): return edited(state.killNextWord())
        case .control("y"): return edited(state.yank())
        case .control("c"):
            state.clear()
            return .abandon
        case .control("d"): return state.buffer.isEmpty ? .endOfInput : edited(state.deleteForward())
        case .control("l"): return .clearScreen
        case .control("z"): return .suspend
        default: return .unchanged
        }
    }

    private mutating func insert(_ text: String) -> EditOutcome {
        guard !text.isEmpty else { return .unchanged }
        state.insert(text)
        return .redraw
    }

    private func edited(_ changed: Bool) -> EditOutcome {
        changed ? .redraw : .bell
    }

    /// The keys as if the pasted text had been typed: each line break in a paste becomes Enter, so
    /// several pasted lines run one by one, in order, and are never joined into one command. A line
    /// break is "\n", "\r\n" or "\r"; text after the last break is left on the line being typed.
    public static func typingPastedLines(_ keys: [EditorKey]) -> [EditorKey] {
        var typed: [EditorKey] = []
        for key in keys {
            guard case .paste(let text) = key, text.contains(where: \.isNewline) else {
                typed.append(key)
                continue
            }
            var line = ""
            for character in text {
                if character.isNewline {
                    if !line.isEmpty { typed.append(.paste(line)) }
                    typed.append(.enter)
                    line = ""
                } else {
                    line.append(character)
                }
            }
            if !line.isEmpty { typed.append(.paste(line)) }
        }
        return typed
    }

    /// Text safe for a single line: line breaks and tabs become spaces, other controls go.
    static func printable(_ text: String) -> String {
        var result = ""
        for character in text {
            if character.isNewline || character == "\t" {
                result.append(" ")
            } else if !character.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) {
                result.append(character)
            }
        }
        return result
    }

    // MARK: Completion

    /// One candidate replaces the word (plus a space); several extend it to their longest common
    /// prefix; when that adds nothing, the bell rings and a second Tab lists them.
    private mutating func complete() -> EditOutcome {
        guard let completer else { return .bell }
        let start = state.wordStartBeforeCursor
        let word = String(state.buffer[start..<state.cursor])
        var seen = Set<String>()
        let candidates = completer(state.text, state.cursor).filter { !$0.isEmpty && seen.insert($0).inserted }
        switch candidates.count {
        case 0:
            return .bell
        case 1:
            let nextIsSpace = state.cursor < state.buffer.count && state.buffer[state.cursor] == " "
            state.replace(start..<state.cursor, with: candidates[0] + (nextIsSpace ? "" : " "))
            if nextIsSpace { _ = state.moveRight() }
            return .redraw
        default:
            let prefix = Self.longestCommonPrefix(candidates)
            if prefix.count > word.count, prefix.hasPrefix(word) {
                state.replace(start..<state.cursor, with: prefix)
                return .redraw
            }
            return previousKeyWasTab ? .showCompletions(candidates) : .bell
        }
    }

    /// The longest run of characters every candidate begins with.
    static func longestCommonPrefix(_ candidates: [String]) -> String {
        guard var prefix = candidates.first.map(Array.init) else { return "" }
        for candidate in candidates.dropFirst() {
            let common = zip(prefix, candidate).prefix { $0 == $1 }.count
            prefix.removeLast(prefix.count - common)
        }
        return String(prefix)
    }
}
