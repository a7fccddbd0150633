@testable import DrinkShop
import DrinkShopCore
import Foundation
@testable import ShopREPL
import Testing

/// The days staff give `orders`, `log` and `report`: read once, refused in the same words as before days
/// were values.
@Suite struct DayWordsTests {
    @Test func aDayThatDoesNotExistOrARangeThatRunsBackwardsIsRefusedSayingWhich() async throws {
        let counter = try await Counter()
        #expect(await counter.run("orders all --date 2026-02-30") == [.failed])
        #expect(counter.output.errors.contains("'2026-02-30' is not a date; give one like 2026-11-30"))
        #expect(await counter.run("log --from 2026-11-29 --to 2026-11-3") == [.failed])
        #expect(counter.output.errors.contains("'2026-11-3' is not a date; give one like 2026-11-30"))
        #expect(await counter.run("orders all --from 2026-12-02 --to 2026-12-01") == [.failed])
        #expect(counter.output.errors.contains("2026-12-02 to 2026-12-01: the first day is after the last"))
        #expect(await counter.run("log --from 2025-01-01 --to 2026-11-29") == [.failed])
        #expect(counter.output.errors.contains("2025-01-01 to 2026-11-29: at most 366 days at once"))
    }

    @Test func yesterdayIsTheDayBeforeTodaysBusinessDay() async throws {
        let counter = try await Counter()
        let today = counter.interpreter.shop.clock.today
        #expect(await counter.run("report yesterday --json") == [.succeeded])
        #expect(counter.output.text.contains("\"from\":\"\(today.previous)\",\"to\":\"\(today.previous)\""))
        #expect(await counter.run("report --date 昨天 --json") == [.succeeded])
        #expect(counter.output.text.contains("\"from\":\"\(today.previous)\",\"to\":\"\(today.previous)\""))
    }

    @Test("report yesterday today is the two days in order, in either language; today yesterday is refused")
    func wordsAreComparedAsTheDaysTheyName() async throws {
        let counter = try await Counter()
        let today = counter.interpreter.shop.clock.today
        for line in ["report yesterday today --json", "report 昨天 今天 --json"] {
            #expect(await counter.run(line) == [.succeeded], "\(counter.output.errors)")
            #expect(counter.output.text.contains("\"from\":\"\(today.previous)\",\"to\":\"\(today)\""))
        }
        #expect(await counter.run("report today yesterday") == [.failed])
        #expect(counter.output.errors.contains("\(today) is after \(today.previous); give the earlier day first"),
                "\(counter.output.errors)")
    }
}
