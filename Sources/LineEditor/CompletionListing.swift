/// Lays completion candidates out in columns under the line, as a shell does on a second Tab:
/// filled down each column, columns as wide as the widest candidate (by display width) plus two
/// spaces, as many as the terminal has room for.
public enum CompletionListing {
    /// The rows of the listing, without trailing spaces or line ends.
    public static func lines(_ candidates: [String], width: Int) -> [String] {
        guard !candidates.isEmpty else { return [] }
        let cellWidth = (candidates.map(\.displayWidth).max() ?? 0) + 2
        let columnCount = max(1, min(candidates.count, (max(width, 1) + 2) / cellWidth))
        let rowCount = (candidates.count + columnCount - 1) / columnCount
        return (0..<rowCount).map { row in
            var line = ""
            for column in 0..<columnCount {
                let index = column * rowCount + row
                guard index < candidates.count else { break }
                line += candidates[index].padded(toWidth: cellWidth)
            }
            while line.last == " " { line.removeLast() }
            return line
        }
    }
}
