import Airtable
/// A parsed pattern compiled for `RegexMachine`: a list of instructions in the style of Thompson's
/// construction, whose size is bounded (so is the work per scalar of text).
struct RegexProgram: Sendable {
    enum Instruction: Sendable, Equatable {
        case scalar(Unicode.Scalar)
        case caseless(Unicode.Scalar, [Unicode.Scalar])
        case set(RegexScalarSet)
        case any(matchesNewline: Bool)
        /// Try `first`, then `second` (the order is the preference: greedy or lazy).
        case split(Int, Int)
        case jump(Int)
        /// Records the position in capture slot n (group k's bounds are slots 2k and 2k+1).
        case save(Int)
        case assert(RegexAssertion)
        case match
    }

    /// The most instructions a pattern may compile to (RE2 refuses programs past a similar size).
    static let maximumSize = 10_000
    /// The largest count `{n,m}` takes, as in RE2.
    static let maximumRepeat = 1_000

    let instructions: [Instruction]
    /// The same instructions flattened for the machine's inner loop (no payloads to retain per step).
    let steps: [Step]
    let sets: [RegexScalarSet]
    let variants: [[Unicode.Scalar]]

    enum Opcode: UInt8, Sendable { case scalar, caseless, set, any, anyButNewline, split, jump, save, assert, match }

    /// One flattened instruction: `a` is the scalar, the index into `sets` or `variants`, the target, the
    /// slot or the assertion; `b` the second target of a split.
    struct Step: Sendable {
        var opcode: Opcode
        var a: Int = 0
        var b: Int = 0
    }
    /// Capturing groups, not counting the whole match.
    let captureCount: Int
    /// Whether every match starts at the text's start (`^…` or `\A…`).
    let anchoredAtStart: Bool

    init(_ pattern: String) throws(RegexSyntaxError) {
        let (node, captures) = try RegexParser.parse(pattern)
        guard Self.size(of: node) + 3 <= Self.maximumSize else {
            throw RegexSyntaxError(reason: "the pattern is too large (more than \(Self.maximumSize) steps once repeats are counted out)")
        }
        var builder = Builder()
        builder.emit(.save(0))
        try builder.compile(node)
        builder.emit(.save(1))
        builder.emit(.match)
        instructions = builder.code
        var sets: [RegexScalarSet] = []
        var variants: [[Unicode.Scalar]] = []
        steps = builder.code.map { instruction in
            switch instruction {
            case .scalar(let scalar): return Step(opcode: .scalar, a: Int(scalar.value))
            case .caseless(let scalar, let others):
                variants.append([scalar] + others)
                return Step(opcode: .caseless, a: variants.count - 1)
            case .set(let set):
                sets.append(set)
                return Step(opcode: .set, a: sets.count - 1)
            case .any(let matchesNewline): return Step(opcode: matchesNewline ? .any : .anyButNewline)
            case .split(let first, let second): return Step(opcode: .split, a: first, b: second)
            case .jump(let target): return Step(opcode: .jump, a: target)
            case .save(let slot): return Step(opcode: .save, a: slot)
            case .assert(let assertion): return Step(opcode: .assert, a: Int(assertion.rawValue))
            case .match: return Step(opcode: .match)
            }
        }
        self.sets = sets
        self.variants = variants
        captureCount = captures
        anchoredAtStart = Self.startsAnchored(node)
    }

    private static func startsAnchored(_ node: RegexNode) -> Bool {
        switch node {
        case .assertion(.textStart): return true
        case .concatenation(let items): return items.first.map(startsAnchored) ?? false
        case .group(let inner, _): return startsAnchored(inner)
        default: return false
        }
    }

    /// Instructions `node` compiles to, saturating well above the maximum (counted before emitting, so
    /// `((a{1000}){1000}){1000}` is refused without being built).
    private static func size(of node: RegexNode) -> Int {
        let cap = maximumSize * 2
        switch node {
        case .empty: return 0
        case .scalar, .set, .any, .assertion: return 1
        case .group(let inner, let capture): return min(cap, size(of: inner) + (capture == nil ? 0 : 2))
        case .concatenation(let items): return min(cap, items.reduce(0) { min(cap, $0 + size(of: $1)) })
        case .alternation(let items): return min(cap, items.reduce(0) { min(cap, $0 + size(of: $1) + 2) })
        case .repetition(let inner, let low, let high, _):
            let one = size(of: inner) + 2
            let copies = max(low, high ?? low + 1, 1)
            return one.multipliedReportingOverflow(by: copies).overflow ? cap : min(cap, one * copies)
        }
    }

    private struct Builder {
        var code: [Instruction] = []

        @discardableResult
        mutating func emit(_ instruction: Instruction) -> Int {
            code.append(instruction)
            return code.count - 1
        }

        mutating func compile(_ node: RegexNode) throws(RegexSyntaxError) {
            switch node {
            case .empty:
                break
            case .scalar(let scalar, let caseless):
                let variants = caseless ? RegexCase.variants(of: scalar) : []
                emit(variants.isEmpty ? .scalar(scalar) : .caseless(scalar, variants))
            case .set(let set):
                emit(.set(set))
            case .any(let matchesNewline):
                emit(.any(matchesNewline: matchesNewline))
            case .assertion(let assertion):
                emit(.assert(assertion))
            case .group(let inner, let capture):
                if let capture { emit(.save(2 * capture)) }
                try compile(inner)
                if let capture { emit(.save(2 * capture + 1)) }
            case .concatenation(let items):
                for item in items { try compile(item) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (index, branch) in branches.enumerated() {
                    if index < branches.count - 1 {
                        let split = emit(.split(0, 0))
                        try compile(branch)
                        jumps.append(emit(.jump(0)))
                        code[split] = .split(split + 1, code.count)
                    } else {
                        try compile(branch)
                    }
                }
                for jump in jumps { code[jump] = .jump(code.count) }
            case .repetition(let inner, let low, let high, let greedy):
                guard low <= RegexProgram.maximumRepeat, (high ?? 0) <= RegexProgram.maximumRepeat else {
                    throw RegexSyntaxError(reason: "a repeat count is larger than \(RegexProgram.maximumRepeat)")
                }
                for _ in 0..<low { try compile(inner) }
                if let high {
                    // Each optional copy: split(copy, end); all ends patched to the end of the repeat.
                    var splits: [Int] = []
                    for _ in low..<high {
                        splits.append(emit(.split(0, 0)))
                        try compile(inner)
                    }
                    for split in splits { code[split] = greedy ? .split(split + 1, code.count) : .split(code.count, split + 1) }
                } else {
                    // x*: L: split(body, end); body; jump L.
                    let split = emit(.split(0, 0))
                    try compile(inner)
                    emit(.jump(split))
                    code[split] = greedy ? .split(split + 1, code.count) : .split(code.count, split + 1)
                }
            }
        }
    }
}
