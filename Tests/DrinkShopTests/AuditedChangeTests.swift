import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
import Testing
import TestSupport

/// A change and its audit entry are committed together, or neither is (issue 19): on the embedded store
/// one commit; over the API the change, then the entry, and a staff change or setting put back when the
/// entry cannot be written.
@Suite struct AuditedChangeTests {
    let amy = Acting("Amy", role: .manager)

    /// A shop on the embedded base whose AuditLog refuses every write, inside a commit too.
    private func refusingCommits(_ fixture: ShopFixture) throws -> Shop {
        Shop(store: AuditRefusingBase(base: fixture.base), clock: fixture.clock.shopClock, pinHasher: try PINHasher(iterations: 1_000))
    }

    /// A shop over a store with no commits (as over the API) whose AuditLog refuses every write.
    private func refusingOverTheAPI(_ fixture: ShopFixture) throws -> Shop {
        Shop(store: AuditRefusingAPI(underlying: fixture.base), clock: fixture.clock.shopClock,
             pinHasher: try PINHasher(iterations: 1_000))
    }

    /// Runs `work`, which must fail for want of its audit entry with nothing changed; returns that entry.
    @discardableResult
    private func expectNothingChanged<T>(_ work: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation)
        async throws -> AuditEntry?
    {
        do {
            _ = try await work()
            Issue.record("a change whose audit entry was refused was reported done", sourceLocation: sourceLocation)
            return nil
        } catch {
            // `setPrinter` throws the shop's error itself; the rest the till's.
            let shopError = (error as? TillError).flatMap { if case .shop(let inner) = $0 { inner } else { nil } } ?? error as? ShopError
            guard case .auditNotWrittenNothingChanged(let entry, _) = shopError else {
                Issue.record("expected auditNotWrittenNothingChanged, got \(error)", sourceLocation: sourceLocation)
                return nil
            }
            #expect("\(error)".contains("was not changed"), sourceLocation: sourceLocation)
            return entry
        }
    }

