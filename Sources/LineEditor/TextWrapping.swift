extension StringProtocol {
    /// The text broken into lines of at most `width` columns, at spaces, so a terminal never has to
    /// wrap it itself (which splits words and, in a pager, throws the count of lines off).
    ///
    /// Lines already narrow enough come back as they are; the lines a long one is broken into after the
    /// first start with `indent` spaces, so they read as its continuation. A word wider than a line is
    /// cut with "…". Escape sequences take no width and stay where they were (a colour carries on to the
    /// next line, as the terminal keeps it).
    public func wrapped(toWidth width: Int, indent: Int = 2) -> String {
        let lines = split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { line -> String in
            line.displayWidth <= width ? String(line) : LineWrapping.wrap(String(line), width: width, indent: indent)
        }.joined(separator: "\n")
    }
}

/// Breaking one line that is too wide (see `wrapped(toWidth:indent:)`).
private enum LineWrapping {
    static func wrap(_ line: String, width: Int, indent: Int) -> String {
        let indent = String(repeating: " ", count: max(0, min(indent, width / 2)))
        var out: [String] = []
        var current = ""
        var used = 0
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            let room = width - (out.isEmpty ? 0 : indent.count)
            var word = String(word)
            if word.displayWidth > room { word = word.truncated(toWidth: room) }
            let columns = word.displayWidth
            if used > 0 && used + 1 + columns > room {
                out.append(current)
                current = ""
                used = 0
            }
            if used > 0 || !current.isEmpty {
                current += " "
                used += 1
            }
            current += word
            used += columns
        }
        out.append(current)
        return out.enumerated().map { $0.offset == 0 ? $0.element : indent + $0.element }.joined(separator: "\n")
    }
}
