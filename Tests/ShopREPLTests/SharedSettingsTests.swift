@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
@testable import ShopREPL
import Synchronization
import TestSupport
import Testing

/// Two counters over one store, started together, on one test clock: what one changes reaches the other
/// once the other's reading of the shared settings is five seconds old, and is said there once.
struct TwoCounters {
    let clock = TestClock(Counter.noon)
    let base: LocalBase
    let one: ShopInterpreter
    let oneOutput = CapturedOutput()
    let two: ShopInterpreter
    let twoOutput = CapturedOutput()

    init(twoAnswers secrets: [String] = []) async throws {
        let clock = clock
        let base = try LocalBase.inMemory(clock: clock.date)
        self.base = base
        let hasher = try PINHasher(iterations: 1_000)
        let shop = { Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), pinHasher: hasher) }
        let seeding = shop()
        try await seeding.createMissingSchema()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds").path
        _ = try await seeding.seeder.seed(contentsOf: seeds + "/menu.json")
        one = ShopInterpreter(shop: shop(), output: oneOutput, defaultStaff: "Ken")
        let answers = AnswerQueue(secrets)
        two = ShopInterpreter(shop: shop(), output: twoOutput, defaultStaff: "Amy", prompter: Prompter(readSecret: { _ in answers.pop() }))
    }

    /// Both counters running (each has read the settings) before anything changes.
    static func started(twoAnswers secrets: [String] = []) async throws -> TwoCounters {
        let counters = try await TwoCounters(twoAnswers: secrets)
        #expect(await counters.one.run(line: "orders") == .succeeded)
        #expect(await counters.two.run(line: "orders") == .succeeded)
        return counters
    }

    static let news = "Settings changed at another counter (其他櫃檯已變更設定): "

    /// Counter one's notices of changes made elsewhere.
    var oneNews: [String] { oneOutput.text.split(separator: "\n").map(String.init).filter { $0.hasPrefix(Self.news) } }
}

@Suite struct SharedSettingsTests {
    @Test func aTimeZoneAndDayStartSetAtOneCounterCountTheOtherCountersDaysWithinSeconds() async throws {
        let counters = try await TwoCounters.started()
        try await counters.two.shop.settings.setTimeZone(try #require(TimeZone(identifier: "Europe/London")), by: "Amy")
        try await counters.two.shop.settings.setDayStart(try BusinessDayStart(hour: 5), by: "Amy")
        // Younger than five seconds, counter one's reading stands.
        counters.clock.advance(by: 3)
        #expect(await counters.one.run(line: "orders") == .succeeded)
        #expect(counters.oneNews.isEmpty)
        #expect(counters.one.shop.clock.today == "2026-11-29")
        // Then it reads the store once, counts days as the other counter does, and says so once.
        counters.clock.advance(by: 3)
        #expect(await counters.one.run(line: "orders") == .succeeded)
        #expect(counters.oneNews == [TwoCounters.news + "time zone Europe/London; business day starts at 05:00 (營業日起點)."])
        #expect(counters.one.shop.clock.timeZone.identifier == "Europe/London")
        // Noon in Taipei is 04:00 in London, before a 05:00 start: still the 28th's business day.
        #expect(counters.one.shop.clock.today == "2026-11-28")
        #expect(counters.one.shop.clock.today == counters.two.shop.clock.today)
        counters.clock.advance(by: 6)
        #expect(await counters.one.run(line: "orders") == .succeeded)
        #expect(counters.oneNews.count == 1)
        // The counter that made the change is not told of it as another's.
        #expect(!counters.twoOutput.text.contains(TwoCounters.news))
    }

    @Test func onlineOrderingAndArchivingSetAtOneCounterAreSaidAtTheOther() async throws {
        let counters = try await TwoCounters.started()
        #expect(await counters.two.run(line: "online on") == .succeeded)
        try await counters.two.shop.settings.setArchivesClosedDays(true, by: "Amy")
        counters.clock.advance(by: 5)
        #expect(await counters.one.run(line: "orders") == .succeeded)
        #expect(counters.oneNews == [TwoCounters.news
                + "closed days are archived at close; online ordering open (網路點單開放)."])
        #expect(try await counters.one.shop.counter.isOnlineOrderingOpen())
        #expect(await counters.two.run(line: "online off") == .succeeded)
        counters.clock.advance(by: 5)
        #expect(await counters.one.run(line: "orders") == .succeeded)
        #expect(counters.oneNews.last == TwoCounters.news + "online ordering closed (網路點單關閉).")
        #expect(!counters.twoOutput.text.contains(TwoCounters.news))
    }

    @Test func aLabelPrinterSetAtOneCounterPrintsAtTheOtherWithinSeconds() async throws {
        let counters = try await TwoCounters.started()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("drinkshop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("labels.tspl").path
        #expect(await counters.two.run(line: "printer label \(file)") == .succeeded)
        counters.clock.advance(by: 5)
        #expect(await counters.one.run(line: "order 熟成紅茶 M 無糖 少冰") == .succeeded)
        #expect(counters.oneNews == [TwoCounters.news + "label printer \(file)."])
        #expect(counters.oneOutput.text.contains("Printed 1 cup label on \(file)"))
        let printed = String(decoding: try #require(FileManager.default.contents(atPath: file)), as: UTF8.self)
        #expect(printed.contains("PRINT 1,1"))
    }

    @Test("a drink sold out at one counter is refused at the other within seconds, and one restocked is sold at once")
    func soldOutAndRestockReachTheOtherCounter() async throws {
        let counters = try await TwoCounters.started()
        #expect(await counters.one.run(line: "order 熟成紅茶 M 無糖 少冰") == .succeeded)
        #expect(await counters.two.run(line: "soldout 熟成紅茶") == .succeeded)
        // Counter one's copy of the menu is five seconds old: it is read again, and the drink is refused.
        counters.clock.advance(by: 5)
        #expect(await counters.one.run(line: "order 熟成紅茶 M 無糖 少冰") == .failed)
        #expect(counters.oneOutput.errors.contains("熟成紅茶 is sold out"), "\(counters.oneOutput.errors)")
        // Restocked at counter two: counter one's copy (a second old) says sold out, so before refusing it
        // reads the menu again, and sells it.
        #expect(await counters.two.run(line: "restock 熟成紅茶") == .succeeded)
        counters.clock.advance(by: 1)
        #expect(await counters.one.run(line: "order 熟成紅茶 M 無糖 少冰") == .succeeded, "\(counters.oneOutput.errors)")
    }

    @Test func aFirstPINSetAtOneCounterIsEnforcedAtTheOtherWithinSeconds() async throws {
        let counters = try await TwoCounters.started(twoAnswers: ["2468", "2468"])
        #expect(await counters.two.run(line: "staff add Amy manager") == .succeeded)
        #expect(await counters.two.run(line: "staff pin Amy") == .succeeded)
        // Counter one read whether PINs are on less than five seconds ago: not again yet.
        counters.clock.advance(by: 2)
        #expect(await counters.one.run(line: "order 熟成紅茶 M 無糖 少冰") == .succeeded)
        // Five seconds after its reading: nobody is logged in there, and PINs are now on.
        counters.clock.advance(by: 3)
        #expect(await counters.one.run(line: "order 熟成紅茶 M 無糖 少冰") == .failed)
        #expect(counters.oneOutput.errors.contains("log in"))
        #expect(counters.oneNews == [TwoCounters.news + "PINs are on (log in with your PIN)."])
        #expect(!counters.twoOutput.text.contains(TwoCounters.news))
        #expect(!counters.oneOutput.text.contains("2468") && !counters.twoOutput.text.contains("2468"))
    }
}
