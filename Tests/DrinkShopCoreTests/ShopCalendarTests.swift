import DrinkShopCore
import Foundation
import Testing

/// A day read from text (a variable, never a literal: the tests' literal days are `TestSupport`'s).
private func parse(_ text: String) throws(BusinessDayError) -> BusinessDay { try BusinessDay(text) }

@Suite struct ShopCalendarTests {
    // 2026-12-01T16:30:00Z: 2026-12-02 00:30 in Taiwan, 2026-12-01 16:30 in UTC.
    let lateNight = Date(timeIntervalSince1970: 1_796_142_600)

    @Test func aDayStartingAtFiveCountsTheSmallHoursWithTheDayBefore() throws {
        let midnight = ShopCalendar.taiwan
        let five = ShopCalendar(timeZone: TimeZone(identifier: "Asia/Taipei")!, dayStart: try BusinessDayStart(hour: 5))
        #expect(midnight.businessDay(of: lateNight).description == "2026-12-02")
        #expect(five.businessDay(of: lateNight).description == "2026-12-01")
        // The wall-clock date is the calendar's, whatever the day's start.
        #expect(five.dayText(lateNight) == "2026-12-02")
    }

    @Test func boundsOfABusinessDayAreItsStartAndTheNextDaysStart() throws {
        let five = ShopCalendar(timeZone: TimeZone(identifier: "Asia/Taipei")!, dayStart: try BusinessDayStart(hour: 5))
        let bounds = five.bounds(of: try parse("2026-12-01"))
        // 05:00 Taiwan is 21:00 UTC the day before.
        #expect(bounds.start == Date(timeIntervalSince1970: 1_796_072_400))
        #expect(bounds.end == bounds.start.addingTimeInterval(86_400))
        #expect(five.businessDay(of: bounds.start).description == "2026-12-01")
        #expect(five.businessDay(of: bounds.end.addingTimeInterval(-1)).description == "2026-12-01")
        #expect(five.businessDay(of: bounds.end).description == "2026-12-02")
        #expect(five.dayBounds(of: lateNight) == bounds)
        let range = try DayRange(parse("2026-12-01"), through: parse("2026-12-03"))
        #expect(five.bounds(of: range) == (bounds.start, bounds.start.addingTimeInterval(3 * 86_400)))
    }

    @Test func aDaylightSavingDayIsItsRealLength() throws {
        let newYork = ShopCalendar(timeZone: TimeZone(identifier: "America/New_York")!)
        let bounds = newYork.bounds(of: try parse("2026-03-08"))
        #expect(bounds.end.timeIntervalSince(bounds.start) == 23 * 3600)
        #expect(newYork.businessDay(of: bounds.end.addingTimeInterval(-1)).description == "2026-03-08")
    }

    @Test func aMembersPassIsDatedOnTheShopsCalendarNotTaiwans() throws {
        let utc = ShopCalendar(utcOffsetSeconds: 0)
        let pass = try MemberPass(name: "月卡", expiresAt: lateNight, benefit: .percentOff(10))
        #expect(throws: MemberError.passExpired(pass: "月卡", expiredAt: lateNight, calendar: utc)) {
            try pass.usableBenefit(at: lateNight, calendar: utc)
        }
        #expect(MemberError.passExpired(pass: "月卡", expiredAt: lateNight, calendar: utc).description
            == "the 月卡 pass expired on 2026-12-01 (已過期); renew it to use it")
        #expect(MemberError.passExpired(pass: "月卡", expiredAt: lateNight, calendar: .taiwan).description
            == "the 月卡 pass expired on 2026-12-02 (已過期); renew it to use it")
    }
}
