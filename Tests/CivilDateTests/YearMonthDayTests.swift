import CivilDate
import Testing

@Suite struct YearMonthDayTests {
    @Test func knownDates() {
        #expect(YearMonthDay(daysSince1970: 0) == YearMonthDay(year: 1970, month: 1, day: 1))
        #expect(YearMonthDay(daysSince1970: -1) == YearMonthDay(year: 1969, month: 12, day: 31))
        #expect(YearMonthDay(daysSince1970: 10_957) == YearMonthDay(year: 2000, month: 1, day: 1))
        #expect(YearMonthDay(daysSince1970: 11_016) == YearMonthDay(year: 2000, month: 2, day: 29))
        #expect(YearMonthDay(daysSince1970: 20_788) == YearMonthDay(year: 2026, month: 12, day: 1))
        #expect(YearMonthDay(year: 1994, month: 11, day: 6).daysSince1970 == 9_075)
        #expect(YearMonthDay(year: 1, month: 1, day: 1).daysSince1970 == -719_162)
        #expect(YearMonthDay(year: 0, month: 3, day: 1).daysSince1970 == -719_468)
    }

    @Test func negativeDaysAndYears() {
        #expect(YearMonthDay(daysSince1970: -719_469) == YearMonthDay(year: 0, month: 2, day: 29))
        #expect(YearMonthDay(daysSince1970: -719_529) == YearMonthDay(year: -1, month: 12, day: 31))
        #expect(YearMonthDay(year: -1, month: 12, day: 31).daysSince1970 == -719_529)
    }

    @Test func roundTripOverAWideRange() {
        // Every day from 2,000 years before 1970 to 2,000 years after, each the day after the one before.
        var previous = YearMonthDay(daysSince1970: -730_500 - 1)
        var wrong: [Int] = []
        for days in -730_500...730_500 {
            let date = YearMonthDay(daysSince1970: days)
            let follows = date.day == 1
                ? previous.day == YearMonthDay.daysIn(month: previous.month, year: previous.year)
                    && (date.month == previous.month % 12 + 1) && date.year == previous.year + (date.month == 1 ? 1 : 0)
                : date.year == previous.year && date.month == previous.month && date.day == previous.day + 1
            if !date.isValid || date.daysSince1970 != days || !(previous < date) || !follows { wrong.append(days) }
            previous = date
        }
        #expect(wrong.isEmpty, "first wrong day numbers: \(wrong.prefix(5))")
    }

    @Test func leapYears() {
        #expect(YearMonthDay.isLeapYear(2000))
        #expect(YearMonthDay.isLeapYear(2024))
        #expect(!YearMonthDay.isLeapYear(1900))
        #expect(!YearMonthDay.isLeapYear(2026))
        #expect(YearMonthDay(year: 2024, month: 2, day: 29).isValid)
        #expect(!YearMonthDay(year: 2100, month: 2, day: 29).isValid)
        #expect(!YearMonthDay(year: 2026, month: 4, day: 31).isValid)
        #expect(!YearMonthDay(year: 2026, month: 13, day: 1).isValid)
        #expect(YearMonthDay(daysSince1970: YearMonthDay(year: 2100, month: 2, day: 28).daysSince1970 + 1)
            == YearMonthDay(year: 2100, month: 3, day: 1))
    }

    @Test func weekdays() {
        #expect(YearMonthDay(year: 1970, month: 1, day: 1).weekday == 4)
        #expect(YearMonthDay(year: 1994, month: 11, day: 6).weekday == 0)
        #expect(YearMonthDay(year: 1969, month: 12, day: 27).weekday == 6)
    }
}
