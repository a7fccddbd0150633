import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
@testable import ShopREPL
import Synchronization
import Testing
import TestSupport

@Suite struct TillCommandTests {
    private func parse(_ line: String) throws(CommandError) -> Command? { try CommandParser.parse(line: line)?.command }

    @Test func readsTheTillsCommands() throws {
        #expect(try parse("pay #12 cash 500") == .pay(.pickup(12), .cash, amount: 500))
        #expect(try parse("pay 12 line pay") == .pay(.pickup(12), .linePay, amount: nil))
        #expect(try parse("pay #3 悠遊卡 $60") == .pay(.pickup(3), .easyCard, amount: 60))
        #expect(try parse("adjust #2 cup 2 bag") == .adjust(.pickup(2), ["cup": 2, "bag": 1]))
        #expect(try parse("invoice #2 /ABC1234") == .invoice(.pickup(2), "/ABC1234"))
        #expect(try parse("invoice #2 none") == .invoice(.pickup(2), nil))
        #expect(try parse("price 熟成紅茶 M 40") == .price("熟成紅茶", .medium, 40))
        #expect(try parse("soldout 冷露 歐蕾") == .soldOut("冷露 歐蕾"))
        #expect(try parse("staff add Amy Lin manager") == .staffAdd("Amy Lin", .manager))
        #expect(try parse("staff") == .staffList)
        #expect(try parse("shift open 2000") == .shiftOpen(float: 2000))
        #expect(try parse("close 0") == .close(counted: 0, archive: false))
        #expect(try parse("close 5230 --archive") == .close(counted: 5230, archive: true))
        #expect(try parse("交班 --archive 0") == .close(counted: 0, archive: true))
        #expect(try parse("archive") == .archive(.status))
        #expect(try parse("archive now") == .archive(.now))
        #expect(try parse("歸檔 ON") == .archive(.on))
        #expect(throws: CommandError.self) { try parse("archive yesterday") }
        #expect(throws: CommandError.self) { try parse("close --archive") }
        #expect(try parse("report 2026-12-01 2026-12-07 --json") == .report(json: true, days: DaySpan(first: "2026-12-01", last: "2026-12-07")))
        // One report, one date syntax: a positional date and --date are the same command.
        #expect(try parse("report 2026-12-01") == parse("report --date 2026-12-01"))
        #expect(try parse("export --csv day.csv yesterday") == .export(path: "day.csv", from: "yesterday", to: "yesterday"))
        #expect(try parse("redeem #3 2") == .redeem(.pickup(3), cups: 2))
        #expect(try parse("pass 0912345678 月卡") == .buyPass(mobile: "0912345678", pass: "月卡"))
    }

    @Test(arguments: [
        ("pay #12", CommandProblem.noPaymentMethod(.pickup(12))),
        ("pay #12 bitcoin 5", .payment(.unknownMethod("bitcoin"))),
        ("pay #12 cash -5", .notAnAmount("-5", zeroAllowed: false)),
        ("pay #12 cash 0", .notAnAmount("0", zeroAllowed: false)),
        ("price 熟成紅茶 XL 40", .notASize("XL")),
        ("price 熟成紅茶 M forty", .notAPrice("forty")),
        ("shift open -1", .notAnAmount("-1", zeroAllowed: true)),
        ("close", .closeWords),
        ("report 2026-13-01", .notADate("2026-13-01")),
        ("report 2026-12-05 2026-12-01", .reversedDays("2026-12-05", "2026-12-01")),
        ("adjust #2 2", .countWithoutCode("2")),
        ("staff pin", .noStaffName(.pin)),
        ("export day.csv", .exportWords),
    ])
    func refusesWithWhatIsWrong(line: String, problem: CommandProblem) {
        let spec = CommandSpec.find(String(line.prefix { $0 != " " }))
        #expect(throws: CommandError(problem, usage: spec?.usage)) { try parse(line) }
    }

