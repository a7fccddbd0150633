import Airtable
/// A regular expression as parsed, in RE2's syntax (Airtable's REGEX_ functions use RE2): literals, `.`,
/// classes (`[a-z]`, `[^…]`, `[[:alpha:]]`, `\d \w \s` and their negations, all ASCII as in RE2), groups
/// (`(…)`, `(?:…)`, `(?P<name>…)`, `(?<name>…)`), flags (`(?i)`, `(?ims-ims:…)`), alternation, the
/// quantifiers `* + ? {n} {n,} {n,m}` (greedy, or lazy with `?`), and the assertions `^ $ \A \z \b \B`.
/// Backreferences and lookaround are refused, as RE2 refuses them: they are what makes matching take
/// exponential time.
indirect enum RegexNode: Sendable, Equatable {
    case empty
    case scalar(Unicode.Scalar, caseless: Bool)
    case set(RegexScalarSet)
    case any(matchesNewline: Bool)
    case assertion(RegexAssertion)
    case group(RegexNode, capture: Int?)
    case concatenation([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?, greedy: Bool)
}

/// A zero-width condition on the position.
enum RegexAssertion: UInt8, Sendable, Equatable {
    case textStart, textEnd, lineStart, lineEnd, wordBoundary, notWordBoundary
}

/// A character class: ranges of scalars and named classes, possibly negated, possibly caseless.
struct RegexScalarSet: Sendable, Equatable {
    var ranges: [ClosedRange<UInt32>] = []
    var negated = false
    var caseless = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        negated != (has(scalar.value) || caseless && RegexCase.variants(of: scalar).contains { has($0.value) })
    }

    private func has(_ value: UInt32) -> Bool {
        ranges.contains { $0.contains(value) }
    }

    /// The ASCII classes RE2 names (`\d`, `[:alpha:]`…), as ranges.
    static func named(_ name: String) -> [ClosedRange<UInt32>]? {
        func r(_ a: Character, _ b: Character) -> ClosedRange<UInt32> {
            (a.unicodeScalars.first?.value ?? 0)...(b.unicodeScalars.first?.value ?? 0)
        }
        switch name {
        case "d", "digit": return [r("0", "9")]
        case "w", "word": return [r("0", "9"), r("A", "Z"), r("a", "z"), r("_", "_")]
        case "s": return [r("\t", "\n"), r("\u{0C}", "\r"), r(" ", " ")]
        case "space": return [r("\t", "\r"), r(" ", " ")]
        case "alpha": return [r("A", "Z"), r("a", "z")]
        case "alnum": return [r("0", "9"), r("A", "Z"), r("a", "z")]
        case "lower": return [r("a", "z")]
        case "upper": return [r("A", "Z")]
        case "xdigit": return [r("0", "9"), r("A", "F"), r("a", "f")]
        case "punct": return [r("!", "/"), r(":", "@"), r("[", "`"), r("{", "~")]
        case "blank": return [r("\t", "\t"), r(" ", " ")]
        case "cntrl": return [0...0x1F, 0x7F...0x7F]
        case "print": return [r(" ", "~")]
        case "graph": return [r("!", "~")]
        case "ascii": return [0...0x7F]
        default: return nil
        }
    }
}

/// Simple (one scalar to one scalar) case mapping, for caseless matching.
enum RegexCase {
    static func variants(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        if scalar.isASCII {
            let v = scalar.value
            if (0x41...0x5A).contains(v) { return Unicode.Scalar(v + 32).map { [$0] } ?? [] }
            if (0x61...0x7A).contains(v) { return Unicode.Scalar(v - 32).map { [$0] } ?? [] }
            return []
        }
        var found: [Unicode.Scalar] = []
        for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let only = scalars.first, only != scalar { found.append(only) }
        }
        return found
    }
}

/// Why a pattern is not one the engine takes.
struct RegexSyntaxError: Error, Sendable, Equatable {
    var reason: String
}

/// Reads a pattern into a `RegexNode`, numbering capturing groups from 1.
struct RegexParser {
    /// Groups nested deeper than this are refused, so parsing and compiling need no deep stack.
    static let maximumNesting = 100

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private(set) var captureCount = 0
    private var depth = 0

    private struct Flags {
        var caseless = false, multiline = false, dotAll = false
    }

    static func parse(_ pattern: String) throws(RegexSyntaxError) -> (RegexNode, captures: Int) {
        var parser = RegexParser(scalars: Array(pattern.unicodeScalars))
        var flags = Flags()
        let node = try parser.alternation(&flags)
        if parser.position < parser.scalars.count { throw RegexSyntaxError(reason: "unmatched )") }
        return (node, parser.captureCount)
    }

    private init(scalars: [Unicode.Scalar]) { self.scalars = scalars }

