/// How staff name an order: its pickup number (`#12`), or the provisional number of an order this
/// counter took while the store could not be reached (`#P3`), until it is sent and gets a real one.
public enum OrderNumber: Sendable, Hashable, CustomStringConvertible {
    case pickup(Int)
    case provisional(Int)

    public var description: String {
        switch self {
        case .pickup(let number): return "#\(number)"
        case .provisional(let number): return "#P\(number)"
        }
    }

    /// `#12`, `12`, `#P3`, `P3` (the `#` may be full-width).
    public init?(parsing text: String) {
        var rest = Substring(text)
        if rest.hasPrefix("#") || rest.hasPrefix("＃") { rest = rest.dropFirst() }
        if let first = rest.first, first == "P" || first == "p" {
            guard let number = Int(rest.dropFirst()), number > 0 else { return nil }
            self = .provisional(number)
        } else {
            guard let number = Int(rest), number > 0 else { return nil }
            self = .pickup(number)
        }
    }
}
