import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LineEditor
import LocalBase
@testable import ShopREPL
import Synchronization
import Testing
import TestSupport

/// Feeds scripted lines to an interpreter over a seeded in-memory store and reads what staff would see.
struct Counter {
    let interpreter: ShopInterpreter
    let output: CapturedOutput
    let base: LocalBase

    static let noon = Date(timeIntervalSince1970: 1_795_924_800)  // 2026-11-29 12:00 in Taipei

    init(confirm: (@Sendable (String) async -> Bool)? = nil, ask: (@Sendable (String) async -> String?)? = nil,
         printers: ShopPrinters = ShopPrinters()) async throws {
        let clock = TestClock(Counter.noon)
        base = try LocalBase.inMemory(clock: clock.date)
        let shop = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), printers: printers)
        try await shop.createMissingSchema()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds").path
        _ = try await shop.seeder.seed(contentsOf: seeds + "/menu.json")
        _ = try await shop.seeder.seed(contentsOf: seeds + "/promotions.json")
        output = CapturedOutput()
        interpreter = ShopInterpreter(shop: shop, output: output, defaultStaff: "counter", prompter: Prompter(confirm: confirm, ask: ask))
    }

    /// Runs lines in order; returns the outcomes.
    @discardableResult
    func run(_ lines: String...) async -> [ShopInterpreter.Outcome] {
        var outcomes: [ShopInterpreter.Outcome] = []
        for line in lines { outcomes.append(await interpreter.run(line: line)) }
        return outcomes
    }
}

@Suite struct InterpreterTests {
    @Test func ordersPrintAReceiptWithPickupNumberDiscountAndTotal() async throws {
        let counter = try await Counter()
        let outcomes = await counter.run("login Ken", "order 白玉歐蕾 大杯 半糖 少冰 x2 for Amy")
        #expect(outcomes == [.succeeded, .succeeded])
        let text = counter.output.text
        #expect(text.contains("取餐號 #1"))
        #expect(text.contains("for Amy · placed by Ken"))
        #expect(text.contains("大杯•少冰•半糖"))
        #expect(text.contains("Subtotal $140"))
        #expect(text.contains("Discount -$35 (第二杯半價)"))
        #expect(text.contains("Total $105"))
        #expect(counter.output.errors.isEmpty)
    }

    @Test func menuShowsCategoriesPricesAndMarksAlignedByWidth() async throws {
        let counter = try await Counter()
        await counter.run("menu 歐蕾")
        let lines = counter.output.text.split(separator: "\n").map(String.init)
        #expect(lines.first == "歐蕾 Milk Tea")
        let latte = try #require(lines.first { $0.hasPrefix("白玉歐蕾") })
        let hazelnut = try #require(lines.first { $0.hasPrefix("熟成榛果歐蕾") })
        // The price column starts at the same display column in both rows, whatever the name's length.
        let column = { (line: String) in DisplayWidth.of(line[..<(line.range(of: "$")?.lowerBound ?? line.endIndex)]) }
        #expect(column(latte) == column(hazelnut))
        #expect(latte.contains("♨"))

        await counter.run("menu 草莓")
        #expect(counter.output.text.contains("售完 sold out"))
        let failed = await counter.run("menu 咖啡拿鐵")
        #expect(failed == [.failed])
        #expect(counter.output.errors.contains("no drink matches \"咖啡拿鐵\""))
    }

    @Test func menuAndOrdersAsJSON() async throws {
        let counter = try await Counter()
        await counter.run("order 熟成紅茶 M 半糖 少冰", "orders --json")
        let jsonLine = try #require(counter.output.text.split(separator: "\n").last)
        let json = try JSONParser.parse(String(jsonLine))
        let records = try #require(json.arrayValue)
        #expect(records.count == 1)
        #expect(records[0]["fields"]?["drinkName"] == "熟成紅茶")
        #expect(records[0]["id"]?.stringValue?.hasPrefix("rec") == true)
        #expect(records[0].objectValue?.keys.sorted() == ["fields", "id"])
    }

    @Test func theWholeLifeOfAnOrder() async throws {
        let counter = try await Counter()
        let outcomes = await counter.run(
            "order 熟成紅茶 M 半糖 少冰, 冷露歐蕾 L 微糖 去冰 加白玉",
            "edit #1 2 無糖 x2",
            "advance #1", "advance #1",
            "orders", "pay #1 card", "advance 1", "orders", "orders all")
        #expect(outcomes.allSatisfy { $0 == .succeeded }, "\(counter.output.errors)")
        let text = counter.output.text
        #expect(text.contains("Order #1 changed"))
        #expect(text.contains("大杯•去冰•無糖•加白玉"))
        #expect(text.contains("#1 is now preparing"))
        #expect(text.contains("取餐號 1 可取餐"))
        #expect(text.contains("No open orders"))
        #expect(text.contains("已取餐 picked up"))
    }

