import Foundation

/// Which backups a shop keeps, as the owner sets it: the newest backup of each of the last `hourly` hours that
/// have one, of each of the last `daily` days, and of each of the last `monthly` months (the rule restic's
/// `forget --keep-hourly/--keep-daily/--keep-monthly` follows). The newest backup is always kept. Hours, days
/// and months are the shop's own, in its time zone.
public struct BackupRotation: Sendable, Equatable, CustomStringConvertible {
    public var hourly: Int
    public var daily: Int
    public var monthly: Int

    /// Every hour of a day, every day of a month, every month of a year.
    public static let standard = BackupRotation(hourly: 24, daily: 31, monthly: 12)

    public init(hourly: Int, daily: Int, monthly: Int) {
        self.hourly = hourly
        self.daily = daily
        self.monthly = monthly
    }

    /// Reads `hourly=24,daily=31,monthly=12` (any of the three, in any order; the others keep their
    /// standard count; 0 keeps none of that kind).
    public init(parsing text: String) throws(BackupRotationProblem) {
        self = .standard
        for part in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, let count = Int(pair[1]), count >= 0, count <= 10_000 else {
                throw BackupRotationProblem(text: part)
            }
            switch pair[0].lowercased() {
            case "hourly": hourly = count
            case "daily": daily = count
            case "monthly": monthly = count
            default: throw BackupRotationProblem(text: part)
            }
        }
    }

    public var description: String { "hourly=\(hourly),daily=\(daily),monthly=\(monthly)" }

    /// The backups to keep of `backups` (each an id and the time it was taken); the rest may be deleted.
    public func kept<ID: Hashable>(_ backups: [(id: ID, time: Date)], timeZone: TimeZone) -> Set<ID> {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let newestFirst = backups.sorted { $0.time > $1.time }
        guard let newest = newestFirst.first else { return [] }
        var kept: Set<ID> = [newest.id]
        let levels: [(count: Int, parts: Set<Calendar.Component>)] = [
            (hourly, [.year, .month, .day, .hour]), (daily, [.year, .month, .day]), (monthly, [.year, .month]),
        ]
        for level in levels where level.count > 0 {
            var seen: Set<DateComponents> = []
            for backup in newestFirst {
                let bucket = calendar.dateComponents(level.parts, from: backup.time)
                guard !seen.contains(bucket) else { continue }
                seen.insert(bucket)
                kept.insert(backup.id)
                if seen.count == level.count { break }
            }
        }
        return kept
    }
}

/// A rotation that cannot be read; says which part and what is expected.
public struct BackupRotationProblem: Error, Sendable, CustomStringConvertible {
    public var text: String
    public var description: String {
        "\"\(text.prefix(40))\" is not a rotation part: write hourly=N, daily=N or monthly=N, separated by commas "
            + "(e.g. hourly=24,daily=31,monthly=12)"
    }
}
