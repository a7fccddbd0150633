import Airtable
import AirtableHTTP
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Synchronization
import Testing
import TestSupport

/// Archiving closed days through the real services: the shop on a served LocalBase reached over HTTP with
/// the client (the remote base), the archive a LocalBase file of its own.
@Suite struct DayArchiveTests {
    /// A shop on a served base whose records are created at the test clock's time, with an archive file.
    struct Setup {
        let clock: TestClock
        let harness: ServerHarness
        let client: AirtableClient
        let archivePath: String

        static func make() async throws -> Setup {
            let clock = TestClock(TestClock.noon)
            let harness = try ServerHarness(clock: clock.date)
            let client = try harness.client()
            let setup = Setup(clock: clock, harness: harness, client: client,
                              archivePath: harness.directory.appendingPathComponent("archive.sqlite").path)
            let shop = setup.shop()
            try await shop.createMissingSchema()
            _ = try await shop.seeder.seed(contentsOf: Repository.menu)
            return setup
        }

        /// A shop (a counter process) on `base` (the client unless given), with the archive opened afresh.
        func shop(base: (any RecordStore)? = nil) -> Shop {
            let path = archivePath
            let archive = DayArchive(location: path, exists: { FileManager.default.fileExists(atPath: path) },
                                     open: { () async throws(AirtableError) -> any RecordKeeping in try await LocalBase.open(path: path) })
            return Shop(store: base ?? client, clock: ShopClock(timeZone: TestClock.taipei, now: clock.date), archive: archive)
        }

        /// The served base's records of `table` (what the remote base holds).
        func remote(_ table: String) async throws -> [Record] { try await harness.base.allRecords(in: table) }

        func archived(_ table: String) async throws -> [Record] {
            try await LocalBase.open(path: archivePath).allRecords(in: table)
        }
    }

