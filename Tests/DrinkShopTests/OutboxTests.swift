import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Synchronization
import Testing
import TestSupport

/// A store in front of a LocalBase that can be "unplugged": while down every call fails as a network
/// failure would; `dropAnswers` makes writes commit and then lose their answer.
final class FlakyStore: RecordStore {
    let base: LocalBase
    private let state = Mutex((down: false, dropAnswers: false))
    /// A table whose next create or upsert fails as if the store went away just then.
    private let failingWrite = Mutex<String?>(nil)

    init(_ base: LocalBase) { self.base = base }

    func failNextWrite(in table: String) { failingWrite.withLock { $0 = table } }

    private func failingNow(_ table: String) -> Bool {
        failingWrite.withLock { (failing: inout String?) -> Bool in
            guard failing == table else { return false }
            failing = nil
            return true
        }
    }

    func unplug() { state.withLock { $0.down = true } }
    func plugIn() { state.withLock { $0 = (false, false) } }
    func loseAnswers() { state.withLock { $0.dropAnswers = true } }

    private func check() throws(AirtableError) {
        if state.withLock({ $0.down }) { throw .transport("connection refused") }
    }

    private func answer<T>(_ value: T) throws(AirtableError) -> T {
        if state.withLock({ $0.dropAnswers }) { throw .transport("the connection closed before the answer") }
        return value
    }

    func listRecords(in table: String, query: ListQuery) async throws(AirtableError) -> RecordPage {
        try check()
        return try await base.listRecords(in: table, query: query)
    }

    func getRecord(in table: String, id: String, options: ReadOptions) async throws(AirtableError) -> Record {
        try check()
        return try await base.getRecord(in: table, id: id, options: options)
    }

    func createRecords(in table: String, _ records: [Fields], options: WriteOptions) async throws(AirtableError) -> [Record] {
        try check()
        if failingNow(table) { throw .transport("connection refused") }
        let created = try await base.createRecords(in: table, records, options: options)
        // Ticket claims are left alone so the tests isolate the order lines.
        return table == "PickupTicket" ? created : try answer(created)
    }

    func updateRecords(in table: String, _ updates: [RecordUpdate], replace: Bool, options: WriteOptions)
        async throws(AirtableError) -> [Record]
    {
        try check()
        return try answer(try await base.updateRecords(in: table, updates, replace: replace, options: options))
    }

    func upsertRecords(in table: String, _ records: [UpsertRecord], mergeOn: [String], replace: Bool,
                       options: WriteOptions) async throws(AirtableError) -> UpsertResult {
        try check()
        if failingNow(table) { throw .transport("connection refused") }
        if table == "OrderDrink", records.contains(where: { $0.fields["orderName"] == "refused" }) {
            throw .api(.invalidValue(field: "orderName", detail: "cannot accept the provided value"))
        }
        let result = try await base.upsertRecords(in: table, records, mergeOn: mergeOn, replace: replace, options: options)
        // Ticket claims are left alone so the test isolates the order lines.
        return table == "OrderDrink" ? try answer(result) : result
    }

    func deleteRecords(in table: String, ids: [String]) async throws(AirtableError) -> [String] {
        try check()
        return try answer(try await base.deleteRecords(in: table, ids: ids))
    }

    func schema() async throws(AirtableError) -> BaseSchema {
        try check()
        return try await base.schema()
    }
}

@Suite struct OutboxTests {
    /// A shop over a flaky store, with an outbox on its own local base.
    struct Counter {
        let fixture: ShopFixture
        let flaky: FlakyStore
        let outbox: Outbox
        let shop: Shop

        init(outboxPath: String? = nil) async throws {
            fixture = try await ShopFixture()
            flaky = FlakyStore(fixture.base)
            let clock = fixture.clock
            let local = try outboxPath.map { try LocalBase(path: $0) } ?? LocalBase.inMemory()
            outbox = Outbox(store: local, location: outboxPath ?? "memory")
            try await outbox.prepare()
            shop = Shop(store: flaky, clock: clock.shopClock, outbox: outbox)
            _ = try await shop.catalog.menu()
            // As a counter starts: its outbox is sent, and the first time, its letter claimed (A: the first).
            _ = try await shop.orders.sendUnsent(force: true)
        }

