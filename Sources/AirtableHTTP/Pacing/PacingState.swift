import Airtable
import CivilDate
import Foundation

/// What the processes of one machine share about one base: the throttle's pacing and the calls spent.
/// Pure: it is read from and written to a `PacingFile`, and every decision is a function of it and the
/// time given (wall-clock seconds since 1970, the only clock every process of a machine shares and that
/// the calendar needs).
public struct PacingState: Sendable, Equatable {
    /// GCRA's theoretical arrival time: when the next request would be due at exactly the rate.
    public var theoreticalArrival: Double = 0
    /// Nobody sends before this (set after a 429, for every process).
    public var heldUntil: Double = 0
    /// The UTC day (`2026-12-01`) `callsToday` counts, and the calls of that day.
    public var day: String = ""
    public var callsToday: Int = 0
    /// The UTC month (`2026-12`) `callsThisMonth` counts, and the calls of that month.
    public var month: String = ""
    public var callsThisMonth: Int = 0

    public init() {}

    /// Pacing further ahead than this is taken for a clock that jumped or a file from before a reboot, and
    /// forgotten: a stale file never holds the budget (the worst it costs is one burst too many).
    public static let stalenessLimit: Double = 600

    /// Reserves the send time of one request ready at `now`, and counts the call in its day and month.
    /// - Returns: the wall-clock second at which the request may be sent.
    public mutating func reserve(at now: Double, requestsPerSecond: Double, burst: Int) -> Double {
        // Without a latest moment a send time is always found.
        reserve(at: now, requestsPerSecond: requestsPerSecond, burst: burst, latest: .infinity) ?? now
    }

    /// Reserves a send time no later than `latest`, or reserves nothing and returns nil (the queue is too
    /// long: the caller turns the request away instead of letting it wait).
    public mutating func reserve(at now: Double, requestsPerSecond: Double, burst: Int, latest: Double) -> Double? {
        forgetStalePacing(at: now)
        let interval = 1 / requestsPerSecond
        let tolerance = Double(max(1, burst) - 1) * interval
        let send = max(now, heldUntil, theoreticalArrival - tolerance)
        guard send <= latest else { return nil }
        theoreticalArrival = max(theoreticalArrival, send) + interval
        count(at: send)
        return send
    }

    /// Holds every request until `moment`.
    public mutating func hold(until moment: Double, at now: Double) {
        forgetStalePacing(at: now)
        heldUntil = max(heldUntil, moment)
        theoreticalArrival = max(theoreticalArrival, moment)
    }

    /// The counts as they stand at `now`: a day or month that has ended counts zero.
    public func usage(at now: Double) -> CallUsage {
        let (today, thisMonth) = PacingState.calendar(now)
        return CallUsage(day: today, callsToday: day == today ? callsToday : 0,
                         month: thisMonth, callsThisMonth: month == thisMonth ? callsThisMonth : 0)
    }

    private mutating func count(at moment: Double) {
        let (today, thisMonth) = PacingState.calendar(moment)
        if day != today { day = today; callsToday = 0 }
        if month != thisMonth { month = thisMonth; callsThisMonth = 0 }
        callsToday += 1
        callsThisMonth += 1
    }

    private mutating func forgetStalePacing(at now: Double) {
        if theoreticalArrival > now + PacingState.stalenessLimit { theoreticalArrival = 0 }
        if heldUntil > now + PacingState.stalenessLimit { heldUntil = 0 }
    }

    /// The UTC day and month of a wall-clock second.
    static func calendar(_ seconds: Double) -> (day: String, month: String) {
        let days = Int((seconds / 86_400).rounded(.down))
        let date = YearMonthDay(daysSince1970: days)
        let monthText = String(format: "%04d-%02d", date.year, date.month)
        return (monthText + String(format: "-%02d", date.day), monthText)
    }

    // MARK: - The file's text

    /// One line of `key=value` words after the file's format name and version, padded by the file to a
    /// fixed size.
    func text(formatName: String) -> String {
        "\(formatName) 1 tat=\(theoreticalArrival) held=\(heldUntil) day=\(day.isEmpty ? "-" : day) "
            + "calls-today=\(callsToday) month=\(month.isEmpty ? "-" : month) calls-month=\(callsThisMonth)"
    }

    /// Reads the text `text(formatName:)` wrote; anything unreadable (a new or torn file, another
    /// format's name) is a fresh state.
    init(text: String, formatName: String) {
        self.init()
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count >= 2, words[0] == formatName, words[1] == "1" else { return }
        for word in words.dropFirst(2) {
            let parts = word.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = String(parts[1])
            switch parts[0] {
            case "tat": theoreticalArrival = Double(value).flatMap { $0.isFinite ? $0 : nil } ?? 0
            case "held": heldUntil = Double(value).flatMap { $0.isFinite ? $0 : nil } ?? 0
            case "day": day = value == "-" ? "" : value
            case "calls-today": callsToday = max(0, Int(value) ?? 0)
            case "month": month = value == "-" ? "" : value
            case "calls-month": callsThisMonth = max(0, Int(value) ?? 0)
            default: continue
            }
        }
    }
}

/// Calls spent on one base from one machine.
public struct CallUsage: Sendable, Equatable {
    /// The UTC day, `2026-12-01`.
    public var day: String
    public var callsToday: Int
    /// The UTC month, `2026-12`.
    public var month: String
    public var callsThisMonth: Int

    public init(day: String, callsToday: Int, month: String, callsThisMonth: Int) {
        self.day = day
        self.callsToday = callsToday
        self.month = month
        self.callsThisMonth = callsThisMonth
    }
}