    private func passProgram(_ fixture: ShopFixture) async throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        let program = try directory.file("members.json", contents: """
            {"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"},
             "passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10}]}
            """)
        _ = try await fixture.shop.seeder.seed(contentsOf: program)
        return directory
    }

    // MARK: - The embedded store: one commit

    @Test func onTheEmbeddedStoreAStaffChangeWhoseEntryCannotBeWrittenIsNotMade() async throws {
        let fixture = try await ShopFixture(pinHasher: try PINHasher(iterations: 1_000))
        _ = try await fixture.shop.staff.add("Amy", role: .manager)
        _ = try await fixture.shop.staff.add("Ken", role: .staff)
        let counter = try refusingCommits(fixture).counter
        let entry = try await expectNothingChanged { try await counter.addStaff("Mei", role: .staff, by: amy) }
        #expect(entry?.subject == "Mei")
        try await expectNothingChanged { try await counter.addStaff("Ken", role: .manager, by: amy) }
        try await expectNothingChanged { try await counter.setPIN(try PIN("1357"), for: "Amy", by: amy) }
        try await expectNothingChanged { try await counter.removeStaff("Ken", by: amy) }
        let staff = try await fixture.shop.staff.accounts()
        #expect(staff.map(\.name) == ["Amy", "Ken"])
        #expect(staff.map(\.role) == [.manager, .staff] && !staff.contains { $0.hasPIN })
        #expect(try await fixture.records("AuditLog").isEmpty)
    }

    @Test func onTheEmbeddedStoreADrawerCloseWhoseEntryCannotBeWrittenLeavesTheShiftOpen() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.drawer.open(float: 1000, by: "Amy")
        let counter = try refusingCommits(fixture).counter
        try await expectNothingChanged { try await counter.closeDrawer(counted: 1000, by: amy) }
        #expect(try await fixture.shop.drawer.current()?.float == 1000)
        #expect(try await fixture.records("Shift").allSatisfy { $0.fields["closedAt"] == nil })
    }

    @Test func onTheEmbeddedStoreAPassSaleWhoseEntryCannotBeWrittenSellsNothing() async throws {
        let fixture = try await ShopFixture()
        let program = try await passProgram(fixture)
        let mobile = try MobileNumber(parsing: "0912345678")
        try await expectNothingChanged { try await (try refusingCommits(fixture)).counter.sellPass("月卡", to: mobile, by: amy) }
        #expect(try await fixture.shop.members.member(mobile).pass == nil)
        _ = program
    }

    @Test func onTheEmbeddedStoreASettingWhoseEntryCannotBeWrittenIsNotSet() async throws {
        let fixture = try await ShopFixture()
        let counter = try refusingCommits(fixture).counter
        try await expectNothingChanged { try await counter.setOnlineOrdering(true, by: amy) }
        try await expectNothingChanged { try await counter.setPrinter(.label, to: "/dev/null", by: amy) }
        let stored = try await fixture.shop.settings.stored()
        #expect(stored[ShopSettings.onlineOrderingKey] == nil && stored[PrinterRole.label.settingKey] == nil)
        #expect(try await !fixture.shop.settings.onlineOrderingOpen())
    }

    @Test func onTheEmbeddedStoreADeleteWhoseEntryCannotBeWrittenKeepsTheOrder() async throws {
        let fixture = try await ShopFixture()
        let tea = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        _ = try await fixture.shop.orders.place(tea, placedBy: "Ken")
        let shop = try refusingCommits(fixture)
        try await expectNothingChanged { try await shop.orders.delete(.pickup(1), by: "Ken") }
        #expect(try await fixture.records(ShopSchema.orderTable).count == 1)
        #expect(try await fixture.shop.orders.find(.pickup(1)).order.status == .placed)
        // With the trail writable, the delete and its entry land together.
        _ = try await fixture.shop.orders.delete(.pickup(1), by: "Ken")
        #expect(try await fixture.records(ShopSchema.orderTable).isEmpty)
        #expect(try await fixture.records(ShopSchema.auditTable).compactMap { $0.fields["action"]?.stringValue }.count == 1)
    }

    @Test func onTheEmbeddedStoreAnEarlierDaysCancelWhoseEntryCannotBeWrittenLeavesTheOrderOpen() async throws {
        let fixture = try await ShopFixture()
        let tea = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        _ = try await fixture.shop.orders.place(tea, placedBy: "Ken")
        _ = try await fixture.shop.orders.place(tea, placedBy: "Ken")
        fixture.clock.advance(by: 86_400)
        let shop = try refusingCommits(fixture)
        // Yesterday's open orders: a cancel's entry goes to AuditLog, with the status in one commit.
        try await expectNothingChanged { try await shop.counter.cancel(.pickup(1), reason: "left", by: amy) }
        let unpaid = AuditEntry(at: fixture.clock.now, by: "Mei", action: .advanceOrder, subject: "#2", detail: "handed over unpaid")
        try await expectNothingChanged { try await shop.orders.advance(.pickup(2)) { _ in [unpaid] } }
        #expect(try await fixture.shop.orders.find(.pickup(1)).order.status == .placed)
        #expect(try await fixture.shop.orders.find(.pickup(2)).order.status == .placed)
        #expect(try await fixture.records(ShopSchema.auditTable).isEmpty)
        _ = try await fixture.shop.counter.cancel(.pickup(1), reason: "left", by: amy)
        // A finished order of an earlier day is named with its day; its records say cancelled.
        let statuses = try await fixture.records(ShopSchema.orderTable).compactMap { $0.fields["status"]?.stringValue }
        #expect(statuses.sorted() == ["cancelled", "placed"])
        #expect(try await fixture.records(ShopSchema.auditTable).count == 1)
    }

    @Test func everyChangeWritesItsEntryWithIt() async throws {
        let fixture = try await ShopFixture(pinHasher: try PINHasher(iterations: 1_000))
        let program = try await passProgram(fixture)
        let counter = fixture.shop.counter
        _ = try await counter.addStaff("Amy", role: .manager, by: amy)
        _ = try await counter.addStaff("Ken", role: .staff, by: amy)
        _ = try await counter.addStaff("Ken", role: .manager, by: amy)
        _ = try await counter.setPIN(try PIN("1357"), for: "Amy", by: amy)
        _ = try await counter.removeStaff("Ken", by: amy)
        _ = try await fixture.shop.drawer.open(float: 500, by: "Amy")
        _ = try await counter.closeDrawer(counted: 500, by: amy)
        let mobile = try MobileNumber(parsing: "0912345678")
        _ = try await counter.sellPass("月卡", to: mobile, by: amy)
        try await counter.setOnlineOrdering(true, by: amy)
        let logged = try await fixture.records("AuditLog").map { "\($0.fields["subject"]?.stringValue ?? "") \($0.fields["detail"]?.stringValue ?? "")" }
        #expect(logged.sorted() == [
            "Amy PIN set", "Amy added as manager", "Ken added as staff", "Ken removed from the staff", "Ken role manager",
            "\(mobile.masked) 月卡 $299", "drawer expected 500, counted 500, exact", "onlineOrdering unset -> on",
        ].sorted())
        #expect(try await fixture.shop.staff.accounts().map(\.name) == ["Amy"])
        #expect(try await fixture.shop.drawer.current() == nil)
        #expect(try await fixture.shop.members.member(mobile).pass?.name == "月卡")
        #expect(try await fixture.shop.settings.onlineOrderingOpen())
        _ = program
    }

    // MARK: - The unpaid handover: its entry on the order, in the move's write

    @Test func anUnpaidHandoverCarriesItsEntryInTheWriteOfTheMove() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        let draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])])
        _ = try await counter.place(draft, by: amy)
        for _ in 0..<2 { _ = try await counter.advance(.pickup(1), by: amy) }
        // The AuditLog table refusing every write does not matter: the entry goes on the order, with the move.
        let moved = try await (try refusingCommits(fixture)).counter.advance(.pickup(1), unpaid: true, by: amy)
        #expect(moved.order.status == .pickedUp)
        let stored = try await fixture.shop.orders.find(.pickup(1))
        #expect(stored.order.status == .pickedUp)
        #expect(stored.auditEntries.map(\.detail) == ["\(AuditEntry.unpaidHandover) $35 due"])
        let trail = try await fixture.shop.audit.entries(in: DayRange(fixture.shop.clock.today))
        #expect(trail.filter { $0.subject == "#1" && $0.detail.hasPrefix(AuditEntry.unpaidHandover) }.count == 1)
        #expect(try await fixture.records("AuditLog").isEmpty)
    }

    // MARK: - Over the API: change, then entry; put back where cheap

    @Test func overTheAPIAStaffChangeOrSettingWhoseEntryCannotBeWrittenIsPutBack() async throws {
        let fixture = try await ShopFixture(pinHasher: try PINHasher(iterations: 1_000))
        _ = try await fixture.shop.staff.add("Amy", role: .manager)
        _ = try await fixture.shop.staff.add("Ken", role: .staff)
        let counter = try refusingOverTheAPI(fixture).counter
        try await expectNothingChanged { try await counter.addStaff("Mei", role: .staff, by: amy) }
        try await expectNothingChanged { try await counter.addStaff("Ken", role: .manager, by: amy) }
        try await expectNothingChanged { try await counter.setPIN(try PIN("1357"), for: "Amy", by: amy) }
        try await expectNothingChanged { try await counter.removeStaff("Ken", by: amy) }
        try await expectNothingChanged { try await counter.setOnlineOrdering(true, by: amy) }
        let staff = try await fixture.shop.staff.accounts()
        #expect(staff.map(\.name) == ["Amy", "Ken"])
        #expect(staff.map(\.role) == [.manager, .staff] && !staff.contains { $0.hasPIN })
        #expect(try await !fixture.shop.settings.onlineOrderingOpen())
    }

    @Test func overTheAPIAPassSaleOrDrawerCloseWhoseEntryCannotBeWrittenIsPutBack() async throws {
        let fixture = try await ShopFixture()
        let program = try await passProgram(fixture)
        let counter = try refusingOverTheAPI(fixture).counter
        let mobile = try MobileNumber(parsing: "0912345678")
        try await expectNothingChanged { try await counter.sellPass("月卡", to: mobile, by: amy) }
        #expect(try await fixture.shop.members.member(mobile).pass == nil)
        _ = try await fixture.shop.drawer.open(float: 500, by: "Amy")
        try await expectNothingChanged { try await counter.closeDrawer(counted: 500, by: amy) }
        #expect(try await fixture.shop.drawer.current()?.float == 500)
        #expect(try await fixture.records("Shift").allSatisfy { $0.fields["closedAt"] == nil && $0.fields["counted"] == nil })
        // A menu change too: the drink's cells are written back.
        try await expectNothingChanged { try await counter.changeMenu("熟成紅茶", .soldOut, by: amy) }
        #expect(try await fixture.shop.catalog.menu(refresh: true).resolve("熟成紅茶").available)
        // Put back, the shift closes as before once the trail takes the entry.
        #expect(try await fixture.shop.counter.closeDrawer(counted: 500, by: amy).counted == 500)
        #expect(try await fixture.shop.drawer.current() == nil)
        _ = program
    }
}

