import Foundation

/// An `NSRegularExpression`, which is immutable and documented as safe to share between threads
/// (swift-corelibs-foundation checks its ICU matcher out atomically, or clones it, for each match).
struct FormulaRegex: @unchecked Sendable {
    let regex: NSRegularExpression

    /// How many of ICU's progress reports a match may take before it is given up, so a pattern like
    /// `(a+)+b` cannot hang a filter on a hostile text. ICU reports once per starting position tried
    /// and once every few thousand backtracking steps, so the allowance grows with the text.
    static func progressLimit(forLength length: Int) -> Int { 1_000 + 2 * length }

    init(_ pattern: String) throws(FormulaFailure) {
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            throw FormulaFailure("REGEX_MATCH: \(FormulaValue.excerpt(pattern)) is not a valid regular expression")
        }
    }

    func matches(_ text: String) throws(FormulaFailure) -> Bool {
        var found = false
        var progress = 0
        let limit = Self.progressLimit(forLength: text.utf16.count)
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) {
            result, _, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else {
                progress += 1
                if progress > limit { stop.pointee = true }
            }
        }
        guard found || progress <= limit else {
            throw FormulaFailure("REGEX_MATCH gave up: the pattern takes too long on this text")
        }
        return found
    }
}
