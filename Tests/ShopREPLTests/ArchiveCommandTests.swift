import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
@testable import ShopREPL
import Testing
import TestSupport

/// `close`, `close --archive` and `archive` at the counter, over a base with an outbox (as on a remote base).
@Suite struct ArchiveCommandTests {
    /// A shop on `base` with its menu seeded and closed days archived into `archive` ("the-archive.sqlite").
    static func shop(base: LocalBase, clock: TestClock, outbox: Outbox?, archive: LocalBase) async throws -> Shop {
        let shop = Shop(store: base, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), outbox: outbox,
                        archive: DayArchive(store: archive, location: "the-archive.sqlite"))
        try await shop.createMissingSchema()
        let seeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Seeds").path
        _ = try await shop.seeder.seed(contentsOf: seeds + "/menu.json")
        return shop
    }

    @Test func closeRemovesClosedTicketsAndArchivesOnceAskedAndTheReportStillReadsTheDay() async throws {
        let clock = TestClock(Counter.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let outbox = Outbox(store: try LocalBase.inMemory(clock: clock.date), location: "outbox")
        try await outbox.prepare()
        let shop = try await Self.shop(base: base, clock: clock, outbox: outbox, archive: try LocalBase.inMemory(clock: clock.date))
        let output = CapturedOutput()
        let interpreter = ShopInterpreter(shop: shop, output: output, defaultStaff: "Ken")
        func run(_ line: String) async -> ShopInterpreter.Outcome { await interpreter.run(line: line) }

        for line in ["shift open 100", "order 熟成紅茶 M 無糖 少冰 for Amy", "pay #1 cash", "advance #1", "advance #1", "advance #1",
                     "close 135"] {
            #expect(await run(line) == .succeeded, "\(line): \(output.errors)")
        }
        #expect(!output.text.contains("Archiving"))
        let dayOne = shop.clock.today
        let reportBefore = try await shop.till.report(try shop.till.period(dayOne, through: dayOne))

        clock.advance(by: 86_400)
        #expect(await run("order 熟成紅茶 M 無糖 少冰 for Ben") == .succeeded)
        #expect(await run("archive") == .succeeded)
        #expect(output.text.contains("the-archive.sqlite — no day archived yet"))
        #expect(output.text.contains("close keeps every day in the base"))
        // A plain close on a remote base removes the closed day's tickets, and archives nothing.
        #expect(await run("shift open 100") == .succeeded)
        #expect(await run("close 100") == .succeeded)
        #expect(output.text.contains("Removed 1 pickup tickets of closed days from the base."))
        #expect(try await base.allRecords(in: ShopSchema.ticketTable).count == 1)
        #expect(try await base.allRecords(in: ShopSchema.orderTable).count == 2)

        #expect(await run("archive on") == .succeeded)
        #expect(await run("archive") == .succeeded)
        #expect(output.text.contains("close archives the closed days"))
        #expect(await run("shift open 100") == .succeeded)
        #expect(await run("close 100") == .succeeded, "\(output.errors)")
        #expect(output.text.contains("Archiving the days before \(shop.clock.today) into the-archive.sqlite"))
        #expect(output.text.contains("\(dayOne): "))
        #expect(try await base.allRecords(in: ShopSchema.orderTable).map { $0.fields["orderName"]?.stringValue } == ["Ben"])
        #expect(try await shop.till.report(try shop.till.period(dayOne, through: dayOne)).orders == reportBefore.orders)
        #expect(await run("orders all --date \(dayOne)") == .succeeded)
        #expect(output.text.contains("Amy"))
        #expect(await run("archive now") == .succeeded)
        #expect(output.text.contains("Nothing to archive"))
        let audit = try await shop.audit.entries(fromDay: shop.clock.today, throughDay: shop.clock.today)
        #expect(audit.contains { $0.subject == "archive \(dayOne)" })
        #expect(audit.contains { $0.subject == ShopSettings.archiveClosedDaysKey && $0.detail == "unset -> on" })
    }

    /// `einvoice blanks`, then `archive now`: the period's invoices move and the counter says how many; before the blank
    /// numbers are reported none does; the invoice of an order still open stays with it.
    @Test func aReportedPeriodsInvoicesAreArchivedAtTheCounter() async throws {
        let clock = TestClock(Counter.noon)
        let base = try LocalBase.inMemory(clock: clock.date)
        let archiveBase = try LocalBase.inMemory(clock: clock.date)
        let shop = try await Self.shop(base: base, clock: clock, outbox: nil, archive: archiveBase)
        let output = CapturedOutput()
        let credentials = OneShotCredentials(pin: nil, newPIN: nil, grants: nil, qrKey: "0123456789abcdef0123456789abcdef")
        let interpreter = ShopInterpreter(shop: shop, output: output, defaultStaff: "Ken", credentials: credentials)
        func run(_ line: String) async -> ShopInterpreter.Outcome { await interpreter.run(line: line) }
        let turnkey = NSTemporaryDirectory() + "turnkey-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: turnkey) }
        let period = try shop.counter.invoices.currentPeriod().code
        for line in ["einvoice seller 12345675 可不可熟成紅茶台北店 --address 台北市 --turnkey \(turnkey)",
                     "einvoice track \(period) AB 12345000-12345099",
                     "order 熟成紅茶 M 無糖 少冰 for Amy", "order 熟成紅茶 M 無糖 少冰 for Ben", "pay #1 card", "pay #2 card",
                     "advance #1", "advance #1", "advance #1"] {
            #expect(await run(line) == .succeeded, "\(line): \(output.errors)")
        }
        clock.advance(by: 86_400 * 70)  // past the period's end
        #expect(await run("archive now") == .succeeded, "\(output.errors)")
        #expect(!output.text.contains("Invoices of period"))
        #expect(await run("einvoice blanks \(period)") == .succeeded, "\(output.errors)")
        #expect(await run("archive now") == .succeeded, "\(output.errors)")
        #expect(output.text.contains("Invoices of period \(period): 1 moved to the archive with 0 proofs' prints; "
            + "1 left in the base with its order (still open)"), "\(output.text)")
        #expect(try await base.allRecords(in: ShopSchema.einvoiceTable).count == 1)
        #expect(try await archiveBase.allRecords(in: ShopSchema.einvoiceTable).count == 1)
    }

    @Test func archivingWithoutAnArchiveSaysSo() async throws {
        let counter = try await Counter()
        #expect(await counter.run("archive now") == [.failed])
        #expect(counter.output.errors.contains("this store has no archive"))
        #expect(await counter.run("shift open 0", "close 0 --archive") == [.succeeded, .failed])
        #expect(counter.output.errors.contains("the drawer count is recorded, but archiving stopped"))
    }
}
