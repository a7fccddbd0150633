/// Which columns of a table are shown, and how wide, so that it fits a screen `width` columns wide.
///
/// The rule `ps` and `kubectl get` follow: first the columns that may narrow give up columns, the one
/// with the most room above its `minWidth` first (so two long text columns end up sharing what is left,
/// and a column with a higher minimum, the more important one, keeps more), each down to its minimum;
/// if that is not enough, the column with the lowest `dropRank` is left out and the others get their
/// full width back before narrowing again. Columns without a `minWidth` or `dropRank` (the key ones)
/// are never touched. A pure computation, tested through `TextTable`.
struct TableFit {
    /// The indices of the columns shown, left to right.
    private(set) var shown: [Int]
    /// The width of each shown column, in the order of `shown`.
    private(set) var widths: [Int]

    init(columns: [TextTable.Column], natural: [Int], gap: Int, width: Int?) {
        shown = Array(columns.indices)
        widths = natural
        guard let width else { return }
        while true {
            widths = shown.map { natural[$0] }
            let total = { (widths: [Int]) in widths.reduce(0, +) + gap * max(0, widths.count - 1) }
            var excess = total(widths) - width
            while excess > 0 {
                // The shown column with the most room above its minimum gives up one column.
                var best: Int?
                var bestRoom = 0
                for position in widths.indices {
                    guard let minimum = columns[shown[position]].minWidth, widths[position] - minimum > bestRoom
                    else { continue }
                    best = position
                    bestRoom = widths[position] - minimum
                }
                guard let best else { break }
                widths[best] -= 1
                excess -= 1
            }
            if excess <= 0 { return }
            let droppable = shown.indices.filter { columns[shown[$0]].dropRank != nil }
            guard let drop = droppable.min(by: { (columns[shown[$0]].dropRank ?? 0) < (columns[shown[$1]].dropRank ?? 0) })
            else { return }
            shown.remove(at: drop)
        }
    }
}
