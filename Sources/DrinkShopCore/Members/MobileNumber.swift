/// A member's key: a Taiwanese mobile number, `09` and 8 more digits, stored without separators.
public struct MobileNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 10 digits, e.g. "0912345678".
    public let digits: String

    /// Reads a number typed with or without spaces, dashes, dots or brackets ("0912-345-678",
    /// "0912 345 678"); "+886 912 345 678" and "886912345678" become "0912345678".
    /// - Throws: `MemberError.invalidMobileNumber` saying what is wrong.
    public init(parsing text: String) throws(MemberError) {
        let typed = text.trimmed
        var kept = typed.filter { !($0.isWhitespace || "-.()".contains($0)) }
        if kept.hasPrefix("+886") { kept = "0" + kept.dropFirst(4) }
        else if kept.hasPrefix("886") && kept.count == 12 { kept = "0" + kept.dropFirst(3) }
        guard kept.allSatisfy(\.isASCIIDigit) else {
            throw .invalidMobileNumber(typed, problem: "has characters other than digits")
        }
        guard kept.hasPrefix("09") else { throw .invalidMobileNumber(typed, problem: "does not start with 09") }
        guard kept.count == 10 else {
            throw .invalidMobileNumber(typed, problem: "has \(kept.count) digits, not 10")
        }
        digits = kept
    }

    /// Whether `text` was meant as a phone number (digits, with the separators a number is typed with,
    /// six digits or more), so that one that is not a valid mobile number is questioned rather than taken
    /// for a name: `091234567` (nine digits) is a typo, not a customer called 091234567.
    public static func looksLikeOne(_ text: String) -> Bool {
        let typed = text.trimmed
        let digits = typed.filter(\.isASCIIDigit).count
        return digits >= 6 && typed.allSatisfy { $0.isASCIIDigit || $0.isWhitespace || "-.()+".contains($0) }
    }

    /// "0912-345-678", as staff read it back to the customer.
    public var formatted: String {
        let chars = Array(digits)
        return String(chars[0..<4]) + "-" + String(chars[4..<7]) + "-" + String(chars[7...])
    }

    /// "0912-***-678": the middle hidden, for receipts and screens others can see.
    public var masked: String {
        let chars = Array(digits)
        return String(chars[0..<4]) + "-***-" + String(chars[7...])
    }

    public var description: String { digits }

    public static func < (lhs: MobileNumber, rhs: MobileNumber) -> Bool { lhs.digits < rhs.digits }
}
