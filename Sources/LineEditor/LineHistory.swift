/// The lines entered at a prompt, oldest first, as the Up key walks them.
///
/// Blank lines and a line equal to the one before it are not kept (they only make Up slower), nor is a
/// line with a line break in it, which one history file line could not hold, nor a line of digits alone
/// (a secret typed at the wrong moment, such as a PIN after its prompt was cancelled, more often than
/// anything worth recalling). Past `limit` entries the oldest go.
public struct LineHistory: Sendable, Equatable {
    /// The kept lines, oldest first.
    public private(set) var entries: [String] = []
    /// How many lines are kept at most.
    public let limit: Int

    /// A history holding `entries` (filtered as `add` would) up to `limit` lines.
    public init(entries: [String] = [], limit: Int = 1000) {
        self.limit = max(limit, 1)
        for entry in entries { add(entry) }
    }

    /// Adds `line` at the newest end; false when the line was not kept.
    @discardableResult
    public mutating func add(_ line: String) -> Bool {
        guard Self.isWorthKeeping(line), line != entries.last else { return false }
        entries.append(line)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
        return true
    }

    /// Whether `line` is nothing but decimal digits (ASCII or full-width) and spaces.
    public static func isDigitsAlone(_ line: String) -> Bool {
        line.allSatisfy { $0.isWhitespace || ($0.isNumber && $0.wholeNumberValue != nil) } && line.contains(where: \.isNumber)
    }

    static func isWorthKeeping(_ line: String) -> Bool {
        !line.allSatisfy(\.isWhitespace) && !line.contains(where: \.isNewline) && !isDigitsAlone(line)
    }
}
