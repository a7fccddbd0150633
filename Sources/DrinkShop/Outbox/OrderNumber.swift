import Foundation

/// How staff name an order: its pickup number (`#12`), or the kept number of an order a counter took while the
/// store could not be reached (`#A-P3`: counter A's third), until it is sent and gets a real one.
public enum OrderNumber: Sendable, Hashable, CustomStringConvertible {
    case pickup(Int)
    /// A kept order's number: `P` and a number, after the letter of the counter that kept it (`A-P3`), which no
    /// other counter has (see `CounterLetters`). Without a letter (`#P3`): typed without one (this counter's), or
    /// an order an earlier version kept.
    case provisional(Int, counter: String? = nil)
    /// The pickup number of one business day (`#6@2026-11-30`): an order left open from an earlier day
    /// when today has its own #6.
    case onDay(Int, day: String)

    public var description: String {
        switch self {
        case .pickup(let number): return "#\(number)"
        case .provisional(let number, let counter): return "#" + Self.keptText(number, counter: counter)
        case .onDay(let number, let day): return "#\(number)@\(day)"
        }
    }

    /// A kept number as printed on its slip and shown on the pickup screen: `A-P3`, or `P3` without a letter.
    public static func keptText(_ number: Int, counter: String?) -> String {
        (counter.map { $0 + "-" } ?? "") + "P\(number)"
    }

    /// The pickup number, whichever day it belongs to; nil for a provisional number.
    public var pickupNumber: Int? {
        switch self {
        case .pickup(let number), .onDay(let number, _): return number
        case .provisional: return nil
        }
    }

    /// `#12`, `12`, `#6@2026-11-30`, and a kept number as staff type it: `#A-P3`, `a-p3`, `AP3`, `#P3`,
    /// full-width (`＃Ａ－Ｐ３`) or with another dash (`A–P3`). The `#` is optional.
    public init?(parsing text: String) {
        // Full-width letters, digits, `＃`, `＠` and `－` become their ASCII forms.
        var rest = Substring(text.precomposedStringWithCompatibilityMapping)
        if rest.hasPrefix("#") { rest = rest.dropFirst() }
        if let at = rest.firstIndex(of: "@") {
            let day = String(rest[rest.index(after: at)...])
            let bytes = Array(day.utf8)
            guard let number = Int(rest[..<at]), number > 0, bytes.count == 10, bytes[4] == UInt8(ascii: "-"),
                  bytes[7] == UInt8(ascii: "-"), day.replacingOccurrences(of: "-", with: "").allSatisfy(\.isNumber)
            else { return nil }
            self = .onDay(number, day: day)
            return
        }
        if let number = Int(rest), number > 0 {
            self = .pickup(number)
            return
        }
        guard let (number, counter) = Self.kept(rest) else { return nil }
        self = .provisional(number, counter: counter)
    }

    /// The longest counter letter staff can type: a claimed letter has one or two (`A`, `AB`), a counter that
    /// never reached the store has three (`K7Q`, `CounterLetters.fallback`).
    static let longestCounter = 3

    /// `[letter[-]]P<number>`, in either case: the `P` is the last one before the number, so a counter named
    /// `P` still reads (`P-P3`, `PP3`).
    private static func kept(_ text: Substring) -> (Int, String?)? {
        let upper = text.uppercased()
        guard let p = upper.lastIndex(of: "P") else { return nil }
        let digits = upper[upper.index(after: p)...]
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits), number > 0 else { return nil }
        var counter = upper[..<p]
        if let last = counter.last, dashes.contains(last) { counter = counter.dropLast() }
        guard !counter.isEmpty else { return (number, nil) }
        guard counter.count <= longestCounter, counter.unicodeScalars.allSatisfy(Self.isCounterScalar),
              let first = counter.unicodeScalars.first, ("A"..."Z").contains(first) else { return nil }
        return (number, String(counter))
    }

    /// Dashes staff may type between the letter and the `P` (after full-width forms became ASCII).
    private static let dashes: Set<Character> = ["-", "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2212}", "\u{30FC}"]

    private static func isCounterScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
