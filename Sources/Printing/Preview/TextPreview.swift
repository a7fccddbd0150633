import Foundation

/// The sticker or receipt as plain text, for `--preview` at the prompt: the same rows the printer
/// gets, with the same `?` where Big5 has no character, large text spaced out to its printed width.
public struct TextPreview: Sendable {
    public var labelColumns: Int
    public var receiptColumns: Int
    public var timeZone: TimeZone

    /// Widths default to the formatters' defaults so the preview wraps where the paper does.
    public init(
        labelColumns: Int = TSPLFormatter().columns, receiptColumns: Int = ESCPOSFormatter().columns,
        timeZone: TimeZone = .current
    ) {
        self.labelColumns = labelColumns
        self.receiptColumns = receiptColumns
        self.timeZone = timeZone
    }

    /// A sticker framed on all four sides: a rule above and below, each line between `| ` and ` |`, padded
    /// by printer columns (a CJK character takes two) so the right edge lines up.
    public func render(_ label: CupLabel) -> String {
        let rows = LabelLayout.rows(for: label, columns: labelColumns, timeZone: timeZone)
        let border = "+" + String(repeating: "-", count: labelColumns + 2) + "+"
        let framed = lines(rows, columns: labelColumns).map { line in
            "| " + line + String(repeating: " ", count: max(0, labelColumns - Big5.columns(line))) + " |"
        }
        return ([border] + framed + [border]).joined(separator: "\n")
    }

    public func render(_ receipt: Receipt) -> String {
        let rows = ReceiptLayout.rows(for: receipt, columns: receiptColumns, timeZone: timeZone)
        return lines(rows, columns: receiptColumns).joined(separator: "\n")
    }

    private func lines(_ rows: [PrintRow], columns: Int) -> [String] {
        var lines: [String] = []
        for row in rows {
            switch row {
            case .text(let text, let alignment, let large):
                let shown = Big5.encode(text).printedText
                lines.append(large
                    ? widen(PrintText.aligned(shown, alignment, columns: columns / 2))
                    : PrintText.aligned(shown, alignment, columns: columns))
            case .pair(let left, let right, let large):
                let (left, right) = (Big5.encode(left).printedText, Big5.encode(right).printedText)
                for line in PrintText.pair(left, right, columns: large ? columns / 2 : columns) {
                    lines.append(large ? widen(line) : line)
                }
            case .rule(let character):
                lines.append(String(repeating: String(character), count: columns))
            case .blank:
                lines.append("")
            }
        }
        return lines.map { trimTrailingSpaces($0) }
    }

    /// Double-width text drawn as its characters spaced out, so it takes the columns it takes on paper.
    private func widen(_ text: String) -> String {
        var result = ""
        for character in text {
            result.append(character)
            result += character.isASCII ? " " : "  "
        }
        return result
    }

    private func trimTrailingSpaces(_ text: String) -> String {
        var text = text
        while text.last == " " { text.removeLast() }
        return text
    }
}
