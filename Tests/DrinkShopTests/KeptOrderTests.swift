import Airtable
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
