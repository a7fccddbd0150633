import Foundation

/// A compiled regular expression for REGEX_MATCH, REGEX_EXTRACT and REGEX_REPLACE (ICU syntax, as
/// `NSRegularExpression` reads it; Airtable's is RE2, which agrees on everyday patterns).
///
/// `NSRegularExpression` is immutable and safe to share between threads (swift-corelibs-foundation
/// checks its ICU matcher out atomically, or clones it, for each match), hence `@unchecked Sendable`.
struct FormulaRegex: @unchecked Sendable {
    let regex: NSRegularExpression

    /// How many of ICU's progress reports a match may take before it is given up, so a pattern like
    /// `(a+)+b` cannot hang a filter on a hostile text. ICU reports once per starting position tried
    /// and once every few thousand backtracking steps, so the allowance grows with the text.
    static func progressLimit(forLength length: Int) -> Int { 1_000 + 2 * length }

    init(_ pattern: String, for function: String = "REGEX_MATCH") throws(FormulaFailure) {
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            throw FormulaFailure("\(function): \(FormulaValue.excerpt(pattern)) is not a valid regular expression")
        }
    }

    /// The matches in `text`, left to right (only the first when `all` is false).
    func matches(in text: String, all: Bool, for function: String) throws(FormulaFailure) -> [NSTextCheckingResult] {
        var found: [NSTextCheckingResult] = []
        var progress = 0
        let limit = Self.progressLimit(forLength: text.utf16.count)
        regex.enumerateMatches(in: text, options: [.reportProgress], range: NSRange(text.startIndex..., in: text)) {
            result, _, stop in
            if let result {
                found.append(result)
                if !all { stop.pointee = true }
            } else {
                progress += 1
                if progress > limit { stop.pointee = true }
            }
        }
        guard progress <= limit else {
            throw FormulaFailure("\(function) gave up: the pattern takes too long on this text")
        }
        return found
    }

    /// Whether the pattern matches anywhere in `text`.
    func matches(_ text: String) throws(FormulaFailure) -> Bool {
        !(try matches(in: text, all: false, for: "REGEX_MATCH")).isEmpty
    }

    /// The first match's text; an error when there is none, as in Airtable.
    func extract(from text: String) throws(FormulaFailure) -> String {
        guard let match = try matches(in: text, all: false, for: "REGEX_EXTRACT").first,
              let range = Range(match.range, in: text)
        else { throw FormulaFailure("REGEX_EXTRACT found no match in \(FormulaValue.excerpt(text))") }
        return String(text[range])
    }

    /// `text` with every match replaced by `template` (`$1` names a captured group).
    func replace(in text: String, with template: String) throws(FormulaFailure) -> String {
        let found = try matches(in: text, all: true, for: "REGEX_REPLACE")
        let utf16 = Array(text.utf16)
        var result: [UInt16] = []
        var position = 0
        for match in found {
            result += utf16[position..<match.range.location]
            result += regex.replacementString(for: match, in: text, offset: 0, template: template).utf16
            guard result.count <= FormulaEvaluator.maximumTextBytes else {
                throw FormulaFailure("the text would be longer than \(FormulaEvaluator.maximumTextBytes) bytes")
            }
            position = match.range.location + match.range.length
        }
        result += utf16[position...]
        return String(decoding: result, as: UTF16.self)
    }
}
