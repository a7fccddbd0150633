extension StringProtocol {
    /// The text broken into lines of at most `width` columns, so a terminal never has to wrap it itself
    /// (which splits words and, in a pager, throws the count of lines off).
    ///
    /// Lines break at spaces, and between CJK characters (written without spaces), never inside a word;
    /// a closing mark (`，`, `。`, `)`) stays with what it closes and an opening one (`（`, `「`) with what
    /// it opens. Lines already narrow enough come back as they are; the lines a long one is broken into
    /// after the first start with `indent` spaces, so they read as its continuation. Only a word wider
    /// than a whole line is broken inside, where it must be: nothing is left out. Escape sequences take
    /// no width and stay where they were (a colour carries on to the next line, as the terminal keeps it).
    public func wrapped(toWidth width: Int, indent: Int = 2) -> String {
        let lines = split(separator: "\n", omittingEmptySubsequences: false)
        return lines.map { line -> String in
            line.displayWidth <= width ? String(line) : LineWrapping.wrap(String(line), width: Swift.max(1, width), indent: indent)
        }.joined(separator: "\n")
    }
}

/// Breaking one line that is too wide (see `wrapped(toWidth:indent:)`).
enum LineWrapping {
    /// A run of text that stays on one line: a word, or one CJK character with the marks that cling to it.
    private struct Unit {
        var pieces: [(text: String, columns: Int)] = []
        var columns = 0
        /// The spaces before it in the line.
        var spaces = 0
    }

    static func wrap(_ line: String, width: Int, indent: Int) -> String {
        let indent = String(repeating: " ", count: max(0, min(indent, width / 2)))
        var out: [String] = []
        var current = ""
        var used = 0
        func breakLine() {
            out.append(current)
            current = indent
            used = 0
        }
        let (units, trailing) = units(of: line)
        for unit in units {
            let room = width - (out.isEmpty ? 0 : indent.count)
            if used > 0 && used + unit.spaces + unit.columns > room { breakLine() }
            // Spaces between words; at the start of the first line, its own indentation.
            if used > 0 || out.isEmpty {
                current += String(repeating: " ", count: unit.spaces)
                used += unit.spaces
            }
            for piece in unit.pieces {
                let roomNow = width - (out.isEmpty ? 0 : indent.count)
                if piece.columns > 0 && used > 0 && used + piece.columns > roomNow { breakLine() }
                current += piece.text
                used += piece.columns
            }
        }
        // A question's last space (`[y/N] `) stays, where there is room for it.
        current += String(repeating: " ", count: max(0, min(trailing, width - (out.isEmpty ? 0 : indent.count) - used)))
        out.append(current)
        return out.joined(separator: "\n")
    }

    /// The line's units, each with the spaces before it, and the spaces after the last.
    private static func units(of line: String) -> (units: [Unit], trailing: Int) {
        var units: [Unit] = []
        var unit = Unit()
        var spaces = 0
        var previous: Character?
        func finish() {
            if !unit.pieces.isEmpty { units.append(unit) }
            unit = Unit()
        }
        for piece in TerminalTextPieces(line) {
            switch piece {
            case .escape(let sequence):
                if unit.pieces.isEmpty { unit.spaces = spaces; spaces = 0 }
                unit.pieces.append((String(sequence), 0))
            case .visible(" "):
                finish()
                spaces += 1
                previous = nil
            case .visible(let character):
                if let previous, !unit.pieces.isEmpty, breaks(between: previous, and: character) { finish() }
                if unit.pieces.isEmpty { unit.spaces = spaces; spaces = 0 }
                let columns = character.displayWidth
                unit.pieces.append((String(character), columns))
                unit.columns += columns
                previous = character
            }
        }
        finish()
        return (units, spaces)
    }

    /// Marks that stay with what comes before them, and those that stay with what follows.
    private static let closing: Set<Character> = Set("，。、；：！？）」』】〉》〕…‧,.;:!?)]}%")
    private static let opening: Set<Character> = Set("（「『【〈《〔([{")

    /// Whether a line may break between two characters of one word: beside a wide (CJK) character, unless
    /// that would leave a closing mark at a line's start or an opening one at a line's end.
    private static func breaks(between before: Character, and after: Character) -> Bool {
        (before.displayWidth == 2 || after.displayWidth == 2) && !closing.contains(after) && !opening.contains(before)
    }
}
