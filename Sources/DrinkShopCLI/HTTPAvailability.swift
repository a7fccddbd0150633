import CurlOnDemand

/// Whether this process can make HTTP requests. The release build loads libcurl only when it is first needed
/// (`Sources/CurlOnDemand`); a process that will need it asks here at its start, so a machine without
/// libcurl gets one clear refusal before any work, never a process ended in the middle of it.
enum HTTPAvailability {
    /// Why HTTP requests cannot be made here, or nil when they can.
    static func problem() -> String? {
        var reason = [CChar](repeating: 0, count: 512)
        guard drinkshop_http_unavailable(&reason, UInt(reason.count)) != 0 else { return nil }
        return String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The refusal of a process that needs HTTP for `what`, or nil when it can go on.
    static func refusal(for what: String) -> String? {
        problem().map { "drinkshop: \(what) needs HTTP requests, and \($0). Install libcurl (Debian: apt-get install libcurl4) and start again." }
    }
}