        func order(_ name: String = "Amy") async throws -> StoredOrder {
            try await shop.orders.place(OrderDraft(orderName: name, lines: [
                LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)], quantity: 2),
            ]), placedBy: "Ken")
        }

        func storedLines() async throws -> [Record] { try await fixture.records("OrderDrink") }
    }

    @Test func ordersTakenOfflineWaitAndAreSentOnceWhenTheStoreAnswers() async throws {
        let counter = try await Counter()
        _ = try await counter.order("first")
        counter.flaky.unplug()
        let p1 = try await counter.order("Amy")
        let p2 = try await counter.order("Bo")
        #expect(p1.isUnsent && p1.number == .provisional(1, counter: "A"))
        #expect(p2.number == .provisional(2, counter: "A"))
        #expect(counter.shop.isOffline)
        #expect(try await counter.outbox.count() == 2)

        let (orders, problems) = try await counter.shop.orders.today()
        #expect(orders.map(\.number) == [.provisional(1, counter: "A"), .provisional(2, counter: "A")])
        #expect(problems.contains { $0.contains("cannot be reached") })

        counter.flaky.plugIn()
        let sent = try await counter.shop.orders.sendUnsent(force: true).sent
        let day = counter.shop.clock.today
        #expect(sent == [SentOrder(queuedAs: .provisional(1, counter: "A"), pickupNumber: 2, businessDay: day),
                         SentOrder(queuedAs: .provisional(2, counter: "A"), pickupNumber: 3, businessDay: day)])
        #expect(try await counter.outbox.count() == 0)
        #expect(!counter.shop.isOffline)
        let lines = try await counter.storedLines()
        #expect(lines.count == 3)
        #expect(Set(lines.compactMap { $0.fields["pickupNumber"]?.intValue }) == [1, 2, 3])
        // Sending again sends nothing.
        #expect(try await counter.shop.orders.sendUnsent(force: true).sent.isEmpty)
        #expect(try await counter.storedLines().count == 3)
    }

    @Test func editsCancellationsAndDeletesOfUnsentOrdersApplyLocally() async throws {
        let counter = try await Counter()
        counter.flaky.unplug()
        _ = try await counter.order("Amy")
        _ = try await counter.order("Bo")
        _ = try await counter.order("Cy")
        let edited = try await counter.shop.orders.edit(.provisional(1, counter: "A"), line: nil, change: LineChangeDraft(options: [.size(.large)]))
        #expect(edited.order.lines[0].size == .large)
        _ = try await counter.shop.orders.cancel(.provisional(2, counter: "A"), reason: "left")
        _ = try await counter.shop.orders.delete(.provisional(3, counter: "A"))
        let (orders, _) = try await counter.shop.orders.today()
        #expect(orders.count == 2)
        #expect(orders[0].order.lines[0].size == .large)
        #expect(orders[1].order.status == .cancelled)

        counter.flaky.plugIn()
        _ = try await counter.shop.orders.sendUnsent(force: true).sent
        let lines = try await counter.storedLines()
        #expect(lines.count == 2)
        #expect(lines.contains { $0.fields["size"] == "大杯" && $0.fields["orderName"] == "Amy" })
        #expect(lines.contains { $0.fields["status"] == "cancelled" && $0.fields["cancelReason"] == "left" })
    }

    @Test func anAnswerLostAfterTheWriteCommittedNeverDuplicatesTheOrder() async throws {
        let counter = try await Counter()
        counter.flaky.loseAnswers()
        let kept = try await counter.order("Amy")
        // The number was claimed before the answer was lost: the order keeps it.
        #expect(kept.isUnsent && kept.number == .pickup(1))
        #expect(try await counter.storedLines().count == 1)
        counter.flaky.plugIn()
        let sent = try await counter.shop.orders.sendUnsent(force: true).sent
        #expect(sent == [SentOrder(queuedAs: .pickup(1), pickupNumber: 1, businessDay: counter.shop.clock.today)])
        let lines = try await counter.storedLines()
        #expect(lines.count == 1)
        #expect(lines[0].fields["numberOfCups"] == 2)
    }

    @Test func unsentOrdersSurviveARestart() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/outbox.sqlite"
        do {
            let counter = try await Counter(outboxPath: path)
            counter.flaky.unplug()
            _ = try await counter.order("Amy")
        }
        let reopened = Outbox(store: try LocalBase(path: path), location: path)
        #expect(try await reopened.count() == 1)
    }

    @Test func anOrderTheStoreRefusesStaysAndTheOthersAreStillSent() async throws {
        let counter = try await Counter()
        counter.flaky.unplug()
        _ = try await counter.order("Amy")
        _ = try await counter.order("refused")
        _ = try await counter.order("Bo")
        counter.flaky.plugIn()
        let report = try await counter.shop.orders.sendUnsent(force: true)
        #expect(report.sent.map(\.queuedAs) == [.provisional(1, counter: "A"), .provisional(3, counter: "A")])
        #expect(report.refused.map(\.order) == [.provisional(2, counter: "A")])
        #expect(try await counter.outbox.count() == 1)
        #expect(try await counter.storedLines().count == 2)
    }

    @Test func offlineOrdersDoNotWaitForTheStoreEachTime() async throws {
        let counter = try await Counter()
        counter.flaky.unplug()
        _ = try await counter.order()
        // Within the probe interval the store is not tried again: the order goes straight to the outbox.
        #expect(try await counter.shop.orders.sendUnsent(force: false).sent.isEmpty)
        counter.flaky.plugIn()
        #expect(try await counter.shop.orders.sendUnsent(force: false).sent.isEmpty)
        counter.fixture.clock.advance(by: 5)
        #expect(try await counter.shop.orders.sendUnsent(force: false).sent.count == 1)
    }

    @Test func twoCountersPreparingOneOutboxFileAtOnceBothSucceed() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/outbox.sqlite"
        let first = Outbox(store: try LocalBase(path: path), location: path)
        let second = Outbox(store: try LocalBase(path: path), location: path)
        async let one: Void = first.prepare()
        async let two: Void = second.prepare()
        _ = try await (one, two)
        #expect(try await first.count() == 0)
        #expect(try await second.count() == 0)
    }
}

@Suite struct OfflineAuditTests {
    @Test func aCancelWhileTheStoreIsDownKeepsItsAuditEntryAndSendsItOnce() async throws {
        let counter = try await OutboxTests.Counter()
        _ = try await counter.order("Amy")
        counter.flaky.unplug()
        let unsent = try await counter.order("Bo")
        _ = try await counter.shop.orders.cancel(try #require(unsent.number), reason: "left", by: "Ken")
        #expect(try await counter.fixture.records(ShopSchema.auditTable).isEmpty)
        counter.flaky.plugIn()
        _ = try await counter.shop.orders.sendUnsent(force: true)
        let entries = try await counter.fixture.records(ShopSchema.auditTable)
        #expect(entries.count == 1 && entries.first?.fields["detail"] == "left" && entries.first?.fields["by"] == "Ken")
        _ = try await counter.shop.orders.sendUnsent(force: true)
        #expect(try await counter.fixture.records(ShopSchema.auditTable).count == 1, "sent once")
    }
}
