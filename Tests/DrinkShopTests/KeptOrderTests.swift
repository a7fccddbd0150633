import Airtable
import AirtableFormula
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Testing
import TestSupport

/// Orders a counter keeps while the store cannot be reached arrive whole: everything staff gave at the
/// counter (the member `for 09XXXXXXXX` included) is the order's once it is sent.
@Suite struct KeptOrderTests {
    let ken = Acting("Ken", role: .staff)

    @Test func aMembersOrderKeptOfflineIsTheMembersOnceSentAndEarnsStampsWhenPaid() async throws {
        let counter = try await OutboxTests.Counter()
        let directory = try TemporaryDirectory()
        let program = try directory.file("members.json", contents: #"{"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"}}"#)
        _ = try await counter.fixture.shop.seeder.seed(contentsOf: program)
        let mobile = try MobileNumber(parsing: "0912345678")
        // The counter has worked online before (it knows whether PINs are on, as a counter always does).
        _ = try await counter.shop.counter.place(OrderDraft(orderName: "Amy", lines: [
            counter.fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)]),
        ]), by: ken)
        counter.flaky.unplug()
        let placed = try await counter.shop.counter.place(OrderDraft(orderName: mobile.digits, lines: [
            counter.fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)], quantity: 2),
        ]), by: ken)
        #expect(placed.order.isUnsent)
        counter.flaky.plugIn()
        let sent = try await counter.shop.counter.sendKept(force: true).sent
        #expect(sent.count == 1)
        let number = try #require(sent.first).pickupNumber
        let found = try await counter.shop.orders.find(.pickup(number))
        #expect(try await counter.shop.extras.extra(of: found.orderRef).member == mobile)
        _ = try await counter.shop.counter.pay(.pickup(number), method: .card, tendered: nil, by: ken)
        #expect(try await counter.shop.members.member(mobile).card.stamps == 2)
    }

    /// Kept before a day closed, sent the next morning: the closed day keeps what it closed with; the order is
    /// today's, with a number of today, and the audit trail says it came late.
    @Test func anOrderKeptOvernightNeverGoesIntoTheClosedDay() async throws {
        let counter = try await OutboxTests.Counter()
        let closedDay = counter.shop.clock.today
        _ = try await counter.shop.counter.place(OrderDraft(orderName: "Amy", lines: [
            counter.fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)]),
        ]), by: ken)
        counter.flaky.unplug()
        let kept = try await counter.shop.counter.place(OrderDraft(orderName: "Bo", lines: [
            counter.fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)]),
        ]), by: ken).order
        #expect(kept.isUnsent)
        // Another counter, on the store, counts the drawer and closes the day.
        counter.flaky.plugIn()
        let other = counter.fixture.shop
        _ = try await other.counter.openShift(float: 1000, by: Acting("Amy", role: .manager))
        _ = try await other.counter.closeDrawer(counted: 1000, by: Acting("Amy", role: .manager))
        counter.fixture.clock.advance(by: 24 * 3600)
        let today = counter.shop.clock.today
        #expect(today > closedDay)

        let sent = try await counter.shop.counter.sendKept(force: true).sent
        #expect(sent == [SentOrder(queuedAs: .provisional(1, counter: "A"), pickupNumber: 1, businessDay: today, lateFrom: closedDay)])
        let days = try await counter.fixture.records("OrderDrink").compactMap { $0.fields["businessDay"]?.stringValue }
        #expect(days.filter { $0 == closedDay.description }.count == 1)
        #expect(days.filter { $0 == today.description }.count == 1)
        let entries = try await counter.shop.audit.entries(fromDay: today, throughDay: today)
        #expect(entries.contains { $0.subject == "#1" && $0.detail.contains("sent late: taken on \(closedDay) as #A-P1") })
    }

    @Test func anOutboxFromBeforeTheMemberFieldGetsItWhenOpened() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/outbox.sqlite"
        let local = try LocalBase(path: path)
        // The line table as an earlier version made it, without `member`.
        var old = Outbox.schema[0]
        old.fields.removeAll { $0.name == UnsentField.member.rawValue }
        _ = try await local.createTable(old)
        let outbox = Outbox(store: local, location: path)
        try await outbox.prepare()
        #expect(try await local.schema().table(Outbox.lineTable)?.field(UnsentField.member.rawValue) != nil)
    }
}
