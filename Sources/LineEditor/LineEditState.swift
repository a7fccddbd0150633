/// The line being typed at a prompt, and every edit a person can make to it. Pure: no terminal, no I/O.
///
/// The buffer is an array of grapheme clusters, so the cursor moves over "白", "é" or "👩‍💻" in one
/// step whatever its UTF-8 length. Each edit reports whether it changed anything; a refused edit
/// (backspace at the start of the line) changes nothing and lets the caller ring the bell.
public struct LineEditState: Sendable, Equatable {
    /// The characters of the line.
    public private(set) var buffer: [Character]
    /// The insertion point: how many characters of `buffer` lie before the cursor.
    public private(set) var cursor: Int
    /// The text the last kill (Ctrl-K, Ctrl-U, Ctrl-W, Alt-D) removed, which Ctrl-Y inserts again.
    public private(set) var killed: String = ""
    /// Earlier lines, oldest first.
    public private(set) var history: [String]
    /// Which history entry is shown: `history.count` stands for the new line being typed.
    public private(set) var historyPosition: Int
    /// Lines as edited while browsing, by history position, so moving away and back keeps the edits
    /// (and the new line typed before going up is there again on the way down).
    private var editedEntries: [Int: [Character]] = [:]

    /// Starts a line holding `text`, the cursor at its end, with `history` to browse (oldest first).
    public init(text: String = "", history: [String] = []) {
        buffer = Array(text)
        cursor = buffer.count
        self.history = history
        historyPosition = history.count
    }

    /// The line as a string.
    public var text: String { String(buffer) }

    /// The text before the cursor.
    public var textBeforeCursor: String { String(buffer[..<cursor]) }

    // MARK: Inserting and deleting

    /// Inserts `text` at the cursor and moves the cursor past it. A combining mark or joiner that
    /// arrives on its own joins the character before it, as it does on screen.
    public mutating func insert(_ text: String) {
        guard !text.isEmpty else { return }
        // Clustering the joined strings again merges marks with their neighbours on both sides.
        let throughInsertion = Array(String(buffer[..<cursor]) + text)
        buffer = Array(String(throughInsertion) + String(buffer[cursor...]))
        cursor = min(throughInsertion.count, buffer.count)
    }

    /// Deletes the character before the cursor (Backspace).
    public mutating func deleteBackward() -> Bool {
        guard cursor > 0 else { return false }
        buffer.remove(at: cursor - 1)
        cursor -= 1
        return true
    }

    /// Deletes the character under the cursor (Delete, Ctrl-D on a non-empty line).
    public mutating func deleteForward() -> Bool {
        guard cursor < buffer.count else { return false }
        buffer.remove(at: cursor)
        return true
    }

    /// Empties the line (the line was abandoned).
    public mutating func clear() {
        buffer = []
        cursor = 0
    }

    // MARK: Moving

    /// One character left.
    public mutating func moveLeft() -> Bool { move(to: cursor - 1) }
    /// One character right.
    public mutating func moveRight() -> Bool { move(to: cursor + 1) }
    /// To the start of the line (Home, Ctrl-A).
    public mutating func moveToStart() -> Bool { move(to: 0) }
    /// To the end of the line (End, Ctrl-E).
    public mutating func moveToEnd() -> Bool { move(to: buffer.count) }
    /// To the start of this or the previous word (Alt-B, Ctrl-Left).
    public mutating func moveWordLeft() -> Bool { move(to: startOfWord(before: cursor, where: Self.isWordCharacter)) }
    /// To the end of this or the next word (Alt-F, Ctrl-Right).
    public mutating func moveWordRight() -> Bool { move(to: endOfWord(after: cursor)) }

    private mutating func move(to position: Int) -> Bool {
        let target = min(max(position, 0), buffer.count)
        guard target != cursor else { return false }
        cursor = target
        return true
    }

    // MARK: Killing and yanking

    /// Cuts from the cursor to the end of the line (Ctrl-K).
    public mutating func killToEnd() -> Bool { kill(cursor..<buffer.count) }
    /// Cuts from the start of the line to the cursor (Ctrl-U).
    public mutating func killToStart() -> Bool { kill(0..<cursor) }
    /// Cuts the whitespace-separated word before the cursor, as the shell's Ctrl-W does.
    public mutating func killPreviousWord() -> Bool {
        kill(startOfWord(before: cursor) { !$0.isWhitespace }..<cursor)
    }
    /// Cuts the letters-and-digits word before the cursor (Alt-Backspace).
    public mutating func killPreviousAlphanumericWord() -> Bool {
        kill(startOfWord(before: cursor, where: Self.isWordCharacter)..<cursor)
    }
    /// Cuts from the cursor to the end of the next word (Alt-D).
    public mutating func killNextWord() -> Bool { kill(cursor..<endOfWord(after: cursor)) }

    /// Inserts the last cut text at the cursor (Ctrl-Y).
    public mutating func yank() -> Bool {
        guard !killed.isEmpty else { return false }
        insert(killed)
        return true
    }

    private mutating func kill(_ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        killed = String(buffer[range])
        buffer.removeSubrange(range)
        cursor = range.lowerBound
        return true
    }

    // MARK: Words

    /// Letters and digits make words; a CJK ideograph is a letter, so "白玉歐蕾" is one word.
    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    /// Skips what is not a word before `position`, then the word itself.
    private func startOfWord(before position: Int, where isWord: (Character) -> Bool) -> Int {
        var index = position
        while index > 0, !isWord(buffer[index - 1]) { index -= 1 }
        while index > 0, isWord(buffer[index - 1]) { index -= 1 }
        return index
    }

    private func endOfWord(after position: Int) -> Int {
        var index = position
        while index < buffer.count, !Self.isWordCharacter(buffer[index]) { index += 1 }
        while index < buffer.count, Self.isWordCharacter(buffer[index]) { index += 1 }
        return index
    }

    // MARK: Completion support

    /// Where the whitespace-separated word that ends at the cursor begins.
    public var wordStartBeforeCursor: Int {
        var index = cursor
        while index > 0, !buffer[index - 1].isWhitespace { index -= 1 }
        return index
    }

    /// Replaces `buffer[range]` with `replacement` and puts the cursor after it.
    public mutating func replace(_ range: Range<Int>, with replacement: String) {
        let lower = min(max(range.lowerBound, 0), buffer.count)
        let upper = min(max(range.upperBound, lower), buffer.count)
        buffer.removeSubrange(lower..<upper)
        cursor = lower
        insert(replacement)
    }

    // MARK: History

    /// Shows the previous (older) history entry, keeping the current line's edits for the way back.
    public mutating func historyPrevious() -> Bool { showHistory(at: historyPosition - 1) }

    /// Shows the next (newer) history entry, and finally the line that was being typed.
    public mutating func historyNext() -> Bool { showHistory(at: historyPosition + 1) }

    private mutating func showHistory(at position: Int) -> Bool {
        guard position >= 0, position <= history.count, position != historyPosition else { return false }
        editedEntries[historyPosition] = buffer
        historyPosition = position
        buffer = editedEntries[position] ?? (position < history.count ? Array(history[position]) : [])
        cursor = buffer.count
        return true
    }
}
