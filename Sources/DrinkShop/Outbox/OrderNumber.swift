import Foundation

/// How staff name an order: its pickup number (`#12`), or the provisional number of an order this
/// counter took while the store could not be reached (`#P3`), until it is sent and gets a real one.
public enum OrderNumber: Sendable, Hashable, CustomStringConvertible {
    case pickup(Int)
    case provisional(Int)
    /// The pickup number of one business day (`#6@2026-11-30`): an order left open from an earlier day
    /// when today has its own #6.
    case onDay(Int, day: String)

    public var description: String {
        switch self {
        case .pickup(let number): return "#\(number)"
        case .provisional(let number): return "#P\(number)"
        case .onDay(let number, let day): return "#\(number)@\(day)"
        }
    }

    /// The pickup number, whichever day it belongs to; nil for a provisional number.
    public var pickupNumber: Int? {
        switch self {
        case .pickup(let number), .onDay(let number, _): return number
        case .provisional: return nil
        }
    }

    /// `#12`, `12`, `#P3`, `P3` (the `#` may be full-width), `#6@2026-11-30`.
    public init?(parsing text: String) {
        var rest = Substring(text)
        if rest.hasPrefix("#") || rest.hasPrefix("＃") { rest = rest.dropFirst() }
        if let at = rest.firstIndex(where: { $0 == "@" || $0 == "＠" }) {
            let day = String(rest[rest.index(after: at)...])
            let bytes = Array(day.utf8)
            guard let number = Int(rest[..<at]), number > 0, bytes.count == 10, bytes[4] == UInt8(ascii: "-"),
                  bytes[7] == UInt8(ascii: "-"), day.replacingOccurrences(of: "-", with: "").allSatisfy(\.isNumber)
            else { return nil }
            self = .onDay(number, day: day)
            return
        }
        if let first = rest.first, first == "P" || first == "p" {
            guard let number = Int(rest.dropFirst()), number > 0 else { return nil }
            self = .provisional(number)
        } else {
            guard let number = Int(rest), number > 0 else { return nil }
            self = .pickup(number)
        }
    }
}
