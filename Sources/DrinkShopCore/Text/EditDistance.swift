/// Levenshtein distance between two strings, counted in characters (so one Chinese character
/// counts as one edit, as a person typing it would see it).
public func editDistance(_ a: String, _ b: String) -> Int {
    let source = Array(a)
    let target = Array(b)
    if source.isEmpty { return target.count }
    if target.isEmpty { return source.count }
    // Two rows are enough: each cell only needs the row above and the cell to its left.
    var previous = Array(0...target.count)
    var current = [Int](repeating: 0, count: target.count + 1)
    for i in 1...source.count {
        current[0] = i
        for j in 1...target.count {
            let substitution = previous[j - 1] + (source[i - 1] == target[j - 1] ? 0 : 1)
            current[j] = Swift.min(substitution, previous[j] + 1, current[j - 1] + 1)
        }
        swap(&previous, &current)
    }
    return previous[target.count]
}
