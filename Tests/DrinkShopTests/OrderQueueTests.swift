@testable import DrinkShop
import DrinkShopCore
import Foundation
import Testing

/// The make line and the pickup board, computed from the order desk's orders.
@Suite struct OrderQueueTests {
    private func place(_ fixture: ShopFixture, _ name: String) async throws -> StoredOrder {
        let draft = OrderDraft(orderName: name, lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        let stored = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        fixture.clock.advance(by: 60)
        return stored
    }

    @Test func theScreenGetsPlacedPreparingAndReadyOrdersWithTheirDayAndWhenTheyBecameReady() async throws {
        let fixture = try await ShopFixture()
        for name in ["Amy", "Bob", "Cai", "Dee", "Eve"] { _ = try await place(fixture, name) }
        let orders = fixture.shop.orders
        _ = try await orders.advance(.pickup(2))                      // preparing
        for _ in 0..<2 { _ = try await orders.advance(.pickup(3)) }    // ready
        for _ in 0..<3 { _ = try await orders.advance(.pickup(4)) }    // picked up
        _ = try await orders.cancel(.pickup(5), reason: "left")
        fixture.clock.advance(by: 30)
        for _ in 0..<2 { _ = try await orders.advance(.pickup(1)) }    // ready, after #3
        let (today, tickets) = try await fixture.shop.queue.pickupTickets()
        #expect(tickets.map(\.number) == [1, 2, 3])
        #expect(tickets.map(\.isReady) == [true, false, true])
        #expect(tickets.allSatisfy { $0.businessDay == today })
        // Each ready order carries when it became ready, so the screen can call out the newest (#1 here).
        let readyAt = tickets.filter(\.isReady).compactMap(\.readyAt)
        #expect(readyAt.count == 2)
        #expect(try #require(tickets[0].readyAt) > (try #require(tickets[2].readyAt)))
    }

    @Test func yesterdaysUncollectedOrderComesWithItsOwnDay() async throws {
        let fixture = try await ShopFixture()
        _ = try await place(fixture, "Amy")
        for _ in 0..<2 { _ = try await fixture.shop.orders.advance(.pickup(1)) }    // ready, never collected
        let yesterday = try await fixture.shop.queue.pickupTickets().today
        fixture.clock.advance(by: 86_400)
        _ = try await place(fixture, "Bob")                                          // today's #1
        let (today, tickets) = try await fixture.shop.queue.pickupTickets()
        #expect(today > yesterday)
        #expect(tickets.map(\.number) == [1, 1])
        #expect(Set(tickets.map(\.businessDay)) == [yesterday, today])
        #expect(tickets.first { $0.businessDay == yesterday }?.isReady == true)
        #expect(tickets.first { $0.businessDay == today }?.isReady == false)
    }

    @Test func theMakeLineIsPlacedAndPreparingOrdersOldestFirst() async throws {
        let fixture = try await ShopFixture()
        for name in ["Amy", "Bob", "Cai"] { _ = try await place(fixture, name) }
        _ = try await fixture.shop.orders.advance(.pickup(2))
        for _ in 0..<2 { _ = try await fixture.shop.orders.advance(.pickup(1)) }
        let (line, problems) = try await fixture.shop.queue.makeLine()
        #expect(line.map(\.number) == [.pickup(2), .pickup(3)])
        #expect(line.map(\.order.status) == [.preparing, .placed])
        #expect(problems.isEmpty)
    }

    @Test func anOrderPlacedOnAnotherCounterShowsOnThisCountersBoard() async throws {
        let fixture = try await ShopFixture()
        _ = try await place(fixture, "Amy")
        let other = fixture.secondCounter()
        _ = try await other.orders.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.large), .sugar(.half), .ice(.less)])]),
                                         placedBy: "Lin")
        #expect(try await fixture.shop.queue.pickupTickets().tickets.map(\.number) == [1, 2])
    }
}
