import Airtable
/// A compiled regular expression for REGEX_MATCH, REGEX_EXTRACT and REGEX_REPLACE, in RE2's syntax as
/// Airtable reads it (see `RegexNode`), matched in time linear in the text (`RegexMachine`) and within a
/// step budget (`FormulaBudget`), so no pattern can hold a core: `(.+)+$x` is as quick as `x`.
struct FormulaRegex: Sendable {
    let program: RegexProgram

    init(_ pattern: String, for function: String = "REGEX_MATCH") throws(FormulaFailure) {
        do {
            program = try RegexProgram(pattern)
        } catch {
            throw FormulaFailure("\(function): \(FormulaValue.excerpt(pattern)) is not a valid regular expression "
                + "(\(error.reason))")
        }
    }

    /// The capture slots of each match in `text` left to right (only the first when `all` is false), as
    /// scalar offsets; `slots` of them per match (0: only whether there is one).
    private func matches(in text: [Unicode.Scalar], all: Bool, slots: Int, budget: FormulaBudget,
                         for function: String) throws(FormulaFailure) -> [[Int]] {
        let machine = RegexMachine(program: program, text: text)
        var found: [[Int]] = []
        var start = 0
        do {
            while start <= text.count {
                guard let match = try budget.spend({ (allowance: inout Int) throws(RegexMachine.OutOfSteps) in
                    try machine.search(from: start, slots: slots, allowance: &allowance)
                }) else { break }
                found.append(match)
                guard all, match.count >= 2 else { break }
                // After an empty match the next search starts one scalar on, so it cannot match there again.
                start = match[1] > match[0] ? match[1] : match[1] + 1
            }
        } catch {
            throw FormulaFailure("\(function) gave up: the pattern takes too long on this text")
        }
        return found
    }

    /// Whether the pattern matches anywhere in `text`.
    func matches(_ text: String, budget: FormulaBudget) throws(FormulaFailure) -> Bool {
        !(try matches(in: Array(text.unicodeScalars), all: false, slots: 0, budget: budget, for: "REGEX_MATCH")).isEmpty
    }

    /// The first match's text; an error when there is none, as in Airtable.
    func extract(from text: String, budget: FormulaBudget) throws(FormulaFailure) -> String {
        let scalars = Array(text.unicodeScalars)
        guard let match = try matches(in: scalars, all: false, slots: 2, budget: budget, for: "REGEX_EXTRACT").first
        else { throw FormulaFailure("REGEX_EXTRACT found no match in \(FormulaValue.excerpt(text))") }
        return String(String.UnicodeScalarView(scalars[match[0]..<match[1]]))
    }

    /// `text` with every match replaced by `template` (`$1` names a captured group, `\$` is a dollar sign).
    func replace(in text: String, with template: String, budget: FormulaBudget) throws(FormulaFailure) -> String {
        let scalars = Array(text.unicodeScalars)
        let slots = 2 * (program.captureCount + 1)
        let found = try matches(in: scalars, all: true, slots: slots, budget: budget, for: "REGEX_REPLACE")
        let pieces = Self.templatePieces(Array(template.unicodeScalars), groups: program.captureCount)
        var result = String.UnicodeScalarView()
        var bytes = 0
        var position = 0
        func add(_ part: ArraySlice<Unicode.Scalar>) throws(FormulaFailure) {
            for scalar in part { bytes += UTF8.width(scalar) }
            guard bytes <= FormulaEvaluator.maximumTextBytes else {
                throw FormulaFailure("the text would be longer than \(FormulaEvaluator.maximumTextBytes) bytes")
            }
            result.append(contentsOf: part)
        }
        for match in found {
            try add(scalars[position..<match[0]])
            for piece in pieces {
                switch piece {
                case .text(let literal): try add(literal[...])
                case .group(let group):
                    let (from, to) = (match[2 * group], match[2 * group + 1])
                    if from >= 0, to >= from { try add(scalars[from..<to]) }
                }
            }
            position = match[1]
        }
        try add(scalars[position...])
        return String(result)
    }

    private enum TemplatePiece {
        case text([Unicode.Scalar])
        case group(Int)
    }

    /// `$n` (the longest run of digits naming a group; `$0` the whole match), `\x` for x itself, and the
    /// rest as it is.
    private static func templatePieces(_ template: [Unicode.Scalar], groups: Int) -> [TemplatePiece] {
        var pieces: [TemplatePiece] = []
        var literal: [Unicode.Scalar] = []
        var index = 0
        func digit(_ at: Int) -> Int? {
            at < template.count ? Int(String(template[at])).flatMap { (0...9).contains($0) ? $0 : nil } : nil
        }
        while index < template.count {
            let scalar = template[index]
            if scalar == "\\", index + 1 < template.count {
                literal.append(template[index + 1])
                index += 2
            } else if scalar == "$", var group = digit(index + 1) {
                index += 2
                while let more = digit(index), group * 10 + more <= groups {
                    group = group * 10 + more
                    index += 1
                }
                if !literal.isEmpty { pieces.append(.text(literal)) }
                literal = []
                if group <= groups { pieces.append(.group(group)) }
            } else {
                literal.append(scalar)
                index += 1
            }
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        return pieces
    }
}
