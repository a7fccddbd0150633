import DrinkShopCore
import Foundation
import Testing

/// A day read from text (a variable, never a literal: the tests' literal days are `TestSupport`'s).
private func parse(_ text: String) throws(BusinessDayError) -> BusinessDay { try BusinessDay(text) }

@Suite struct BusinessDayTests {
    @Test func readsAndWritesItsText() throws {
        let day = try parse("2026-12-01")
        #expect(day.description == "2026-12-01")
        #expect((day.year, day.month, day.day) == (2026, 12, 1))
        #expect(try parse("2024-02-29").description == "2024-02-29")
        #expect(try BusinessDay(year: 2026, month: 1, day: 5).description == "2026-01-05")
        #expect(BusinessDay(daysSince1970: 0).description == "1970-01-01")
    }

    @Test(arguments: ["2026-13-01", "2026-02-29", "2026-1-05", "2026-01-5", " 2026-01-05", "2026/01/05", "+026-01-05",
                      "2026-01-05x", "", "today", "２０２６-01-05"])
    func refusesTextThatIsNotADate(_ text: String) {
        #expect(throws: BusinessDayError.notADate(text)) { try BusinessDay(text) }
    }

    @Test func namesTheBadTextInItsMessage() {
        #expect(BusinessDayError.notADate("2026-02-30").description == "'2026-02-30' is not a date; give one like 2026-11-30 (日期格式錯誤)")
        #expect(throws: BusinessDayError.noSuchDate(year: 2026, month: 2, day: 30)) {
            try BusinessDay(year: 2026, month: 2, day: 30)
        }
    }

    @Test func wordsAreCountedFromTheGivenToday() throws {
        let today = try parse("2026-03-01")
        #expect(try BusinessDay("today", today: today) == today)
        #expect(try BusinessDay("今天", today: today) == today)
        #expect(try BusinessDay("Yesterday", today: today).description == "2026-02-28")
        #expect(try BusinessDay("昨天", today: today).description == "2026-02-28")
        #expect(try BusinessDay("2026-01-05", today: today).description == "2026-01-05")
        #expect(throws: BusinessDayError.notADate("tomorrow")) { try BusinessDay("tomorrow", today: today) }
        #expect(BusinessDay.offset(ofWord: "TODAY") == 0)
        #expect(BusinessDay.offset(ofWord: "2026-01-05") == nil)
    }

    @Test func arithmeticCrossesMonthsYearsAndLeapDays() throws {
        let leap = try parse("2024-02-28")
        #expect(leap.next.description == "2024-02-29")
        #expect(leap.advanced(by: 2).description == "2024-03-01")
        #expect(try parse("2025-01-01").previous.description == "2024-12-31")
        #expect(try parse("2026-12-01").advanced(by: -365).description == "2025-12-01")
        #expect(leap.distance(to: try parse("2025-02-28")) == 366)
        #expect(try parse("1970-01-01").previous.description == "1969-12-31")
    }

    @Test func ordersByDate() throws {
        let days = try ["2026-12-01", "2025-12-31", "2026-01-10"].map { text throws(BusinessDayError) in try BusinessDay(text) }
        #expect(days.sorted().map(\.description) == ["2025-12-31", "2026-01-10", "2026-12-01"])
        #expect(try parse("2026-01-10") == BusinessDay(year: 2026, month: 1, day: 10))
    }

    @Test func codesAsItsText() throws {
        let day = try parse("2026-12-01")
        let data = try JSONEncoder().encode([day])
        #expect(String(decoding: data, as: UTF8.self) == "[\"2026-12-01\"]")
        #expect(try JSONDecoder().decode([BusinessDay].self, from: data) == [day])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([BusinessDay].self, from: Data("[\"2026-02-30\"]".utf8)) }
    }
}

@Suite struct DayRangeTests {
    @Test func holdsItsDaysInclusive() throws {
        let range = try DayRange(parse("2024-02-27"), through: parse("2024-03-01"))
        #expect(range.count == 4)
        #expect(range.map(\.description) == ["2024-02-27", "2024-02-28", "2024-02-29", "2024-03-01"])
        #expect(range.contains(try parse("2024-02-29")))
        #expect(!range.contains(try parse("2024-03-02")))
        #expect(!range.contains(try parse("2024-02-26")))
        #expect(range.description == "2024-02-27 to 2024-03-01")
    }

    @Test func oneDay() throws {
        let day = try parse("2026-12-01")
        let range = try DayRange(day, through: day)
        #expect(range == DayRange(day))
        #expect(range.count == 1)
        #expect(Array(range) == [day])
        #expect(range.description == "2026-12-01")
    }

    @Test func refusesALastDayBeforeTheFirst() throws {
        let first = try parse("2026-12-02"), last = try parse("2026-12-01")
        #expect(throws: BusinessDayError.reversed(first: first, last: last)) { try DayRange(first, through: last) }
        #expect(BusinessDayError.reversed(first: first, last: last).description
            == "2026-12-02 to 2026-12-01: the first day is after the last (日期前後顛倒)")
    }
}