    @Test func theTillsRefusalsSayWhatWasWrongInTheWordsTyped() {
        #expect(CommandProblem.notAnAmount("-5", zeroAllowed: false).description == "\"-5\" is not an amount of whole NT$ from 1 (不是有效的金額)")
        #expect(CommandProblem.notAnAmount("-1", zeroAllowed: true).description == "\"-1\" is not an amount of whole NT$ (不是有效的金額)")
        #expect(CommandProblem.payment(.unknownMethod("bitcoin")).description.contains("unknown payment method \"bitcoin\""))
        #expect(CommandProblem.notASize("XL").description == "\"XL\" is not a size (M/中杯 or L/大杯)")
        #expect(CommandProblem.notADate("2026-13-01").description == "\"2026-13-01\" is not a date like 2026-12-01 (or today, yesterday) (日期格式錯誤)")
        #expect(CommandProblem.reversedDays("2026-12-05", "2026-12-01").description == "2026-12-05 is after 2026-12-01 (日期前後顛倒)")
        #expect(CommandProblem.noStaffName(.pin).description.contains("the PIN is asked for, never typed on the line"))
    }

    @Test func aPINIsAskedForAtLoginAndManagerActionsNeedAManager() async throws {
        let clock = TestClock(Counter.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let shop = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), pinHasher: try PINHasher(iterations: 1_000))
        try await shop.createMissingSchema()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds").path
        _ = try await shop.seeder.seed(contentsOf: seeds + "/menu.json")
        let answers = AnswerQueue(["2468", "2468", "0000", "2468"])
        let prompts = AnswerQueue([])
        let output = CapturedOutput()
        let interpreter = ShopInterpreter(shop: shop, output: output, defaultStaff: "Ken",
                                          prompter: Prompter(readSecret: { prompt in prompts.push(prompt); return answers.pop() }))
        #expect(await interpreter.run(line: "staff add Amy manager") == .succeeded)
        #expect(await interpreter.run(line: "staff pin Amy") == .succeeded)
        #expect(prompts.all == ["New PIN for Amy (4–8 digits): ", "Again: "])
        // PINs on, nobody logged in: refused.
        #expect(await interpreter.run(line: "soldout 熟成紅茶") == .failed)
        #expect(output.errors.contains("log in"))
        #expect(await interpreter.run(line: "login Amy") == .failed)   // 0000
        #expect(output.errors.contains("wrong PIN"))
        #expect(await interpreter.run(line: "login Amy") == .succeeded)
        #expect(interpreter.staffRole == .manager)
        #expect(await interpreter.run(line: "soldout 熟成紅茶") == .succeeded)
        // Once PINs are on, logging in never adds anyone: a manager adds staff.
        #expect(await interpreter.run(line: "login Zed") == .failed)
        #expect(output.errors.contains("a manager adds staff: staff add Zed"))
        #expect(await interpreter.run(line: "login Ken") == .failed)
        #expect(interpreter.staff == "Amy")
        #expect(await interpreter.run(line: "staff add Ken") == .succeeded)
        // Names match as staff write them.
        #expect(await interpreter.run(line: "login ｋｅｎ") == .succeeded)
        #expect(interpreter.staff == "Ken")
        #expect(interpreter.staffRole == .staff)
        #expect(await interpreter.run(line: "restock 熟成紅茶") == .failed)
        #expect(output.errors.contains("only a manager may put a drink back on sale"))
        #expect(!output.text.contains("2468") && !output.errors.contains("2468") && !output.text.contains("0000"))
        #expect(try await shop.staff.accounts().map(\.name) == ["Amy", "Ken"])
        // The audit trail has the staff changes, the PIN and the sold-out toggle.
        let entries = try await shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29")
        #expect(entries.map(\.action) == [.staffChanges, .staffChanges, .soldOut, .staffChanges])
    }
}

/// Scripted answers for a prompt, and the prompts asked.
final class AnswerQueue: Sendable {
    private let items: Mutex<[String]>
    init(_ items: [String]) { self.items = Mutex(items) }
    func pop() -> String? { items.withLock { $0.isEmpty ? nil : $0.removeFirst() } }
    func push(_ item: String) { items.withLock { $0.append(item) } }
    var all: [String] { items.withLock { $0 } }
}
