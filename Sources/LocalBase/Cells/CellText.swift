import Airtable
import AirtableFormula
import Foundation

/// User-facing text of cells, for `cellFormat=string`: numbers with the field's precision and symbol,
/// select names, arrays joined with ", ", dates and times in the caller's time zone and locale.
struct CellText {
    let timeZone: TimeZone
    let locale: String

    func render(_ value: JSONValue, field: FieldSchema) -> String {
        if value["error"] != nil { return "#ERROR!" }
        if let special = value["specialValue"]?.stringValue { return special }
        switch field.type {
        case .formula, .rollup, .multipleLookupValues:
            // Shown as the result's type shows it (a lookup: each value, joined).
            guard let result = field.options?["result"], let name = result["type"]?.stringValue,
                  let type = FieldType(rawValue: name), !type.isComputed
            else { break }
            let shown = FieldSchema(id: field.id, name: field.name, type: type, options: result["options"])
            if case .array(let items) = value { return items.map { render($0, field: shown) }.joined(separator: ", ") }
            return render(value, field: shown)
        case .createdBy, .lastModifiedBy:
            return value["name"]?.stringValue ?? value["email"]?.stringValue ?? ""
        case .button:
            return value["label"]?.stringValue ?? ""
        default:
            break
        }
        let options = field.options
        switch (field.type, value) {
        case (.number, .number(let n)), (.rating, .number(let n)), (.autoNumber, .number(let n)):
            return fixed(n, digits: options?["precision"]?.intValue)
        case (.currency, .number(let n)):
            let symbol = options?["symbol"]?.stringValue ?? "$"
            let digits = options?["precision"]?.intValue ?? 2
            return (n < 0 ? "-" : "") + symbol + fixed(abs(n), digits: digits)
        case (.percent, .number(let n)):
            return fixed(n * 100, digits: options?["precision"]?.intValue ?? 0) + "%"
        case (.duration, .number(let n)):
            return clock(seconds: n, withSeconds: (options?["durationFormat"]?.stringValue ?? "h:mm") != "h:mm")
        case (.checkbox, .bool(let checked)):
            return checked ? "checked" : ""
        case (.date, .string(let day)):
            return AirtableTimestamp.parse(day).map { dateText($0, zone: TimeZones.utc, field: field) } ?? day
        case (.dateTime, .string(let text)), (.createdTime, .string(let text)), (.lastModifiedTime, .string(let text)):
            guard let instant = AirtableTimestamp.parse(text) else { return text }
            return dateText(instant, zone: timeZone, field: field) + " " + timeText(instant, field: field)
        case (.multipleAttachments, .array(let items)):
            return items.map { item in
                let name = item["filename"]?.stringValue ?? ""
                let url = item["url"]?.stringValue ?? ""
                return "\(name) (\(url))"
            }.joined(separator: ", ")
        case (_, .array(let items)):
            return items.map { $0.stringValue ?? JSONWriter.string($0) }.joined(separator: ", ")
        case (_, .string(let text)):
            return text
        default:
            return JSONWriter.string(value)
        }
    }

    /// `value` with exactly `digits` decimals, or as JSON writes it when no precision is set.
    private func fixed(_ value: Double, digits: Int?) -> String {
        guard let digits else { return JSONWriter.string(.number(value)) }
        return String(format: "%.\(max(0, min(digits, 8)))f", value)
    }

    private func clock(seconds: Double, withSeconds: Bool) -> String {
        let total = Int(seconds.rounded())
        let sign = total < 0 ? "-" : ""
        let magnitude = abs(total)
        let minutes = String(format: "%02d", magnitude / 60 % 60)
        let base = "\(sign)\(magnitude / 3600):\(minutes)"
        return withSeconds ? base + String(format: ":%02d", magnitude % 60) : base
    }

    /// The calendar date in `zone`, in the field's date format ("local" follows the user's locale).
    private func dateText(_ instant: Date, zone: TimeZone, field: FieldSchema) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: instant)
        let (y, m, d) = (parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
        let iso = String(format: "%04d-%02d-%02d", y, m, d)
        switch field.options?["dateFormat"]?["name"]?.stringValue ?? "iso" {
        case "us": return "\(m)/\(d)/\(y)"
        case "european": return "\(d)/\(m)/\(y)"
        case "friendly":
            let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                          "October", "November", "December"]
            return "\(months[max(0, min(11, m - 1))]) \(d), \(y)"
        case "local":
            let language = locale.lowercased()
            if language == "en-us" || language == "en" { return "\(m)/\(d)/\(y)" }
            if language.hasPrefix("zh") || language.hasPrefix("ja") || language.hasPrefix("ko") { return "\(y)/\(m)/\(d)" }
            if language.hasPrefix("en") || language.hasPrefix("fr") || language.hasPrefix("de")
                || language.hasPrefix("es") || language.hasPrefix("it") { return "\(d)/\(m)/\(y)" }
            return iso
        default: return iso
        }
    }

    /// The time of day in the caller's zone: 24-hour unless the field asks for 12-hour.
    private func timeText(_ instant: Date, field: FieldSchema) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let (hour, minute) = (parts.hour ?? 0, parts.minute ?? 0)
        if field.options?["timeFormat"]?["name"]?.stringValue == "12hour" {
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            return String(format: "%d:%02d", twelve, minute) + (hour < 12 ? "am" : "pm")
        }
        return String(format: "%02d:%02d", hour, minute)
    }
}