    @Test func failuresSayWhatIsWrongAndTheRestStillRuns() async throws {
        let counter = try await Counter()
        let outcomes = await counter.run(
            "order 白玉歐雷 L 半糖 少冰",
            "order 白玉歐蕾 L 半糖 熱 菓玉",
            "cancel #9",
            "order 熟成紅茶 M 半糖 少冰")
        #expect(outcomes == [.failed, .failed, .failed, .succeeded])
        let errors = counter.output.errors
        #expect(errors.contains("did you mean 白玉歐蕾?"))
        #expect(errors.contains("菓玉 cannot be served warm or hot"))
        #expect(errors.contains("no order #9 today"))
    }

    @Test func deleteAsksAtATerminalAndNeedsYesOtherwise() async throws {
        let asked = Mutex<[String]>([])
        let counter = try await Counter(confirm: { question in
            asked.withLock { $0.append(question) }
            return false
        })
        await counter.run("order 熟成紅茶 M 半糖 少冰", "delete #1")
        #expect(asked.withLock { $0.count } == 1)
        #expect(counter.output.text.contains("Kept order #1"))
        await counter.run("delete #1 --yes")
        #expect(counter.output.text.contains("Order #1 deleted"))
        #expect(try await counter.base.allRecords(in: "OrderDrink").isEmpty)

        let unattended = try await Counter()
        let outcome = await unattended.run("order 熟成紅茶 M 半糖 少冰", "delete #1")
        #expect(outcome == [.succeeded, .failed])
        #expect(unattended.output.errors.contains("add --yes"))
    }

    @Test func bannerRotatesOnRequestAndPromosListTheirState() async throws {
        let counter = try await Counter()
        await counter.run("banner", "banner next", "banner prev", "promos")
        let bannerLines = counter.output.text.split(separator: "\n").filter { $0.hasPrefix("★") }
        #expect(bannerLines.count == 3)
        #expect(bannerLines[0] != bannerLines[1])
        #expect(bannerLines[0] == bannerLines[2])
        #expect(counter.output.text.contains("upcoming"))
        #expect(counter.output.text.contains("active"))
    }

    @Test func seedAndReportAndHelp() async throws {
        let counter = try await Counter()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds/menu.json").path
        await counter.run("seed \(seeds)", "order 熟成紅茶 M 半糖 少冰 x2", "report", "help", "help edit", "quit")
        let text = counter.output.text
        #expect(text.contains("0 created, 0 updated, 28 unchanged"))
        #expect(text.contains("Orders 1 · cups 2"))
        #expect(text.contains("edit #N [line]"))
        #expect(await counter.interpreter.run(line: "quit") == .quit)
    }

    @Test func theBannerAbovePromptFollowsTheClock() async throws {
        let counter = try await Counter()
        let banner = await counter.interpreter.currentBanner()
        #expect(banner != nil)
    }
}

@Suite struct UnusableRecordTests {
    @Test func aDrinkRecordTheShopCannotUseIsReportedNotHidden() async throws {
        let counter = try await Counter()
        _ = try await counter.base.createRecord(in: "Drink", ["name": "神秘茶", "category": "歐蕾"])
        await counter.run("menu 歐蕾")
        #expect(counter.output.errors.contains("神秘茶"))
        #expect(counter.output.errors.contains("medium price"))
        #expect(counter.output.text.contains("白玉歐蕾"))
    }
}

/// A PIN typed at the prompt (its own prompt cancelled, or typed before it came) is never run or echoed.
@Suite struct StrayPINTests {
    @Test func aNumberAloneIsRefusedWithoutShowingIt() async throws {
        let counter = try await Counter()
        #expect(await counter.run("1357", "１３５７") == [.failed, .failed])
        #expect(!counter.output.errors.contains("1357") && !counter.output.errors.contains("１３５７"))
        #expect(counter.output.errors.contains("a number alone is not a command"))
    }
}

/// The report's money is one computation: the daily header's revenue is the till's net sales, adjustments
/// included, and both of the till's identities add up.
@Suite struct OneReportTests {
    @Test func theDailyRevenueIsTheTillsNetSalesAndItsLinesAddUp() async throws {
        let counter = try await Counter()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("adj-\(UUID().uuidString).json").path
        try #"{"records": [], "adjustments": [{"name": "環保杯", "code": "cup", "kind": "perCup", "amount": -5}]}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(await counter.run("seed \(file)", "shift open 1000") == [.succeeded, .succeeded])
        #expect(await counter.run("order 熟成紅茶 M 無糖 去冰 x2", "adjust #1 cup 2", "pay #1 cash 100",
                                  "order 白玉歐蕾 L 半糖 少冰", "pay #2 card 20",
                                  "order 熟成紅茶 M 無糖 去冰", "pay #3 card", "cancel #3 left") == Array(repeating: .succeeded, count: 8))
        #expect(await counter.run("report") == [.succeeded])
        let text = counter.output.text
        func figure(after marker: String) -> Int? {
            guard let range = text.range(of: marker, options: .backwards) else { return nil }
            return Int(text[range.upperBound...].prefix { $0.isNumber })
        }
        let revenue = try #require(figure(after: "revenue $"))
        let net = try #require(figure(after: "= net sales $"))
        #expect(revenue == net)
        #expect(text.contains("adjustments -$10"))
        #expect(text.contains("net sales $\(net) = taken $"))
        #expect(!text.contains("does not add up"))
    }
}
