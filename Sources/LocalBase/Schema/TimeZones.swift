import Foundation

/// Time zones by the names Airtable accepts: IANA identifiers, and `utc`/`UTC`/`GMT`.
enum TimeZones {
    /// Coordinated Universal Time.
    static let utc = TimeZone(secondsFromGMT: 0) ?? TimeZone(identifier: "UTC") ?? .current

    static func named(_ name: String) -> TimeZone? {
        switch name.lowercased() {
        case "utc", "gmt", "etc/utc": return utc
        default: return TimeZone(identifier: name)
        }
    }
}
