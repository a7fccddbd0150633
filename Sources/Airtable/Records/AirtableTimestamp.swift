import CivilDate
import Foundation

/// Airtable's timestamp text: UTC, exactly three fractional digits and `Z`
/// (`2024-03-01T08:15:30.000Z`). Formatting is done by hand: it is on every record of every response.
public enum AirtableTimestamp {
    /// `date` as `YYYY-MM-DDTHH:MM:SS.sssZ`.
    public static func format(_ date: Date) -> String {
        let totalMillis = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let millis = Int(((totalMillis % 1000) + 1000) % 1000)
        let seconds = (totalMillis - Int64(millis)) / 1000
        let days = Int(floorDivide(seconds, 86_400))
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let date = YearMonthDay(daysSince1970: days)
        var out = ""
        out.reserveCapacity(24)
        out += pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) + "T"
        out += pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay / 60 % 60, 2) + ":" + pad(secondOfDay % 60, 2)
        out += "." + pad(millis, 3) + "Z"
        return out
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM[:SS[.fff]]` with `Z` or `±HH:MM`, as Airtable accepts in
    /// date and dateTime cells. A time without a zone is read as UTC.
    public static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        func num(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= b.count else { return nil }
            var v = 0
            for i in start..<(start + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard b.count >= 10, let y = num(0, 4), b[4] == UInt8(ascii: "-"), let mo = num(5, 2),
              b[7] == UInt8(ascii: "-"), let d = num(8, 2), (1...12).contains(mo), YearMonthDay(year: y, month: mo, day: d).isValid
        else { return nil }
        var seconds = Double(YearMonthDay(year: y, month: mo, day: d).daysSince1970) * 86_400
        if b.count == 10 { return Date(timeIntervalSince1970: seconds) }
        guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "), let h = num(11, 2),
              b.count > 13, b[13] == UInt8(ascii: ":"), let mi = num(14, 2), h < 24, mi < 60
        else { return nil }
        seconds += Double(h * 3600 + mi * 60)
        var i = 16
        if i < b.count, b[i] == UInt8(ascii: ":") {
            guard let s = num(i + 1, 2), s < 60 else { return nil }
            seconds += Double(s)
            i += 3
            if i < b.count, b[i] == UInt8(ascii: ".") {
                i += 1
                var fraction = 0.0
                var scale = 0.1
                let start = i
                while i < b.count, b[i] >= 48, b[i] <= 57 {
                    fraction += Double(b[i] - 48) * scale
                    scale /= 10
                    i += 1
                }
                guard i > start else { return nil }
                seconds += fraction
            }
        }
        if i == b.count { return Date(timeIntervalSince1970: seconds) }
        if b[i] == UInt8(ascii: "Z"), i + 1 == b.count { return Date(timeIntervalSince1970: seconds) }
        if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-"), let oh = num(i + 1, 2) {
            var om = 0
            if i + 3 < b.count {
                let j = b[i + 3] == UInt8(ascii: ":") ? i + 4 : i + 3
                guard let m = num(j, 2), j + 2 == b.count else { return nil }
                om = m
            } else if i + 3 != b.count {
                return nil
            }
            let offset = Double(oh * 3600 + om * 60)
            return Date(timeIntervalSince1970: b[i] == UInt8(ascii: "+") ? seconds - offset : seconds + offset)
        }
        return nil
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let s = String(value)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
