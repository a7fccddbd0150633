import Airtable
import Foundation

/// Date and dateTime cells: a date is stored as `YYYY-MM-DD`, a dateTime as UTC with milliseconds
/// (`2026-11-29T06:30:00.000Z`), whatever zone the client wrote it in.
enum CellDates {
    /// A date cell. Any timestamp Airtable accepts is read; its own calendar day (as written) is kept.
    static func date(_ value: JSONValue, typecast: Bool, _ reject: (String) -> APIError) throws -> JSONValue {
        guard case .string(let raw) = value else { throw reject("a date \"YYYY-MM-DD\" is needed, not \(describe(value))") }
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return .null }
        if typecast, let iso = isoFromSlashes(text) { text = iso }
        guard AirtableTimestamp.parse(text) != nil, text.utf8.count >= 10 else {
            throw reject("\"\(raw)\" is not a date of the form YYYY-MM-DD")
        }
        return .string(String(text.prefix(10)))
    }

    /// A dateTime cell. A time written without a zone is read in the field's time zone (UTC if none).
    static func dateTime(_ value: JSONValue, zone: String?, typecast: Bool, _ reject: (String) -> APIError) throws
        -> JSONValue
    {
        guard case .string(let raw) = value else {
            throw reject("an ISO 8601 date and time is needed, not \(describe(value))")
        }
        var text = raw.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return .null }
        if typecast, let iso = isoFromSlashes(text) { text = iso }
        guard let parsed = AirtableTimestamp.parse(text) else {
            throw reject("\"\(raw)\" is not an ISO 8601 date and time (e.g. 2026-11-29T14:30:00.000Z)")
        }
        var instant = parsed
        if !hasZone(text), let zone, let timeZone = TimeZones.named(zone) {
            // The wall-clock time was parsed as if UTC; shift it by the zone's offset at that moment.
            let offset = timeZone.secondsFromGMT(for: parsed)
            instant = parsed.addingTimeInterval(-Double(offset))
            let corrected = timeZone.secondsFromGMT(for: instant)
            if corrected != offset { instant = parsed.addingTimeInterval(-Double(corrected)) }
        }
        return .string(AirtableTimestamp.format(instant))
    }

    /// `YYYY/M/D` or US `M/D/YYYY`, optionally followed by ` H:mm[:ss]`, as ISO text (`YYYY-MM-DD[THH:mm:ss]`);
    /// nil for anything else. Typecast reads these as people type them.
    static func isoFromSlashes(_ text: String) -> String? {
        let pieces = text.split(separator: " ", maxSplits: 1)
        guard let datePart = pieces.first else { return nil }
        let parts = datePart.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
              let a = Int(parts[0]), let b = Int(parts[1]), let c = Int(parts[2])
        else { return nil }
        let (year, month, day) = parts[0].count == 4 ? (a, b, c) : (c, a, b)
        guard (1000...9999).contains(year) else { return nil }
        var iso = String(format: "%04d-%02d-%02d", year, month, day)
        if pieces.count == 2 {
            let clock = pieces[1].split(separator: ":").compactMap { Int($0) }
            guard clock.count == 2 || clock.count == 3 else { return nil }
            iso += String(format: "T%02d:%02d:%02d", clock[0], clock[1], clock.count == 3 ? clock[2] : 0)
        }
        return iso
    }

    /// Whether an ISO text carries its own zone (`Z` or `±HH:MM` after the time).
    static func hasZone(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 10 else { return false }
        if bytes.last == UInt8(ascii: "Z") || bytes.last == UInt8(ascii: "z") { return true }
        return bytes[11...].contains(UInt8(ascii: "+")) || bytes[11...].contains(UInt8(ascii: "-"))
    }
}
