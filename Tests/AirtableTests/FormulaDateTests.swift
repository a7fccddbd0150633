@testable import AirtableFormula
import Foundation
import Testing
@testable import Airtable

@Suite struct FormulaDateTests {
    private func value(_ formula: String, _ cells: [String: JSONValue] = [:],
                       timeZone: TimeZone = FormulaRecord.utc) throws -> FormulaValue {
        try FormulaFixture.evaluate(formula, cells, timeZone: timeZone)
    }

    private func instant(_ text: String) throws -> FormulaValue {
        .date(try #require(AirtableTimestamp.parse(text)))
    }

    @Test func recordFunctionsReadTheRecord() throws {
        #expect(try value("RECORD_ID()") == .text("recAAAAAAAAAAAAA1"))
        #expect(try value("CREATED_TIME()") == .date(FormulaFixture.created))
        #expect(try value("NOW()") == .date(FormulaFixture.now))
        #expect(try value("TODAY()") == instant("2024-06-15"))
        #expect(try value("{Created}") == .date(FormulaFixture.created))
        #expect(try FormulaFixture.matches("OR(RECORD_ID()='recX', RECORD_ID()='recAAAAAAAAAAAAA1')"))
    }

    @Test func todayIsMidnightInTheRecordsZone() throws {
        // 2024-06-15T20:00Z is already the 16th in Taipei and still the 15th in New York.
        let lateEvening = try #require(AirtableTimestamp.parse("2024-06-15T20:00:00.000Z"))
        let compiled = try CompiledFormula("DATETIME_FORMAT(TODAY(), 'YYYY-MM-DD')", fields: FormulaFixture.fields)
        let taipei = FormulaFixture.record(timeZone: FormulaFixture.taipei, now: lateEvening)
        let newYork = FormulaFixture.record(timeZone: FormulaFixture.newYork, now: lateEvening)
        #expect(compiled.evaluate(taipei) == .text("2024-06-16"))
        #expect(compiled.evaluate(newYork) == .text("2024-06-15"))
        #expect(try CompiledFormula("TODAY()", fields: []).evaluate(taipei) == instant("2024-06-15T16:00:00.000Z"))
    }

    @Test func dateCellsReadAsISOTextInATextContext() throws {
        let cells: [String: JSONValue] = ["When": "2024-01-02T08:30:00.000Z", "Day": "2024-01-02"]
        #expect(try FormulaFixture.matches("FIND('2024-01-02', {When})", cells))
        #expect(try FormulaFixture.matches("FIND('2024-01-02', {Day})", cells))
        #expect(try value("{When} & ''", cells) == .text("2024-01-02T08:30:00.000Z"))
        #expect(try value("{When} & ''", cells, timeZone: FormulaFixture.taipei) == .text("2024-01-02T16:30:00.000+08:00"))
        #expect(try value("{Day} & ''", cells, timeZone: FormulaFixture.taipei) == .text("2024-01-02T00:00:00.000+08:00"))
    }

    @Test func datesCompareWithDatesAndDateText() throws {
        let cells: [String: JSONValue] = ["When": "2023-12-01T12:34:56.000Z"]
        #expect(try FormulaFixture.matches("{When} = DATETIME_PARSE('2023-12-01T12:34:56.000Z')", cells))
        #expect(try FormulaFixture.matches("{When} = '2023-12-01T12:34:56.000Z'", cells))
        #expect(try FormulaFixture.matches("{When} > '2023-12-01'", cells))
        #expect(try FormulaFixture.matches("{When} < DATETIME_PARSE('2023-12-02')", cells))
        #expect(try !FormulaFixture.matches("{When} = 'someday'", cells))
        #expect(try FormulaFixture.matches("{When} != BLANK()", cells))
    }

    @Test func beforeAfterSame() throws {
        let cells: [String: JSONValue] = ["When": "2024-06-15T01:00:00.000Z", "Day": "2024-06-15"]
        #expect(try value("IS_BEFORE({When}, NOW())", cells) == .bool(true))
        #expect(try value("IS_AFTER({When}, NOW())", cells) == .bool(false))
        #expect(try value("IS_AFTER(NOW(), '2024-06-15')", cells) == .bool(true))
        #expect(try value("IS_SAME({When}, NOW(), 'day')", cells) == .bool(true))
        #expect(try value("IS_SAME({When}, NOW(), 'hour')", cells) == .bool(false))
        #expect(try value("IS_SAME({When}, NOW())", cells) == .bool(false))
        #expect(try value("IS_SAME({When}, '2024-06-15T01:00:00.000Z')", cells) == .bool(true))
        #expect(try value("IS_SAME({Day}, TODAY(), 'day')", cells) == .bool(true))
        #expect(try value("IS_SAME({When}, '2024-01-01', 'year')", cells) == .bool(true))
        #expect(try value("IS_SAME({When}, '2024-05-31', 'month')", cells) == .bool(false))
        #expect(try value("IS_SAME('2024-06-16', '2024-06-10', 'week')", cells) == .bool(false))
        #expect(try value("IS_SAME('2024-06-15', '2024-06-09', 'w')", cells) == .bool(true))
        // 01:00Z is 21:00 on the 14th in New York: not the same day as NOW() (06:30 on the 15th there).
        #expect(try value("IS_SAME({When}, NOW(), 'day')", cells, timeZone: FormulaFixture.newYork) == .bool(false))
        #expect(try value("IS_BEFORE({When}, NOW())").isError)
    }

    @Test(arguments: [
        ("DATETIME_DIFF('2024-01-03', '2024-01-01', 'days')", 2.0),
        ("DATETIME_DIFF('2024-01-01', '2024-01-03', 'days')", -2),
        ("DATETIME_DIFF('2024-01-01T10:00:00Z', '2024-01-01T08:30:00Z', 'hours')", 1),
        ("DATETIME_DIFF('2024-01-01T10:00:00Z', '2024-01-01T08:30:00Z', 'h')", 1),
        ("DATETIME_DIFF('2024-01-01T10:00:00Z', '2024-01-01T08:30:00Z', 'minutes')", 90),
        ("DATETIME_DIFF('2024-01-01T10:00:00Z', '2024-01-01T08:30:00Z', 'm')", 90),
        ("DATETIME_DIFF('2024-01-01T10:00:00Z', '2024-01-01T08:30:00Z')", 5400),
        ("DATETIME_DIFF('2024-01-01T10:00:00Z', '2024-01-01T08:30:00Z', 'seconds')", 5400),
        ("DATETIME_DIFF('2024-01-01T00:00:01.5Z', '2024-01-01T00:00:00Z', 'milliseconds')", 1500),
        ("DATETIME_DIFF('2024-01-01T00:00:01.5Z', '2024-01-01T00:00:00Z', 'ms')", 1500),
        ("DATETIME_DIFF('2024-01-22', '2024-01-01', 'weeks')", 3),
        ("DATETIME_DIFF('2024-03-15', '2024-01-31', 'months')", 1),
        ("DATETIME_DIFF('2024-03-15', '2024-01-31', 'M')", 1),
        ("DATETIME_DIFF('2024-01-31', '2024-03-15', 'months')", -1),
        ("DATETIME_DIFF('2024-02-29', '2024-01-31', 'months')", 1),
        ("DATETIME_DIFF('2024-02-28', '2024-01-31', 'months')", 0),
        ("DATETIME_DIFF('2025-06-01', '2024-01-01', 'years')", 1),
        ("DATETIME_DIFF('2025-06-01', '2024-01-01', 'quarters')", 5),
        ("DATETIME_DIFF('2024-06-15', '2024-06-14T23:00:00Z', 'days')", 0),
    ])
    func datetimeDiffIsFirstMinusSecondInWholeUnits(formula: String, expected: Double) throws {
        #expect(try value(formula) == .number(expected), "\(formula)")
    }

    @Test func datetimeDiffCountsOrderAgeInTheShop() throws {
        let compiled = try CompiledFormula("DATETIME_DIFF(NOW(), CREATED_TIME(), 'minutes') < 30", fields: [])
        let fresh = FormulaRecord(id: "rec1", createdTime: FormulaFixture.now.addingTimeInterval(-600), cells: [:],
                                  now: FormulaFixture.now)
        let stale = FormulaRecord(id: "rec2", createdTime: FormulaFixture.now.addingTimeInterval(-3600), cells: [:],
                                  now: FormulaFixture.now)
        #expect(compiled.matches(fresh))
        #expect(!compiled.matches(stale))
    }

    @Test(arguments: [
        ("DATEADD('2024-01-31', 1, 'month')", "2024-02-29T00:00:00.000Z"),
        ("DATEADD('2024-01-31', 1, 'M')", "2024-02-29T00:00:00.000Z"),
        ("DATEADD('2023-01-31', 13, 'months')", "2024-02-29T00:00:00.000Z"),
        ("DATEADD('2024-03-31', -1, 'months')", "2024-02-29T00:00:00.000Z"),
        ("DATEADD('2024-02-29', 1, 'years')", "2025-02-28T00:00:00.000Z"),
        ("DATEADD('2024-01-01', 1, 'quarter')", "2024-04-01T00:00:00.000Z"),
        ("DATEADD('2024-12-30', 3, 'days')", "2025-01-02T00:00:00.000Z"),
        ("DATEADD('2024-01-01', 2, 'weeks')", "2024-01-15T00:00:00.000Z"),
        ("DATEADD('2024-01-01T10:00:00Z', 90, 'minutes')", "2024-01-01T11:30:00.000Z"),
        ("DATEADD('2024-01-01T10:00:00Z', 1.5, 'hours')", "2024-01-01T11:30:00.000Z"),
        ("DATEADD('2024-01-01T10:00:00Z', -30, 's')", "2024-01-01T09:59:30.000Z"),
        ("DATEADD('2024-01-01T10:00:00Z', 250, 'ms')", "2024-01-01T10:00:00.250Z"),
    ])
    func dateAddMovesTheCalendar(formula: String, expected: String) throws {
        #expect(try value(formula) == instant(expected), "\(formula)")
    }

    @Test func dateAddKeepsTheClockTimeAcrossDaylightSaving() throws {
        // New York springs forward on 2024-03-10: 09:00 local on the 9th is 14:00Z, on the 10th 13:00Z.
        let formula = "DATEADD('2024-03-09T14:00:00.000Z', 1, 'day')"
        #expect(try value(formula, timeZone: FormulaFixture.newYork) == instant("2024-03-10T13:00:00.000Z"))
        #expect(try value(formula) == instant("2024-03-10T14:00:00.000Z"))
    }

    @Test(arguments: [
        ("DATETIME_PARSE('2024-01-02')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('2024-01-02T08:30:00.000Z')", "2024-01-02T08:30:00.000Z"),
        ("DATETIME_PARSE('2024-01-02T08:30:00+08:00')", "2024-01-02T00:30:00.000Z"),
        ("DATETIME_PARSE('2024-01-02 08:30')", "2024-01-02T08:30:00.000Z"),
        ("DATETIME_PARSE('2024/01/02')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('1/2/2024 13:05')", "2024-01-02T13:05:00.000Z"),
        ("DATETIME_PARSE('02.01.2024', 'DD.MM.YYYY')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('2 Jan 2024 1:05 pm', 'D MMM YYYY h:mm a')", "2024-01-02T13:05:00.000Z"),
        ("DATETIME_PARSE('January 2nd, 2024', 'MMMM Do, YYYY')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('12 AM 2024-01-02', 'h A YYYY-MM-DD')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('2024-01-02 08:30 +0800', 'YYYY-MM-DD HH:mm ZZ')", "2024-01-02T00:30:00.000Z"),
        ("DATETIME_PARSE('1704153600', 'X')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('20240102', 'YYYYMMDD')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('24-1-2', 'YY-M-D')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('10:30', 'HH:mm')", "2024-06-15T10:30:00.000Z"),
        ("DATETIME_PARSE('2024-01-02', 'YYYY-MM-DD', 'en')", "2024-01-02T00:00:00.000Z"),
        ("DATETIME_PARSE('2024年1月2日', 'YYYY年M月D日')", "2024-01-02T00:00:00.000Z"),
    ])
    func datetimeParseReadsFormatsAndISO(formula: String, expected: String) throws {
        #expect(try value(formula) == instant(expected), "\(formula)")
    }

    @Test func zonelessTimesAreReadInTheRecordsZone() throws {
        #expect(try value("DATETIME_PARSE('2024-01-02 08:30')", timeZone: FormulaFixture.taipei)
            == instant("2024-01-02T00:30:00.000Z"))
        #expect(try value("DATETIME_PARSE('02/01/2024', 'DD/MM/YYYY')", timeZone: FormulaFixture.taipei)
            == instant("2024-01-01T16:00:00.000Z"))
        #expect(try value("DATETIME_PARSE('2024-01-02T08:30:00Z')", timeZone: FormulaFixture.taipei)
            == instant("2024-01-02T08:30:00.000Z"))
    }

    @Test(arguments: [
        "DATETIME_PARSE('someday')", "DATETIME_PARSE('2024-02-30')", "DATETIME_PARSE('31/31/2024', 'DD/MM/YYYY')",
        "DATETIME_PARSE('2024-01-02 junk', 'YYYY-MM-DD')", "DATETIME_PARSE('13 PM', 'h A')",
        "DATEADD('2024-01-01', 1, 'fortnight')", "DATETIME_DIFF('2024-01-01', 'later', 'days')",
        "YEAR(BLANK())", "DATETIME_FORMAT(42)",
    ])
    func unreadableDatesAndUnitsAreErrors(formula: String) throws {
        #expect(try value(formula).isError, "\(formula)")
    }

    @Test func unknownUnitMessageListsTheUnits() throws {
        guard case .error(let message) = try value("DATEADD('2024-01-01', 1, 'fortnight')") else {
            Issue.record("expected an error")
            return
        }
        #expect(message.contains("'fortnight'") && message.contains("days") && message.contains("ms"))
    }

    @Test(arguments: [
        ("DATETIME_FORMAT({When})", "2024-01-02T15:04:05.678Z"),
        ("DATETIME_FORMAT({When}, 'YYYY-MM-DD')", "2024-01-02"),
        ("DATETIME_FORMAT({When}, 'M/D/YY h:mm A')", "1/2/24 3:04 PM"),
        ("DATETIME_FORMAT({When}, 'dddd, MMMM Do YYYY')", "Tuesday, January 2nd 2024"),
        ("DATETIME_FORMAT({When}, 'ddd MMM DD HH:mm:ss.SSS')", "Tue Jan 02 15:04:05.678"),
        ("DATETIME_FORMAT({When}, 'Q [quarter] d hh a')", "1 quarter 2 03 pm"),
        ("DATETIME_FORMAT({When}, 'LL')", "January 2, 2024"),
        ("DATETIME_FORMAT({When}, 'L LT')", "01/02/2024 3:04 PM"),
        ("DATETIME_FORMAT({When}, 'X')", "1704207845"),
        ("DATETIME_FORMAT({When}, 'Z ZZ')", "+00:00 +0000"),
        ("DATESTR({When})", "2024-01-02"),
        ("DATETIME_FORMAT({When}, 'YYYY年M月D日 HH:mm')", "2024年1月2日 15:04"),
    ])
    func datetimeFormatWritesTokens(formula: String, expected: String) throws {
        let cells: [String: JSONValue] = ["When": "2024-01-02T15:04:05.678Z"]
        #expect(try value(formula, cells) == .text(expected), "\(formula)")
    }

    @Test func datetimeFormatWritesInTheRecordsZone() throws {
        let cells: [String: JSONValue] = ["When": "2024-01-02T20:04:05.000Z"]
        #expect(try value("DATETIME_FORMAT({When}, 'YYYY-MM-DD HH:mm Z')", cells, timeZone: FormulaFixture.taipei)
            == .text("2024-01-03 04:04 +08:00"))
        #expect(try value("DATESTR({When})", cells, timeZone: FormulaFixture.newYork) == .text("2024-01-02"))
        #expect(try value("DAY({When})", cells, timeZone: FormulaFixture.taipei) == .number(3))
    }

    @Test func calendarFieldFunctions() throws {
        let cells: [String: JSONValue] = ["When": "2024-06-15T10:30:45.000Z"]
        #expect(try value("YEAR({When})", cells) == .number(2024))
        #expect(try value("MONTH({When})", cells) == .number(6))
        #expect(try value("DAY({When})", cells) == .number(15))
        #expect(try value("HOUR({When})", cells) == .number(10))
        #expect(try value("MINUTE({When})", cells) == .number(30))
        #expect(try value("SECOND({When})", cells) == .number(45))
        #expect(try value("WEEKDAY({When})", cells) == .number(6))
        #expect(try value("WEEKDAY({When}, 'Monday')", cells) == .number(5))
        #expect(try value("WEEKDAY('2024-06-16')", cells) == .number(0))
        #expect(try value("HOUR({When})", cells, timeZone: FormulaFixture.taipei) == .number(18))
        #expect(try value("YEAR('1969-12-31T23:59:59Z')") == .number(1969))
        #expect(try value("TIMESTR({When})", cells) == .text("10:30:45"))
        #expect(try value("WEEKNUM('2024-01-06')") == .number(1))
        #expect(try value("WEEKNUM('2024-01-07')") == .number(2))
        #expect(try value("WEEKNUM('2024-01-07', 'Monday')") == .number(1))
        #expect(try value("WEEKNUM('2024-01-08', 'Monday')") == .number(2))
        #expect(try value("WEEKNUM('2024-12-31')") == .number(53))
    }

    @Test func minAndMaxPickDates() throws {
        #expect(try value("MAX(DATETIME_PARSE('2024-01-02'), DATETIME_PARSE('2024-03-04'))") == instant("2024-03-04"))
        #expect(try value("MIN(NOW(), CREATED_TIME())") == .date(FormulaFixture.created))
    }
}
