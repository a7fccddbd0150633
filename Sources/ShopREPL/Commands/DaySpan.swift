/// The business days `orders`, `report` and `log` cover: `--date 2026-11-30`, or `--from A [--to B]`
/// (through today when `--to` is left out). Nil in a command means today.
public struct DaySpan: Sendable, Equatable {
    public var first: String
    /// Nil: through today.
    public var last: String?

    public init(first: String, last: String?) {
        self.first = first
        self.last = last
    }

    /// Takes `--date D`, `--from A`, `--to B` (also `--date=D`) out of `arguments`.
    /// - Throws: the problem when an option is repeated, lacks its date, or `--date` is mixed with a range.
    static func take(from arguments: inout [String]) throws(CommandProblem) -> DaySpan? {
        var values: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            let lowered = word.lowercased()
            guard let option = ["--date", "--from", "--to"].first(where: { lowered == $0 || lowered.hasPrefix($0 + "=") })
            else {
                index += 1
                continue
            }
            let value: String
            if lowered.count > option.count {
                value = String(word.dropFirst(option.count + 1))
                arguments.remove(at: index)
            } else {
                guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
                    throw .dayOptionNeedsDate(option)
                }
                value = arguments[index + 1]
                arguments.removeSubrange(index...(index + 1))
            }
            guard values[option] == nil else {
                throw .dayOptionTwice(option)
            }
            values[option] = value
        }
        if let date = values["--date"] {
            guard values["--from"] == nil, values["--to"] == nil else {
                throw .dateWithRange
            }
            return DaySpan(first: date, last: date)
        }
        if let from = values["--from"] { return DaySpan(first: from, last: values["--to"]) }
        if values["--to"] != nil { throw .toWithoutFrom }
        return nil
    }
}