/// The embedded base with its AuditLog refusing every write, inside a commit as outside it.
struct AuditRefusingBase: ForwardingRecordStore, AtomicRecordStore {
    let base: LocalBase
    var underlying: any RecordStore { base }

    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        if table == "AuditLog" { throw AirtableError.transport("audit refused") }
        return try await base.createRecords(in: table, records, options: options)
    }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        if table == "AuditLog" { throw AirtableError.transport("audit refused") }
        return try await base.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }

    func atomically<T: Sendable>(_ work: @escaping @Sendable (any RecordTransaction) throws(AirtableError) -> T)
        async throws(AirtableError) -> T
    {
        try await base.atomically { (transaction) throws(AirtableError) -> T in try work(AuditRefusingTransaction(underlying: transaction)) }
    }
}

/// A commit's calls, its AuditLog writes refused.
private struct AuditRefusingTransaction: RecordTransaction {
    let underlying: any RecordTransaction

    func listRecords(in table: String, query: ListQuery) throws(AirtableError) -> RecordPage {
        try underlying.listRecords(in: table, query: query)
    }

    func containsRecord(in table: String, field: String, text: String) throws(AirtableError) -> Bool {
        try underlying.containsRecord(in: table, field: field, text: text)
    }

    func getRecord(in table: String, id: String, options: ReadOptions) throws(AirtableError) -> Record {
        try underlying.getRecord(in: table, id: id, options: options)
    }

    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) throws(AirtableError) -> [Record] {
        if table == "AuditLog" { throw AirtableError.transport("audit refused") }
        return try underlying.createRecords(in: table, records, options: options)
    }

    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        throws(AirtableError) -> [Record]
    {
        try underlying.updateRecords(in: table, updates, replace: replace, options: options)
    }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) throws(AirtableError) -> UpsertResult
    {
        if table == "AuditLog" { throw AirtableError.transport("audit refused") }
        return try underlying.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }

    func deleteRecords(in table: String, ids: [String]) throws(AirtableError) -> [String] {
        try underlying.deleteRecords(in: table, ids: ids)
    }
}

/// A store with no commits (as a base over the API is) whose AuditLog refuses every write.
struct AuditRefusingAPI: ForwardingRecordStore {
    let underlying: any RecordStore

    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        if table == "AuditLog" { throw AirtableError.transport("audit refused") }
        return try await underlying.createRecords(in: table, records, options: options)
    }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        if table == "AuditLog" { throw AirtableError.transport("audit refused") }
        return try await underlying.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
    }
}
