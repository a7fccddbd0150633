@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
@testable import ShopREPL
import TestSupport
import Testing

/// A printer set at one counter reaches a counter started before the change, within seconds.
@Suite(.timeLimit(.minutes(3))) struct SharedPrinterTests {
    @Test("online orders' stickers go to the printer of the counter set to take them, else to the label printer")
    func onlineStickersGoToTheirPrinterElseTheLabelPrinter() throws {
        let serverOnly = try ShopPrinters.configured(environment: ["DRINKSHOP_LABEL_PRINTER": "/tmp/labels"])
        #expect(serverOnly.sink(.online)?.address.description == serverOnly.label?.address.description)
        let set = try ShopPrinters.configured(environment: ["DRINKSHOP_LABEL_PRINTER": "/tmp/labels"],
                                              fallback: [.online: "tcp://192.168.1.60:9100"])
        #expect(set.sink(.online)?.address.description == "tcp://192.168.1.60:9100")
        #expect(set.sink(.label)?.address.description != set.sink(.online)?.address.description)
        #expect(try CommandParser.parse(line: "printer online tcp://192.168.1.60")?.command == .printer(.online, address: "tcp://192.168.1.60"))
    }

    @Test func aLabelPrinterSetAtCounterTwoPrintsAtCounterOneWithinSeconds() async throws {
        let printer = try FakePrinter()
        defer { printer.stop() }
        let clock = TestClock(Counter.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let seeding = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date))
        try await seeding.createMissingSchema()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds").path
        _ = try await seeding.seeder.seed(contentsOf: seeds + "/menu.json")
        func counter() -> (ShopInterpreter, CapturedOutput) {
            let output = CapturedOutput()
            let shop = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date))
            return (ShopInterpreter(shop: shop, output: output, defaultStaff: "Ken"), output)
        }
        let (one, oneOutput) = counter()
        let (two, twoOutput) = counter()
        #expect(await one.run(line: "label #1 --preview") == .failed)  // no order yet: reads the settings once
        #expect(await two.run(line: "printer label tcp://127.0.0.1:\(printer.port)") == .succeeded)
        #expect(twoOutput.text.contains("on every counter"))
        // Counter one, started before the change, prints on it once its reading is a few seconds old (by the
        // shop's clock, which the reading's age is counted on).
        clock.advance(by: 6)
        #expect(await one.run(line: "order 熟成紅茶 M 無糖 少冰") == .succeeded)
        let job = await printer.nextJob()
        #expect(TSPL.lines(job).contains("PRINT 1,1"))
        #expect(oneOutput.text.contains("Printed 1 cup label on tcp://127.0.0.1:\(printer.port)"))
        // And `printer` there shows it at once.
        #expect(await one.run(line: "printer") == .succeeded)
        #expect(oneOutput.text.contains("label printer: tcp://127.0.0.1:\(printer.port)"))
    }
}
