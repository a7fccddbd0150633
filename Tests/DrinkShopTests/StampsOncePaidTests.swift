import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import Testing
import TestSupport

/// Stamps are earned when the money is in (`StampRule`, settled by the till): never on an unpaid or cancelled
/// order, and a void of a paid order takes them back. Each test runs on the embedded store and over the API
/// (the same base behind a store with no commits), since each settles its own way.
@Suite struct StampsOncePaidTests {
    let amy = Acting("Amy", role: .manager)
    let ken = Acting("Ken", role: .staff)
    let mobile: MobileNumber

    init() throws { mobile = try MobileNumber(parsing: "0912345678") }

    /// A shop with a stamp card of 5 stamps a free 中杯, on the embedded base or over the API.
    private func shop(overTheAPI: Bool) async throws -> (ShopFixture, Shop) {
        let fixture = try await ShopFixture()
        let directory = try TemporaryDirectory()
        let program = try directory.file("members.json", contents: #"{"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"}}"#)
        _ = try await fixture.shop.seeder.seed(contentsOf: program)
        let shop = overTheAPI ? Shop(store: CountingStore(fixture.base), clock: fixture.clock.shopClock) : fixture.shop
        return (fixture, shop)
    }

    private func place(_ fixture: ShopFixture, _ shop: Shop, cups: Int) async throws -> StoredOrder {
        try await shop.counter.place(OrderDraft(orderName: mobile.digits, lines: [
            fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)], quantity: cups),
        ]), by: ken).order
    }

    private func stamps(_ shop: Shop) async throws -> Int { try await shop.members.member(mobile).card.stamps }

    @Test("a group order from the page with a member's number, cancelled unpaid: the card keeps 0 and redeems nothing",
          arguments: [false, true])
    func anUnpaidGroupCancelledEarnsNothing(overTheAPI: Bool) async throws {
        let (fixture, shop) = try await shop(overTheAPI: overTheAPI)
        try await shop.counter.setOnlineOrdering(true, by: amy)
        let lines = (0..<40).map { _ in fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)], quantity: 20) }
        let ticket = try await shop.counter.placeOnline(OrderDraft(orderName: "Group", lines: lines), member: mobile, within: .init(orders: 20))
        #expect(ticket.stamps == 800)
        #expect(try await stamps(shop) == 0)
        _ = try await shop.counter.cancel(.pickup(ticket.number), reason: "never came", by: ken)
        #expect(try await stamps(shop) == 0)
        // Redeeming a free cup on the member's next order is refused: the card earned nothing.
        let next = try await place(fixture, shop, cups: 1)
        _ = try await shop.counter.applyMember(mobile, to: next, by: ken)
        let refusal = await #expect(throws: TillError.self) {
            try await shop.counter.redeem(.pickup(next.order.pickupNumber), cups: 1, by: ken)
        }
        #expect(refusal.map { "\($0)" } == "\(TillError.member(.notEnoughStamps(have: 0, need: 5)))")
        #expect(try await stamps(shop) == 0)
    }

    @Test("paid in full earns a stamp a cup; voided, they go back, and spent ones leave the card owing",
          arguments: [false, true])
    func paidThenVoidedGivesBack(overTheAPI: Bool) async throws {
        let (fixture, shop) = try await shop(overTheAPI: overTheAPI)
        let first = try await place(fixture, shop, cups: 6)
        _ = try await shop.counter.applyMember(mobile, to: first, by: ken)
        let number = OrderNumber.pickup(first.order.pickupNumber)
        _ = try await shop.counter.pay(number, method: .card, tendered: nil, by: ken)
        #expect(try await stamps(shop) == 6)
        // A free cup spends 5 of them, on an order paid (its 0 paid cups earn nothing).
        let second = try await place(fixture, shop, cups: 1)
        _ = try await shop.counter.applyMember(mobile, to: second, by: ken)
        let (_, redeemed) = try await shop.counter.redeem(.pickup(second.order.pickupNumber), cups: 1, by: ken)
        #expect(redeemed.member.card.stamps == 1)
        _ = try await shop.counter.advance(number, by: ken)
        _ = try await shop.counter.void(number, reason: "refunded to the customer", by: amy)
        #expect(try await stamps(shop) == 1 - 6)
        let third = try await place(fixture, shop, cups: 1)
        _ = try await shop.counter.applyMember(mobile, to: third, by: ken)
        await #expect(throws: TillError.self) { try await shop.counter.redeem(.pickup(third.order.pickupNumber), cups: 1, by: ken) }
        // The books agree: the voided order holds nothing on the card.
        #expect(try await shop.books.check(try shop.till.period(from: "today", to: "today")).balances)
    }

    @Test("a payment split across two tills earns the stamps once, with the payment that completes it",
          arguments: [false, true])
    func aSplitPaymentEarnsOnceWhenComplete(overTheAPI: Bool) async throws {
        let (fixture, shop) = try await shop(overTheAPI: overTheAPI)
        let other = overTheAPI ? Shop(store: CountingStore(fixture.base), clock: fixture.clock.shopClock) : fixture.secondCounter()
        let order = try await place(fixture, shop, cups: 4)
        _ = try await shop.counter.applyMember(mobile, to: order, by: ken)
        let number = OrderNumber.pickup(order.order.pickupNumber)
        _ = try await shop.counter.pay(number, method: .card, tendered: 20, by: ken)
        #expect(try await stamps(shop) == 0)
        // The second till pays a moment later (on the test clock; payments of one instant tie and give way).
        fixture.clock.advance(by: 1)
        _ = try await other.counter.pay(number, method: .linePay, tendered: nil, by: ken)
        #expect(try await stamps(shop) == 4)
        await #expect(throws: TillError.self) { try await shop.counter.pay(number, method: .card, tendered: nil, by: ken) }
        #expect(try await stamps(shop) == 4)
        #expect(try await shop.books.check(try shop.till.period(from: "today", to: "today")).balances)
    }

    @Test("cancelling or deleting an unpaid order that redeemed a free cup gives its stamps back", arguments: [false, true])
    func aCancelledRedemptionGivesStampsBack(overTheAPI: Bool) async throws {
        let (fixture, shop) = try await shop(overTheAPI: overTheAPI)
        let paid = try await place(fixture, shop, cups: 5)
        _ = try await shop.counter.applyMember(mobile, to: paid, by: ken)
        _ = try await shop.counter.pay(.pickup(paid.order.pickupNumber), method: .card, tendered: nil, by: ken)
        for deleting in [false, true] {
            let order = try await place(fixture, shop, cups: 2)
            let number = OrderNumber.pickup(order.order.pickupNumber)
            _ = try await shop.counter.applyMember(mobile, to: order, by: ken)
            _ = try await shop.counter.redeem(number, cups: 1, by: ken)
            #expect(try await stamps(shop) == 0)
            if deleting {
                let found = try await shop.counter.deletable(number, by: amy)
                _ = try await shop.counter.delete(found, as: number, lookingAgain: false, by: amy)
            } else {
                _ = try await shop.counter.cancel(number, reason: "changed their mind", by: ken)
            }
            #expect(try await stamps(shop) == 5)
        }
    }

    @Test("the books name a member's order whose stamps the rule does not give (an earlier version's, unpaid)")
    func theBooksNameStampsWithoutMoney() async throws {
        let (fixture, shop) = try await shop(overTheAPI: false)
        let order = try await place(fixture, shop, cups: 3)
        _ = try await shop.counter.applyMember(mobile, to: order, by: ken)
        // As an earlier version left it: stamps added when the member was applied, nothing paid.
        let share = try #require(try await fixture.base.allRecords(in: "OrderTill").first)
        _ = try await fixture.base.updateRecords(in: "OrderTill", [RecordUpdate(id: share.id, fields: ["stampsAdded": .int(3)])],
                                                 replace: false, options: WriteOptions())
        let check = try await shop.books.check(try shop.till.period(from: "today", to: "today"))
        #expect(check.differences == [.stampsNotAsPaid(.pickup(order.order.pickupNumber), held: OrderStamps(earned: 3), due: OrderStamps())])
        #expect(check.differences.first?.description.contains("集點不符") == true)
    }
}
