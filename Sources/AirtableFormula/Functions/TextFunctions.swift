import Airtable
import Foundation

/// FIND, SEARCH, LOWER, UPPER, LEN, TRIM, LEFT, RIGHT, MID, SUBSTITUTE, REPLACE, CONCATENATE, REPT, T,
/// VALUE. Positions and lengths count characters as a person does (`'珍珠🧋'` has 3), and
/// positions are 1-based. FIND and SEARCH are both case-sensitive; they differ only in what they give
/// when there is no match (0 and blank).
extension FormulaEvaluator {
    func text(_ function: FormulaFunction, _ arguments: [FormulaValue]) throws(FormulaFailure) -> FormulaValue {
        let name = function.rawValue
        switch function {
        case .find, .search:
            let needle = Array(try arguments[0].string(timeZone))
            let haystack = Array(try arguments[1].string(timeZone))
            let start = arguments.count > 2 ? try count(arguments[2], name, "start position") : 1
            let match = TextSearch(needle).firstMatch(in: haystack, from: max(start, 1) - 1)
            // FIND gives 0 when there is no match; SEARCH gives blank.
            guard let match else { return function == .find ? .number(0) : .blank }
            return .number(Double(match + 1))
        case .lower:
            return .text(try arguments[0].string(timeZone).lowercased())
        case .upper:
            return .text(try arguments[0].string(timeZone).uppercased())
        case .len:
            return .number(Double(try arguments[0].string(timeZone).count))
        case .trim:
            return .text(try arguments[0].string(timeZone).trimmingFormulaWhitespace())
        case .left:
            let characters = try arguments[0].string(timeZone)
            return .text(String(characters.prefix(try count(arguments[1], name, "number of characters"))))
        case .right:
            let characters = try arguments[0].string(timeZone)
            return .text(String(characters.suffix(try count(arguments[1], name, "number of characters"))))
        case .mid:
            let characters = Array(try arguments[0].string(timeZone))
            let start = try count(arguments[1], name, "start position")
            guard start >= 1 else { throw FormulaFailure("MID's start position must be 1 or more, not \(start)") }
            let length = try count(arguments[2], name, "number of characters")
            let from = min(start - 1, characters.count)
            return .text(String(characters[from..<min(from + min(length, characters.count), characters.count)]))
        case .substitute:
            return .text(try substitute(arguments))
        case .replace:
            let characters = Array(try arguments[0].string(timeZone))
            let start = try count(arguments[1], name, "start position")
            guard start >= 1 else { throw FormulaFailure("REPLACE's start position must be 1 or more, not \(start)") }
            let length = try count(arguments[2], name, "number of characters")
            let replacement = try arguments[3].string(timeZone)
            let from = min(start - 1, characters.count)
            let to = min(from + min(length, characters.count), characters.count)
            let result = String(characters[..<from]) + replacement + String(characters[to...])
            try Self.checkLength(result.utf8.count)
            return .text(result)
        case .concatenate:
            var result = ""
            for argument in arguments {
                result += try argument.string(timeZone)
                try Self.checkLength(result.utf8.count)
            }
            return .text(result)
        case .rept:
            let piece = try arguments[0].string(timeZone)
            let times = try count(arguments[1], name, "number of times")
            guard !piece.isEmpty else { return .text("") }
            try Self.checkLength(piece.utf8.count.multipliedReportingOverflow(by: times).overflow
                ? Int.max : piece.utf8.count * times)
            return .text(String(repeating: piece, count: times))
        case .t:
            if case .text = arguments[0] { return arguments[0] }
            if case .error(let message) = arguments[0] { throw FormulaFailure(message) }
            return .blank
        case .value:
            return .number(try numberFromText(arguments[0]))
        default:
            throw FormulaFailure("\(name) is not a text function")
        }
    }

    /// A whole, non-negative count or position argument (fractions are cut off).
    func count(_ value: FormulaValue, _ function: String, _ role: String) throws(FormulaFailure) -> Int {
        let number = try value.number()
        guard number.isFinite, number >= 0 else {
            throw FormulaFailure("\(function)'s \(role) must be 0 or more, not \(FormulaNumberText.format(number))")
        }
        return number >= 1e12 ? 1_000_000_000_000 : Int(number)
    }

    private func substitute(_ arguments: [FormulaValue]) throws(FormulaFailure) -> String {
        let text = try arguments[0].string(timeZone)
        let old = Array(try arguments[1].string(timeZone))
        let new = try arguments[2].string(timeZone)
        guard !old.isEmpty else { return text }
        let characters = Array(text)
        var matches = TextSearch(old).allMatches(in: characters)
        if arguments.count > 3 {
            let index = try count(arguments[3], "SUBSTITUTE", "occurrence")
            guard index >= 1 else { throw FormulaFailure("SUBSTITUTE's occurrence must be 1 or more") }
            matches = index <= matches.count ? [matches[index - 1]] : []
        }
        let oldBytes = String(old).utf8.count
        try Self.checkLength(text.utf8.count + matches.count * max(0, new.utf8.count - oldBytes))
        var result = ""
        var position = 0
        for match in matches {
            result += String(characters[position..<match])
            result += new
            position = match + old.count
        }
        result += String(characters[position...])
        return result
    }

    /// VALUE: numeric text, else the number left after dropping currency signs, thousands separators and
    /// spaces (`'$1,000'` is 1000); a trailing `%` divides by 100.
    private func numberFromText(_ value: FormulaValue) throws(FormulaFailure) -> Double {
        switch value {
        case .number, .bool, .blank: return try value.number()
        default: break
        }
        let text = try value.string(timeZone)
        if let number = FormulaNumberText.parse(text) { return number }
        var kept = text.filter { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }
        let percent = text.trimmingFormulaWhitespace().hasSuffix("%")
        if kept.hasPrefix("-") { kept = "-" + kept.dropFirst().filter { $0 != "-" } } else { kept = kept.filter { $0 != "-" } }
        guard let number = FormulaNumberText.parse(kept) else {
            throw FormulaFailure("VALUE cannot read a number from \(FormulaValue.excerpt(text))")
        }
        return percent ? number / 100 : number
    }
}
