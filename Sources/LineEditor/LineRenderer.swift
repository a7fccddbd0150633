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
    ///     terminal is cut with "…" to leave room for the line.
    ///   - buffer: the line's characters.
    ///   - cursor: how many characters of `buffer` lie before the cursor.
    ///   - width: the terminal's width in columns.
    public static func render(prompt: String, buffer: [Character], cursor: Int, width: Int) -> String {
        let columns = max(width, 2)
        let shownPrompt = prompt.displayWidth > columns / 2 ? prompt.truncated(toWidth: columns / 2) : prompt
        let room = columns - 1 - shownPrompt.displayWidth
        let cursor = min(max(cursor, 0), buffer.count)
        let window = visibleWindow(of: buffer, cursor: cursor, room: room)
        let cursorColumn = shownPrompt.displayWidth
            + buffer[window.lowerBound..<cursor].reduce(0) { $0 + $1.displayWidth }
        var output = "\r" + shownPrompt + String(buffer[window]) + "\u{1B}[0K\r"
        if cursorColumn > 0 { output += "\u{1B}[\(cursorColumn)C" }
        return output
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