    /// Day one: four orders (paid and picked up, cancelled, paid with an invoice and picked up, left open),
    /// a shift opened and closed.
    static func sellDayOne(_ shop: Shop) async throws {
        _ = try await shop.drawer.open(float: 1000, by: "Amy")
        let tea = LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)], quantity: 2)
        let milk = LineDraft(drink: "白玉歐蕾", options: [.size(.large), .sugar(.light), .ice(.less)])
        _ = try await shop.orders.place(OrderDraft(orderName: "Ben", lines: [tea, milk]), placedBy: "Amy")
        _ = try await shop.orders.place(OrderDraft(lines: [milk]), placedBy: "Amy")
        let third = try await shop.orders.place(OrderDraft(lines: [tea]), placedBy: "Amy")
        _ = try await shop.orders.place(OrderDraft(orderName: "Dora", lines: [milk]), placedBy: "Amy")
        _ = try await shop.till.pay(.pickup(1), method: .cash, tendered: 500, by: "Amy")
        _ = try await shop.till.pay(.pickup(3), method: .card, tendered: try await shop.till.money(of: third).due, by: "Amy")
        try await shop.extras.setInvoice(try InvoiceDetails(parsing: "04595257"), of: third)
        for _ in 0..<3 {
            _ = try await shop.orders.advance(.pickup(1))
            _ = try await shop.orders.advance(.pickup(3))
        }
        _ = try await shop.orders.cancel(.pickup(2), reason: "客人改變心意", by: "Amy")
        _ = try await shop.drawer.close(counted: 1000 + 500, by: "Amy")
    }

    /// What a day's reports say: the orders, the till report, the export, the audit trail, the drawer counts.
    struct DayReports: Equatable {
        var orders: [String]
        var problems: [String]
        var report: TillReport
        var export: [String]
        var audit: [String]
        var counts: [String]
    }

    static func reports(_ shop: Shop, day: BusinessDay) async throws -> DayReports {
        let (orders, problems) = try await shop.orders.orders(from: day, through: day)
        let period = try shop.till.period(day, through: day)
        let audit = try await shop.audit.entries(fromDay: day, throughDay: day)
        let export = try await shop.till.export(period)
        return DayReports(
            orders: orders.map { "\($0.number.map(String.init(describing:)) ?? "?") \($0.order.status.rawValue) $\($0.order.total) "
                + "\($0.recordIDs.sorted())" },
            problems: problems, report: try await shop.till.report(period, audit: audit),
            export: [export.orders.text, export.lines.text, export.payments.text],
            audit: audit.map { "\($0.action.rawValue) \($0.subject) \($0.detail)" },
            counts: try await shop.drawer.counts(from: period.start, to: period.end).map { "\($0.expected) \($0.counted)" })
    }

    @Test func aClosedDayMovesToTheArchiveAndItsReportsStillRead() async throws {
        let setup = try await Setup.make()
        defer { Task { await setup.harness.stop() } }
        let shop = setup.shop()
        try await Self.sellDayOne(shop)
        let dayOne = shop.clock.today
        let before = try await Self.reports(shop, day: dayOne)
        #expect(try await setup.remote(ShopSchema.orderTable).count == 5)

        // The same day is not archived: it is today.
        #expect(try await shop.archiver?.archiveClosedDays() == [])
        #expect(!FileManager.default.fileExists(atPath: setup.archivePath), "nothing archived makes no file")

        setup.clock.advance(by: 86_400)
        let reports = try #require(try await shop.archiver?.archiveClosedDays())
        #expect(reports.map(\.day) == [dayOne])
        let report = try #require(reports.first)
        // #4 is still open: its line stays in the base; everything else of the day moved.
        #expect(report.kept == 1)
        #expect(report.moved[ShopSchema.orderTable] == 4)
        #expect(report.moved[ShopSchema.ticketTable] == 4)
        #expect(report.moved[ShopSchema.paymentTable] == 2)
        #expect(report.moved[ShopSchema.shiftTable] == 1)
        #expect(report.moved[ShopSchema.orderTillTable] == 1)

        let left = try await setup.remote(ShopSchema.orderTable)
        #expect(left.count == 1)
        #expect(left.first?.fields["pickupNumber"]?.intValue == 4)
        for table in [ShopSchema.ticketTable, ShopSchema.paymentTable, ShopSchema.shiftTable, ShopSchema.auditTable,
                      ShopSchema.orderTillTable] {
            #expect(try await setup.remote(table).isEmpty, "\(table) of a closed day is gone from the base")
        }
        #expect(try await setup.archived(ShopSchema.orderTable).count == 4)

        // Every report of the archived day says what it said before, on this counter and on a new one.
        let afterArchiving = try await Self.reports(shop, day: dayOne)
        #expect(afterArchiving == before)
        #expect(before.orders.count == 4 && before.export[2].contains("card") && before.counts == ["1140 1500"])
        #expect(before.audit == ["cancelOrder #2 客人改變心意"])
        #expect(try await Self.reports(setup.shop(), day: dayOne) == before)
        // The open order is still on today's list, and can be finished.
        let (today, _) = try await shop.orders.today()
        #expect(today.map(\.order.pickupNumber) == [4])
        for _ in 0..<3 { _ = try await shop.orders.advance(.onDay(4, day: dayOne.description)) }
        _ = try await shop.orders.place(OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)])]),
                                        placedBy: "Ben")

        // A second run moves the finished order and leaves today alone.
        let second = try #require(try await shop.archiver?.archiveClosedDays())
        #expect(second.map(\.day) == [dayOne])
        #expect(second.first?.moved[ShopSchema.orderTable] == 1)
        #expect(second.first?.kept == 0)
        let remaining = try await setup.remote(ShopSchema.orderTable)
        #expect(remaining.map { $0.fields["businessDay"]?.stringValue } == [shop.clock.today.description])
        #expect(try await setup.archived(ShopSchema.orderTable).count == 5)
        let days = try await shop.archiver?.archive.days()
        #expect(days?.map(\.day) == [dayOne])
        #expect(days?.first?.records == report.movedCount + 1)
        let after = try await Self.reports(shop, day: dayOne)
        #expect(after.orders.first { $0.hasPrefix("#4") }?.contains("picked up") == true)
        #expect(after.report.orders == before.report.orders)
    }

    /// A base that removes `allowed` batches and then loses its connection, as a counter that crashed or
    /// went offline in the middle of archiving.
    final class InterruptedDeletes: ForwardingRecordStore {
        let base: any RecordStore
        let allowed: Int
        let deletes = Mutex(0)

        init(base: any RecordStore, allowed: Int) {
            self.base = base
            self.allowed = allowed
        }

        var underlying: any RecordStore { base }

        func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
            let count = deletes.withLock { $0 += 1; return $0 }
            guard count <= allowed else { throw .transport("the connection was lost") }
            return try await base.deleteRecords(in: table, ids: ids)
        }
    }

    @Test func anArchiveStoppedMidwayLosesNothingAndARerunFinishesIt() async throws {
        let setup = try await Setup.make()
        defer { Task { await setup.harness.stop() } }
        let shop = setup.shop()
        try await Self.sellDayOne(shop)
        _ = try await shop.orders.cancel(.pickup(4), reason: "沒來拿", by: "Amy")
        // Enough lines that removing them takes several batches of ten.
        for _ in 0..<12 {
            _ = try await shop.orders.place(OrderDraft(lines: [LineDraft(drink: "白玉歐蕾", options: [.size(.large), .sugar(.light), .ice(.less)])]),
                                            placedBy: "Amy")
        }
        for number in 5...16 {
            // A second apart, so the audit trail has one order whichever store each entry is read from.
            setup.clock.advance(by: 1)
            _ = try await shop.orders.cancel(.pickup(number), reason: "test", by: "Amy")
        }
        let dayOne = shop.clock.today
        let before = try await Self.reports(shop, day: dayOne)
        let lines = try await setup.remote(ShopSchema.orderTable).count
        #expect(lines == 17)
        setup.clock.advance(by: 86_400)

        // The order lines are copied, one batch of them removed, then the connection drops.
        let crashing = setup.shop(base: InterruptedDeletes(base: setup.client, allowed: 1))
        await #expect(throws: ShopError.self) { try await crashing.archiver?.archiveClosedDays() }
        #expect(try await setup.remote(ShopSchema.orderTable).count == lines - 10)
        #expect(try await setup.archived(ShopSchema.orderTable).count == lines)
        // Half in the base, all in the archive: every report counts each record once.
        let midway = try await Self.reports(shop, day: dayOne)
        #expect(midway.orders == before.orders)
        #expect(midway.report == before.report)
        #expect(midway.export == before.export)
        #expect(midway.audit == before.audit)
        #expect(midway.counts == before.counts)
        #expect(midway.problems == before.problems)
        #expect(try await Self.reports(crashing, day: dayOne) == before)

        // A new process runs it again and finishes the job; nothing is copied twice.
        let rerun = setup.shop()
        let reports = try #require(try await rerun.archiver?.archiveClosedDays())
        #expect(reports.first?.moved[ShopSchema.orderTable] == lines - 10)
        for table in DayTables.archived.map(\.name) {
            #expect(try await setup.remote(table).isEmpty, "\(table) is empty in the base")
        }
        #expect(try await setup.archived(ShopSchema.orderTable).count == lines)
        #expect(Set(try await setup.archived(ShopSchema.orderTable).map(\.id)).count == lines)
        #expect(try await Self.reports(rerun, day: dayOne) == before)
        #expect(try await rerun.archiver?.archiveClosedDays() == [])
    }

    @Test func closingWithoutArchivingRemovesOnlyTheClosedDaysTickets() async throws {
        let setup = try await Setup.make()
        defer { Task { await setup.harness.stop() } }
        let shop = setup.shop()
        try await Self.sellDayOne(shop)
        setup.clock.advance(by: 86_400)
        _ = try await shop.orders.place(OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)])]),
                                        placedBy: "Ben")
        #expect(try await shop.archiver?.dropClosedDaysTickets() == 4)
        let tickets = try await setup.remote(ShopSchema.ticketTable)
        #expect(tickets.map { $0.fields["businessDay"]?.stringValue } == [shop.clock.today.description])
        #expect(try await setup.remote(ShopSchema.orderTable).count == 6, "orders stay")
        #expect(!FileManager.default.fileExists(atPath: setup.archivePath), "nothing is archived")
        #expect(try await shop.archiver?.dropClosedDaysTickets() == 0)
    }

    @Test func aCopyThatDiffersLeavesTheRecordInTheBase() async throws {
        let setup = try await Setup.make()
        defer { Task { await setup.harness.stop() } }
        let shop = setup.shop()
        _ = try await shop.orders.place(OrderDraft(lines: [LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)])]),
                                        placedBy: "Amy")
        _ = try await shop.orders.cancel(.pickup(1), reason: "test", by: "Amy")
        setup.clock.advance(by: 86_400)
        // An archive that loses a cell on the way: the copy does not hold the record as the base has it.
        let differing = DifferingArchive(base: try await LocalBase.open(path: setup.archivePath))
        let shopWithBadArchive = Shop(store: setup.client, clock: ShopClock(timeZone: TestClock.taipei, now: setup.clock.date),
                                      archive: DayArchive(store: differing, location: setup.archivePath))
        do {
            _ = try await shopWithBadArchive.archiver?.archiveClosedDays()
            Issue.record("a differing copy was accepted")
        } catch {
            guard case .archive(.copyDiffers(let table, _, _)) = error else { throw error }
            #expect(table == ShopSchema.orderTable)
        }
        #expect(try await setup.remote(ShopSchema.orderTable).count == 1, "the line stays in the base")
    }

    /// An archive that keeps records without one of their cells (a damaged or wrongly made file).
    struct DifferingArchive: RecordKeeping, ForwardingRecordStore {
        let base: LocalBase
        var underlying: any RecordStore { base }
        func keepRecords(in table: String, _ records: [Record]) async throws(AirtableError) -> Int {
            try await base.keepRecords(in: table, records.map { record in
                var copy = record
                copy.fields["cancelReason"] = nil
                return copy
            })
        }
        func createTable(_ spec: TableSpec) async throws(AirtableError) -> TableSchema { try await base.createTable(spec) }
        func createField(in table: String, _ spec: FieldSpec) async throws(AirtableError) -> FieldSchema {
            try await base.createField(in: table, spec)
        }
    }
}
