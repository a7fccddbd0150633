import Foundation

/// The bytes that draw a prompt and its line on one terminal row. Pure: the same input always gives
/// the same output, so cursor placement over wide characters is tested without a terminal.
///
/// The drawing goes back to the first column, writes the prompt and the visible part of the line,
/// clears what an older, longer line left behind, and puts the cursor on its display column (a CJK
/// character counts two). A line wider than the terminal scrolls sideways: the window shows the
/// cursor and as much text around it as fits, and the last column stays free so the terminal never
/// wraps onto a second row.
public enum LineRenderer {
    /// Carriage return, prompt, visible text, clear to end of line, cursor placement.
    ///
    /// - Parameters:
    ///   - prompt: shown first; may carry styles, which take no width. A prompt wider than half the
    ///     terminal loses its start (and its styles) to "…", so its end ("> ", "[y/N] ") stays in
    ///     view and typing never runs into it.
    ///   - buffer: the line's characters.
    ///   - cursor: how many characters of `buffer` lie before the cursor.
    ///   - width: the terminal's width in columns.
    public static func render(prompt: String, buffer: [Character], cursor: Int, width: Int) -> String {
        layout(prompt: prompt, buffer: buffer, cursor: cursor, width: width).output
    }

    /// The bytes that leave a finished line on the screen: as `render` draws it when it fits on one row;
    /// otherwise the prompt and the whole line from the row's start, for the terminal to wrap, so the
    /// scrollback holds every character typed (not the window's tail).
    public static func submitted(prompt: String, buffer: [Character], width: Int) -> String {
        let columns = max(width, 2)
        guard prompt.displayWidth + buffer.reduce(0, { $0 + $1.displayWidth }) >= columns else {
            return render(prompt: prompt, buffer: buffer, cursor: buffer.count, width: width)
        }
        return "\r" + prompt + String(buffer) + "\u{1B}[0K"
    }

    /// `render`'s bytes and the column the cursor ends on.
    static func layout(prompt: String, buffer: [Character], cursor: Int, width: Int) -> (output: String, cursorColumn: Int) {
        let columns = max(width, 2)
        let shownPrompt = prompt.displayWidth > columns / 2 ? keepingEnd(of: prompt, width: columns / 2) : prompt
        let room = columns - 1 - shownPrompt.displayWidth
        let cursor = min(max(cursor, 0), buffer.count)
        let window = visibleWindow(of: buffer, cursor: cursor, room: room)
        let cursorColumn = shownPrompt.displayWidth
            + buffer[window.lowerBound..<cursor].reduce(0) { $0 + $1.displayWidth }
        var output = "\r" + shownPrompt + String(buffer[window]) + "\u{1B}[0K\r"
        if cursorColumn > 0 { output += "\u{1B}[\(cursorColumn)C" }
        return (output, cursorColumn)
    }

    /// The bytes that take the cursor back to the first row of a drawing after the terminal was resized
    /// to `width` columns and rewrapped it, and clear from there to the end of the screen, so nothing
    /// stale stays below the prompt. `linesAbove` are the display widths of the lines drawn above the
    /// prompt's row (each takes at least one row); `cursorColumn` is where the cursor stood on that row.
    public static func rewind(linesAbove: [Int], cursorColumn: Int, width: Int) -> String {
        let columns = max(width, 1)
        let rows = cursorColumn / columns + linesAbove.reduce(0) { $0 + max(1, ($1 + columns - 1) / columns) }
        return "\r" + (rows > 0 ? "\u{1B}[\(rows)A" : "") + "\u{1B}[J"
    }

    /// The display column the cursor ends on after `render` with the same arguments.
    public static func cursorColumn(prompt: String, buffer: [Character], cursor: Int, width: Int) -> Int {
        layout(prompt: prompt, buffer: buffer, cursor: cursor, width: width).cursorColumn
    }

    /// The end of `prompt` in at most `width` columns, after "…", without styles.
    static func keepingEnd(of prompt: String, width: Int) -> String {
        var kept: [Character] = []
        var used = 1  // the ellipsis
        for character in prompt.removingTerminalEscapes.reversed() {
            guard used + character.displayWidth <= width else { break }
            kept.append(character)
            used += character.displayWidth
        }
        return width >= 1 ? "…" + String(kept.reversed()) : ""
    }

    /// A prompt too wide for half the terminal, split at a space into lines written above the line
    /// being edited and an end short enough to stay whole, so a question such as
    /// "Delete order #4 (…) for good? [y/N] " shows all of its words and its `[y/N]` at any width.
    /// A prompt that fits, or that has no space to split at, comes back whole as `last`.
    public static func fitting(prompt: String, width: Int) -> (above: String, last: String) {
        let room = max(width, 2) / 2
        guard prompt.displayWidth > room else { return ("", prompt) }
        var split: String.Index?
        var index = prompt.endIndex
        while index > prompt.startIndex {
            index = prompt.index(before: index)
            guard prompt[index] == " ", index > prompt.startIndex else { continue }
            let tail = prompt[prompt.index(after: index)...]
            if tail.displayWidth > room { break }
            if !tail.removingTerminalEscapes.trimmingCharacters(in: .whitespaces).isEmpty { split = index }
        }
        guard let split else { return ("", prompt) }
        return (String(prompt[..<split]).wrapped(toWidth: max(width, 2), indent: 0) + "\n", String(prompt[prompt.index(after: split)...]))
    }

    /// The characters to show: starting as far left as possible while the cursor still fits, then as
    /// many as fit after that start. A wide character that would straddle the edge is left out.
    static func visibleWindow(of buffer: [Character], cursor: Int, room: Int) -> Range<Int> {
        var start = 0
        var widthBeforeCursor = buffer[..<cursor].reduce(0) { $0 + $1.displayWidth }
        while widthBeforeCursor > room, start < cursor {
            widthBeforeCursor -= buffer[start].displayWidth
            start += 1
        }
        var end = start
        var used = 0
        while end < buffer.count, used + buffer[end].displayWidth <= room {
            used += buffer[end].displayWidth
            end += 1
        }
        return start..<max(end, cursor)
    }
}