    private var next: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
        guard next == scalar else { return false }
        position += 1
        return true
    }

    private mutating func alternation(_ flags: inout Flags) throws(RegexSyntaxError) -> RegexNode {
        var branches = [try concatenation(&flags)]
        while take("|") { branches.append(try concatenation(&flags)) }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func concatenation(_ flags: inout Flags) throws(RegexSyntaxError) -> RegexNode {
        var items: [RegexNode] = []
        while let scalar = next, scalar != "|", scalar != ")" {
            if scalar == "(", let changed = try flagGroup(&flags) {
                // `(?i)` changes the flags for the rest of the enclosing group; `(?i:…)` is a group.
                if let changed { items.append(try quantified(changed)) }
                continue
            }
            let atom = try self.atom(&flags)
            items.append(try quantified(atom))
        }
        return items.isEmpty ? .empty : items.count == 1 ? items[0] : .concatenation(items)
    }

    /// `(?flags)` (nil inside: the flags changed) or `(?flags:…)`; nil outside when this is another group.
    private mutating func flagGroup(_ flags: inout Flags) throws(RegexSyntaxError) -> RegexNode?? {
        guard position + 1 < scalars.count, scalars[position + 1] == "?" else { return nil }
        var look = position + 2
        var changed = flags
        var on = true
        while look < scalars.count {
            switch scalars[look] {
            case "i": changed.caseless = on
            case "m": changed.multiline = on
            case "s": changed.dotAll = on
            case "-" where on: on = false
            case ")":
                position = look + 1
                flags = changed
                return .some(nil)
            case ":":
                position = look + 1
                let inner = try nested { (parser: inout RegexParser) throws(RegexSyntaxError) in
                    try parser.alternation(&changed)
                }
                return .some(.group(inner, capture: nil))
            default:
                return nil
            }
            look += 1
        }
        throw RegexSyntaxError(reason: "missing )")
    }

    private mutating func nested(_ body: (inout RegexParser) throws(RegexSyntaxError) -> RegexNode)
        throws(RegexSyntaxError) -> RegexNode
    {
        depth += 1
        guard depth <= Self.maximumNesting else {
            throw RegexSyntaxError(reason: "groups nest more than \(Self.maximumNesting) deep")
        }
        let node = try body(&self)
        guard take(")") else { throw RegexSyntaxError(reason: "missing )") }
        depth -= 1
        return node
    }

    private mutating func atom(_ flags: inout Flags) throws(RegexSyntaxError) -> RegexNode {
        guard let scalar = next else { throw RegexSyntaxError(reason: "unexpected end") }
        position += 1
        switch scalar {
        case "(":
            var capture: Int?
            if take("?") {
                // Named groups capture like numbered ones: (?P<name>…) and (?<name>…).
                _ = take("P")
                guard take("<") else { throw RegexSyntaxError(reason: "lookaround and (?… forms other than flags and names are not supported") }
                guard let close = scalars[position...].firstIndex(of: ">"), close > position,
                      scalars[position..<close].allSatisfy({ $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) })
                else { throw RegexSyntaxError(reason: "bad group name") }
                position = close + 1
            }
            captureCount += 1
            capture = captureCount
            var inner = flags
            let body = try nested { (parser: inout RegexParser) throws(RegexSyntaxError) in try parser.alternation(&inner) }
            return .group(body, capture: capture)
        case ".": return .any(matchesNewline: flags.dotAll)
        case "^": return .assertion(flags.multiline ? .lineStart : .textStart)
        case "$": return .assertion(flags.multiline ? .lineEnd : .textEnd)
        case "[": return .set(try characterClass(flags))
        case "\\": return try escape(flags)
        case "*", "+", "?": throw RegexSyntaxError(reason: "missing argument to repetition operator")
        case ")": throw RegexSyntaxError(reason: "unmatched )")
        default: return .scalar(scalar, caseless: flags.caseless)
        }
    }

    private mutating func escape(_ flags: Flags) throws(RegexSyntaxError) -> RegexNode {
        guard let scalar = next else { throw RegexSyntaxError(reason: "trailing \\") }
        position += 1
        switch scalar {
        case "A": return .assertion(.textStart)
        case "z": return .assertion(.textEnd)
        case "b": return .assertion(.wordBoundary)
        case "B": return .assertion(.notWordBoundary)
        case "d", "w", "s", "D", "W", "S":
            return .set(Self.shorthand(scalar))
        default:
            return .scalar(try literalEscape(scalar), caseless: flags.caseless)
        }
    }

    private static func shorthand(_ scalar: Unicode.Scalar) -> RegexScalarSet {
        let name = String(scalar).lowercased()
        return RegexScalarSet(ranges: RegexScalarSet.named(name) ?? [], negated: String(scalar) != name)
    }

    /// The scalar an escape outside the named classes stands for: `\n \t \r \f \v \a \0 \xHH \x{H…}`, or
    /// a punctuation mark taken literally. Any other escaped letter or digit is refused (RE2 does too:
    /// `\1` would be a backreference).
    private mutating func literalEscape(_ scalar: Unicode.Scalar) throws(RegexSyntaxError) -> Unicode.Scalar {
        switch scalar {
        case "n": return "\n"
        case "t": return "\t"
        case "r": return "\r"
        case "f": return "\u{0C}"
        case "v": return "\u{0B}"
        case "a": return "\u{07}"
        case "x":
            var digits = ""
            if take("{") {
                while let d = next, d != "}" { digits.unicodeScalars.append(d); position += 1 }
                guard take("}") else { throw RegexSyntaxError(reason: "bad \\x escape") }
            } else {
                for _ in 0..<2 {
                    guard let d = next else { break }
                    digits.unicodeScalars.append(d)
                    position += 1
                }
            }
            guard digits.count <= 8, let value = UInt32(digits, radix: 16), let result = Unicode.Scalar(value) else {
                throw RegexSyntaxError(reason: "bad \\x escape")
            }
            return result
        default:
            if scalar == "0" { return "\u{0}" }
            guard !scalar.properties.isAlphabetic, !("0"..."9").contains(scalar) else {
                throw RegexSyntaxError(reason: "\\\(scalar) is not supported (backreferences and unknown escapes are not)")
            }
            return scalar
        }
    }

    private mutating func characterClass(_ flags: Flags) throws(RegexSyntaxError) -> RegexScalarSet {
        var set = RegexScalarSet(caseless: flags.caseless)
        var negatedParts: [RegexScalarSet] = []
        set.negated = take("^")
        var first = true
        while true {
            guard let scalar = next else { throw RegexSyntaxError(reason: "missing ]") }
            if scalar == "]", !first { position += 1; break }
            first = false
            position += 1
            if scalar == "[", next == ":" {
                guard let close = (position..<scalars.count).first(where: { scalars[$0] == "]" && scalars[$0 - 1] == ":" }),
                      close - 1 > position + 1
                else { throw RegexSyntaxError(reason: "bad [: class") }
                var name = String(String.UnicodeScalarView(scalars[(position + 1)..<(close - 1)]))
                let negated = name.hasPrefix("^")
                if negated { name.removeFirst() }
                guard let ranges = RegexScalarSet.named(name) else { throw RegexSyntaxError(reason: "unknown class [:\(name):]") }
                position = close + 1
                if negated { negatedParts.append(RegexScalarSet(ranges: ranges, negated: true)) } else { set.ranges += ranges }
                continue
            }
            var low = scalar
            if scalar == "\\" {
                guard let escaped = next else { throw RegexSyntaxError(reason: "missing ]") }
                position += 1
                if "dwsDWS".unicodeScalars.contains(escaped) {
                    let named = Self.shorthand(escaped)
                    if named.negated { negatedParts.append(named) } else { set.ranges += named.ranges }
                    continue
                }
                low = escaped == "b" ? "\u{08}" : try literalEscape(escaped)
            }
            var high = low
            if next == "-", position + 1 < scalars.count, scalars[position + 1] != "]" {
                position += 1
                guard let end = next else { throw RegexSyntaxError(reason: "missing ]") }
                position += 1
                high = end
                if end == "\\" {
                    guard let escaped = next else { throw RegexSyntaxError(reason: "missing ]") }
                    position += 1
                    high = try literalEscape(escaped)
                }
                guard low.value <= high.value else { throw RegexSyntaxError(reason: "bad character class range") }
            }
            set.ranges.append(low.value...high.value)
        }
        // A negated class inside a class (`[\D]`, `[[:^alpha:]]`) is its complement's ranges.
        for part in negatedParts { set.ranges += Self.complement(part.ranges) }
        return set
    }

    private static func complement(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var result: [ClosedRange<UInt32>] = []
        var start: UInt32 = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if range.lowerBound > start { result.append(start...(range.lowerBound - 1)) }
            start = max(start, range.upperBound + 1)
        }
        if start <= 0x10FFFF { result.append(start...0x10FFFF) }
        return result
    }

    /// `*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}` after an atom, each possibly lazy (`?`). A `{` that does not
    /// start a count is a literal, as in RE2.
    private mutating func quantified(_ atom: RegexNode) throws(RegexSyntaxError) -> RegexNode {
        guard let scalar = next else { return atom }
        var bounds: (Int, Int?)
        switch scalar {
        case "*": bounds = (0, nil); position += 1
        case "+": bounds = (1, nil); position += 1
        case "?": bounds = (0, 1); position += 1
        case "{":
            guard let counted = countedBounds() else { return atom }
            bounds = counted
        default: return atom
        }
        if case .assertion = atom { throw RegexSyntaxError(reason: "bad repetition operator") }
        let greedy = !take("?")
        if let after = next, "*+?".unicodeScalars.contains(after) || after == "{" && countedBounds(peek: true) != nil {
            throw RegexSyntaxError(reason: "bad repetition operator")
        }
        return .repetition(atom, min: bounds.0, max: bounds.1, greedy: greedy)
    }

    private mutating func countedBounds(peek: Bool = false) -> (Int, Int?)? {
        var look = position + 1
        func number() -> Int? {
            var digits = ""
            while look < scalars.count, ("0"..."9").contains(scalars[look]), digits.count < 5 {
                digits.unicodeScalars.append(scalars[look])
                look += 1
            }
            return Int(digits)
        }
        guard let low = number() else { return nil }
        var high: Int? = low
        if look < scalars.count, scalars[look] == "," {
            look += 1
            high = number()
        }
        guard look < scalars.count, scalars[look] == "}", high.map({ $0 >= low }) ?? true else { return nil }
        if !peek { position = look + 1 }
        return (low, high)
    }
}
