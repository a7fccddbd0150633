import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Testing
import TestSupport

/// A counter that stays open claims pickup numbers ten at a time over the API: an order then costs one
/// request, and the numbers stay unique among every counter.
@Suite struct HeldPickupNumbersTests {
    static func tea(_ fixture: ShopFixture) -> OrderDraft {
        OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
    }

    static func remote(_ fixture: ShopFixture, holding: Int? = 10) -> (Shop, CountingStore) {
        let counting = CountingStore(fixture.base)
        let shop = Shop(store: counting, clock: fixture.clock.shopClock)
        if let holding { shop.orders.holdPickupNumbers(holding) }
        return (shop, counting)
    }

    @Test func ordersTakeHeldNumbersWithOneRequestAndClaimTheNextTenWithTwo() async throws {
        let fixture = try await ShopFixture()
        let (counter, counting) = Self.remote(fixture)
        _ = try await counter.catalog.menu()
        var costs: [Int] = []
        var numbers: [Int] = []
        for _ in 0..<25 {
            let before = counting.requests
            numbers.append(try await counter.orders.place(Self.tea(fixture), placedBy: "Ken").order.pickupNumber)
            costs.append(counting.requests - before)
        }
        #expect(numbers == Array(1...25))
        // The first claim reads the day's highest ticket; each claim of ten is a create and a check.
        #expect(costs[0] == 4 && costs[10] == 3 && costs[20] == 3)
        #expect(costs.enumerated().filter { ![0, 10, 20].contains($0.offset) }.allSatisfy { $0.element == 1 })
        let tickets = try await fixture.records(ShopSchema.ticketTable).compactMap { $0.fields[TicketField.number.rawValue]?.intValue }
        #expect(tickets.sorted() == Array(1...30), "the rest of the third ten is held, unused")
    }

    @Test func aNumberAnotherCounterHoldsIsSkippedAndItsTicketLeftAlone() async throws {
        let fixture = try await ShopFixture()
        let (single, _) = Self.remote(fixture, holding: nil)
        let (holding, _) = Self.remote(fixture)
        // The single counter takes #1; the holding one then claims from #2 on, while the single counter's
        // next claim (its hint says #2) collides inside that ten and gives way past it (to #12-#15: a
        // claimant in a race spreads over the next free numbers).
        #expect(try await single.orders.place(Self.tea(fixture), placedBy: "Ken").order.pickupNumber == 1)
        #expect(try await holding.orders.place(Self.tea(fixture), placedBy: "Mei").order.pickupNumber == 2)
        let past = try await single.orders.place(Self.tea(fixture), placedBy: "Ken").order.pickupNumber
        #expect((12...15).contains(past))
        #expect(try await holding.orders.place(Self.tea(fixture), placedBy: "Mei").order.pickupNumber == 3)
        let tickets = try await fixture.records(ShopSchema.ticketTable).compactMap { $0.fields[TicketField.number.rawValue]?.intValue }
        #expect(tickets.sorted() == Array(1...11) + [past])
    }

    /// Creation times from a real clock here (the fixture's stands still, so every clash would tie).
    @Test func holdingAndSingleCountersAtOnceNeverShareANumber() async throws {
        let fixture = try await ShopFixture()
        let base = try LocalBase.inMemory()
        let shared = Shop(store: base, clock: fixture.clock.shopClock)
        try await shared.createMissingSchema()
        _ = try await shared.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        func counter(holding: Int?) -> Shop {
            let shop = Shop(store: CountingStore(base), clock: fixture.clock.shopClock)
            if let holding { shop.orders.holdPickupNumbers(holding) }
            return shop
        }
        let counters = [counter(holding: 10), counter(holding: 10), counter(holding: nil)]
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<45 {
                let shop = counters[index % counters.count]
                group.addTask { try await shop.orders.place(Self.tea(fixture), placedBy: "Ken").order.pickupNumber }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(Set(numbers).count == 45)
        let stored = try await base.allRecords(in: ShopSchema.orderTable).compactMap { $0.fields[OrderField.pickupNumber.rawValue]?.intValue }
        #expect(Set(stored).count == 45 && stored.count == 45)
    }
}
