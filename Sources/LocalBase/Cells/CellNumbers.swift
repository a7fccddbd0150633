import Foundation

/// Reading numbers out of text for typecast: "12", " 1,234.5 ", "NT$50", "50%" (a percent field stores
/// 0.5), "1:30" (a duration field stores 5400 seconds).
enum CellNumbers {
    static func parse(_ text: String, percent: Bool, duration: Bool) -> Double? {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        if duration, let seconds = clockDuration(trimmed) { return seconds }
        var scale = 1.0
        if trimmed.hasSuffix("%") {
            trimmed.removeLast()
            if percent { scale = 0.01 }
        }
        var negative = false
        if trimmed.hasPrefix("-") {
            negative = true
            trimmed.removeFirst()
        }
        // A currency symbol in front ("$", "NT$", "€"): drop everything before the first digit or point.
        if let first = trimmed.firstIndex(where: { $0.isASCII && ($0.isNumber || $0 == ".") }) {
            let prefix = trimmed[..<first]
            guard prefix.allSatisfy({ !$0.isNumber && $0 != "-" && $0 != "+" }) else { return nil }
            trimmed = String(trimmed[first...])
        }
        trimmed.removeAll { $0 == "," || $0 == "_" || $0 == " " }
        guard !trimmed.isEmpty, let value = Double(trimmed), value.isFinite else { return nil }
        return (negative ? -value : value) * scale
    }

    /// "h:mm" or "h:mm:ss" as seconds.
    private static func clockDuration(_ text: String) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
              let hours = Double(parts[0]), let minutes = Double(parts[1]), minutes < 60
        else { return nil }
        var seconds = hours * 3600 + minutes * 60
        if parts.count == 3 {
            guard let extra = Double(parts[2]), extra < 60 else { return nil }
            seconds += extra
        }
        return seconds
    }
}
