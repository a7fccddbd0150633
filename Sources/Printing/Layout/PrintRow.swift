import Foundation

/// One row of a label or receipt, laid out once and drawn by each renderer (TSPL, ESC/POS, the text
/// preview), so the preview shows what the paper shows.
enum PrintRow: Equatable {
    enum Alignment: Equatable { case left, center, right }

    /// Text in one line; `large` doubles width and height.
    case text(String, Alignment, large: Bool)
    /// Text at the left and at the right of one line, e.g. an item and its price.
    case pair(String, String, large: Bool)
    /// A full-width line of one character, e.g. `-`.
    case rule(Character)
    /// An empty line.
    case blank
}

/// Layout helpers in printer columns (see ``Big5/columns(_:)``).
enum PrintText {
    /// `text` broken into lines of at most `columns`, at spaces when possible.
    static func wrap(_ text: String, columns: Int, indent: String = "") -> [String] {
        guard columns > 0 else { return [text] }
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if Big5.columns(candidate) <= columns {
                current = candidate
                continue
            }
            if !current.isEmpty { lines.append(current) }
            current = ""
            // A word longer than a line is cut by characters.
            for character in word {
                if Big5.columns(current + String(character)) > columns {
                    lines.append(current)
                    current = indent
                }
                current.append(character)
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// `left` and `right` on one line of `columns`, with spaces between; when they do not fit, the left
    /// part goes alone and the right part is right-aligned on the next line.
    static func pair(_ left: String, _ right: String, columns: Int) -> [String] {
        let gap = columns - Big5.columns(left) - Big5.columns(right)
        if gap >= 1 { return [left + String(repeating: " ", count: gap) + right] }
        return wrap(left, columns: columns) + [aligned(right, .right, columns: columns)]
    }

    static func aligned(_ text: String, _ alignment: PrintRow.Alignment, columns: Int) -> String {
        let room = max(0, columns - Big5.columns(text))
        switch alignment {
        case .left: return text
        case .center: return String(repeating: " ", count: room / 2) + text
        case .right: return String(repeating: " ", count: room) + text
        }
    }

    /// NT$ amounts as printed: "NT$70", "-NT$35".
    static func money(_ amount: Int) -> String {
        amount < 0 ? "-NT$\(-amount)" : "NT$\(amount)"
    }

    /// "2026/12/01 14:05" (withYear) or "12/01 14:05" in `timeZone`.
    static func time(_ date: Date, timeZone: TimeZone, withYear: Bool) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let day = "\(two(parts.month))/\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
        return withYear ? "\(parts.year ?? 0)/" + day : day
    }
}
