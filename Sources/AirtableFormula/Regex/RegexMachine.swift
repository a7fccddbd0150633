import Airtable
/// Runs a `RegexProgram` over text in one pass (Pike's machine): every alternative the pattern allows is
/// followed side by side, one scalar at a time, and each instruction is visited at most once per
/// position, so the work is at most (text length + 1) x (program size), never exponential. It finds the
/// leftmost match and, among those, the one a backtracking engine would prefer (greedy and lazy
/// quantifiers, alternation left to right), as RE2 does.
///
/// Every instruction visited is a step, taken from `allowance`; when the allowance runs out the search
/// stops and throws, so a caller bounds the time of all its searches together.
struct RegexMachine {
    /// The allowance ran out.
    struct OutOfSteps: Error {}

    let program: RegexProgram
    let text: [Unicode.Scalar]

    /// The capture slots of the first match at or after `start` (slot 2k and 2k+1 bound group k; -1 for a
    /// group that took no part), `slots` of them; nil when there is none. With `slots` 0 it only answers
    /// whether there is a match, and stops at the first it reaches.
    func search(from start: Int, slots: Int, allowance: inout Int) throws(OutOfSteps) -> [Int]? {
        let code = program.steps
        var current = ThreadList(size: code.count)
        var following = ThreadList(size: code.count)
        let empty = [Int](repeating: -1, count: slots)
        var found: [Int]?
        var stack: [(Int, [Int])] = []
        var position = start
        var steps = 0
        while true {
            if found == nil, !program.anchoredAtStart || position == 0 {
                add(0, empty, at: position, to: &current, stack: &stack, steps: &steps)
            }
            // No thread alive: done if a match was found or none can start later.
            if current.isEmpty, found != nil || program.anchoredAtStart { break }
            following.clear()
            let scalar = position < text.count ? text[position] : nil
            for index in 0..<current.count {
                let step = code[current.pcs[index]]
                steps += 1
                if step.opcode == .match {
                    found = current.captures[index]
                    if slots == 0 { return found }
                    break  // threads after a match are less preferred
                }
                guard let scalar else { continue }
                let advances: Bool
                switch step.opcode {
                case .scalar: advances = scalar.value == step.a
                case .caseless: advances = program.variants[step.a].contains(scalar)
                case .set: advances = program.sets[step.a].contains(scalar)
                case .any: advances = true
                case .anyButNewline: advances = scalar != "\n"
                case .split, .jump, .save, .assert, .match: advances = false  // followed when the thread was added
                }
                if advances {
                    add(current.pcs[index] + 1, current.captures[index], at: position + 1, to: &following,
                        stack: &stack, steps: &steps)
                }
            }
            allowance -= steps
            steps = 0
            guard allowance >= 0 else { throw OutOfSteps() }
            if position >= text.count { break }
            swap(&current, &following)
            position += 1
        }
        return found
    }

    /// Adds the thread at `pc` and everything it reaches without reading a scalar, in order of
    /// preference, each instruction once per position.
    private func add(_ pc: Int, _ captures: [Int], at position: Int, to list: inout ThreadList,
                     stack: inout [(Int, [Int])], steps: inout Int) {
        stack.append((pc, captures))
        while let (pc, captures) = stack.popLast() {
            guard list.mark(pc) else { continue }
            steps += 1
            let step = program.steps[pc]
            switch step.opcode {
            case .jump:
                stack.append((step.a, captures))
            case .split:
                stack.append((step.b, captures))
                stack.append((step.a, captures))
            case .save:
                var saved = captures
                if step.a < saved.count { saved[step.a] = position }
                stack.append((pc + 1, saved))
            case .assert:
                if let assertion = RegexAssertion(rawValue: UInt8(step.a)), holds(assertion, at: position) {
                    stack.append((pc + 1, captures))
                }
            default:
                list.append(pc, captures)
            }
        }
    }

    private func holds(_ assertion: RegexAssertion, at position: Int) -> Bool {
        switch assertion {
        case .textStart: return position == 0
        case .textEnd: return position == text.count
        case .lineStart: return position == 0 || text[position - 1] == "\n"
        case .lineEnd: return position == text.count || text[position] == "\n"
        case .wordBoundary, .notWordBoundary:
            let before = position > 0 && Self.isWord(text[position - 1])
            let after = position < text.count && Self.isWord(text[position])
            return (before != after) == (assertion == .wordBoundary)
        }
    }

    private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
    }

    /// The threads at one position, in order of preference, with a mark per instruction (by generation,
    /// so clearing is one increment).
    private struct ThreadList {
        var pcs: [Int] = []
        var captures: [[Int]] = []
        private var marks: [Int]
        private var generation = 1

        init(size: Int) { marks = [Int](repeating: 0, count: size) }

        var isEmpty: Bool { pcs.isEmpty }
        var count: Int { pcs.count }

        /// Marks `pc`; false when it already was at this position.
        mutating func mark(_ pc: Int) -> Bool {
            guard marks[pc] != generation else { return false }
            marks[pc] = generation
            return true
        }

        mutating func append(_ pc: Int, _ slots: [Int]) {
            pcs.append(pc)
            captures.append(slots)
        }

        mutating func clear() {
            pcs.removeAll(keepingCapacity: true)
            captures.removeAll(keepingCapacity: true)
            generation += 1
        }
    }
}
