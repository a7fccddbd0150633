import Airtable
/// Numbers as formula text: literals the lexer reads back exactly, and the text a number becomes
/// in a text context (`{Qty} & ' cups'`).
enum FormulaNumberText {
    /// Plain decimal notation, never an exponent: integral values without a fraction (`3`), others
    /// with the shortest digits that read back to the same `Double` (`2.5`, `0.1`, `0.0000001`).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-Infinity" : "Infinity") }
        if value == 0 { return "0" }
        if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
        return expandExponent(String(value))
    }

    /// Rewrites Swift's shortest representation (`1.5e-07`, `1e+16`) without the exponent.
    private static func expandExponent(_ text: String) -> String {
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? "0"
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        var digits = whole + fraction
        // The decimal point sits after `pointIndex` digits.
        var pointIndex = whole.count + exponent
        if pointIndex <= 0 {
            digits = String(repeating: "0", count: 1 - pointIndex) + digits
            pointIndex = 1
        } else if pointIndex > digits.count {
            digits += String(repeating: "0", count: pointIndex - digits.count)
        }
        var integerPart = String(digits.prefix(pointIndex))
        var fractionPart = String(digits.dropFirst(pointIndex))
        while fractionPart.hasSuffix("0") { fractionPart.removeLast() }
        while integerPart.count > 1, integerPart.hasPrefix("0") { integerPart.removeFirst() }
        let sign = negative ? "-" : ""
        return fractionPart.isEmpty ? sign + integerPart : sign + integerPart + "." + fractionPart
    }

    /// The number a text holds, read as Airtable reads numeric text in comparisons and arithmetic:
    /// optional surrounding spaces, an optional sign, digits with an optional fraction and exponent.
    /// Nil for anything else, including the empty text.
    static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingFormulaWhitespace()
        guard !trimmed.isEmpty, trimmed.utf8.count < 400 else { return nil }
        var sawDigit = false
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): break
            default: return nil
            }
        }
        guard sawDigit, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }
}

extension StringProtocol {
    /// The text without leading and trailing white space (spaces, tabs, newlines, and Unicode spaces).
    func trimmingFormulaWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
