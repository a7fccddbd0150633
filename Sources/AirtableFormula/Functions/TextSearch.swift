import Airtable
/// Finding text in text by characters (graphemes), in time linear in both lengths (Knuth–Morris–Pratt),
/// so hostile inputs like `FIND(REPT('a', 5000) & 'b', REPT('a', 1000000))` stay fast.
struct TextSearch {
    let needle: [Character]
    private let failure: [Int]

    init(_ needle: [Character]) {
        self.needle = needle
        var failure = [Int](repeating: 0, count: needle.count)
        var k = 0
        var i = 1
        while i < needle.count {
            while k > 0, needle[i] != needle[k] { k = failure[k - 1] }
            if needle[i] == needle[k] { k += 1 }
            failure[i] = k
            i += 1
        }
        self.failure = failure
    }

    /// The 0-based offset of the first match starting at or after `start`, or nil.
    func firstMatch(in haystack: [Character], from start: Int) -> Int? {
        guard !needle.isEmpty else { return start <= haystack.count ? start : nil }
        var k = 0
        var i = max(start, 0)
        while i < haystack.count {
            while k > 0, haystack[i] != needle[k] { k = failure[k - 1] }
            if haystack[i] == needle[k] { k += 1 }
            if k == needle.count { return i - needle.count + 1 }
            i += 1
        }
        return nil
    }

    /// Every non-overlapping match, left to right.
    func allMatches(in haystack: [Character]) -> [Int] {
        guard !needle.isEmpty else { return [] }
        var matches: [Int] = []
        var from = 0
        while let match = firstMatch(in: haystack, from: from) {
            matches.append(match)
            from = match + needle.count
        }
        return matches
    }
}
