import DrinkShopCore
import Foundation
import Testing

@Suite struct BackupRotationTests {
    static let taipei = TimeZone(identifier: "Asia/Taipei")!
    /// 2026-12-06 00:00 in Taipei.
    static let start = Date(timeIntervalSince1970: 1_796_486_400 - 8 * 3600)

    /// A backup every 10 minutes for 90 days: the standard rotation keeps the newest of each of the last 24 hours,
    /// 31 days and 12 months (overlapping), never more, and always the newest.
    @Test func aSeasonOfBackupsKeepsOnePerHourDayAndMonth() {
        let backups = (0..<(90 * 144)).map { (id: $0, time: Self.start.addingTimeInterval(Double($0) * 600)) }
        let kept = BackupRotation.standard.kept(backups, timeZone: Self.taipei)
        let newest = backups.last!
        #expect(kept.contains(newest.id))
        // 24 hourly (the newest among them), 31 daily of which the newest day's is already hourly, 3 months' newest
        // (already daily or not: the 90 days span 3 or 4 months).
        #expect(kept.count >= 24 + 30 && kept.count <= 24 + 31 + 4)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.taipei
        let keptDays = Set(kept.map { calendar.dateComponents([.year, .month, .day], from: backups[$0].time) })
        #expect(keptDays.count >= 31)
        // Each kept daily backup is its day's last (23:50).
        let keptTimes = kept.map { backups[$0].time }.sorted()
        let olderThanADay = keptTimes.filter { newest.time.timeIntervalSince($0) > 2 * 86_400 }
        #expect(olderThanADay.allSatisfy { calendar.component(.hour, from: $0) == 23 && calendar.component(.minute, from: $0) == 50 })
    }

    @Test func zeroKeepsOnlyTheNewestAndBucketsAreTheShopsHours() {
        let none = BackupRotation(hourly: 0, daily: 0, monthly: 0)
        let backups = (0..<10).map { (id: $0, time: Self.start.addingTimeInterval(Double($0) * 3600)) }
        #expect(none.kept(backups, timeZone: Self.taipei) == [9])
        // Two backups in one Taipei hour: the later stays.
        let twice = [(id: "a", time: Self.start.addingTimeInterval(60)), (id: "b", time: Self.start.addingTimeInterval(1800))]
        #expect(BackupRotation(hourly: 5, daily: 0, monthly: 0).kept(twice, timeZone: Self.taipei) == ["b"])
        #expect(none.kept([(id: 1, time: Self.start)], timeZone: Self.taipei) == [1])
        #expect(BackupRotation.standard.kept([(id: Int, time: Date)](), timeZone: Self.taipei).isEmpty)
    }

    @Test func readingARotationSaysWhatIsWrong() throws {
        #expect(try BackupRotation(parsing: "daily=7") == BackupRotation(hourly: 24, daily: 7, monthly: 12))
        #expect(try BackupRotation(parsing: " hourly=0 , monthly=24") == BackupRotation(hourly: 0, daily: 31, monthly: 24))
        for bad in ["weekly=4", "daily=-1", "daily", "daily=x", "hourly=99999"] {
            #expect(throws: BackupRotationProblem.self) { try BackupRotation(parsing: bad) }
        }
        do {
            _ = try BackupRotation(parsing: "weekly=4")
        } catch {
            #expect(error.description.contains("weekly=4") && error.description.contains("hourly=N"))
        }
    }
}
