import DrinkShop
import DrinkShopCore
import PinHashing
import Testing

/// The customers' front of the counter (`/order`): its own narrow table, the `online` setting, the bound on
/// open orders, and reading only the status of an order it placed.
@Suite struct OnlineFrontTests {
    let mia = Acting("Mia", role: .manager)

    private func draft(_ fixture: ShopFixture, name: String = "Amy") -> OrderDraft {
        OrderDraft(orderName: name, lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)], note: "for Amy")])
    }

    @Test func closedUntilAManagerOpensItThenPlacedByTheOnlineFront() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        #expect(try await counter.isOnlineOrderingOpen() == false)
        await #expect(throws: OnlineRefusal.self) { try await counter.placeOnline(draft(fixture), openLimit: 5) }
        try await counter.setOnlineOrdering(true, by: mia)
        let ticket = try await counter.placeOnline(draft(fixture), openLimit: 5)
        #expect(ticket.number == 1 && ticket.total == 35 && ticket.day == fixture.shop.clock.today)
        let (orders, _) = try await fixture.shop.orders.today()
        #expect(orders.map(\.order.placedBy) == [Counter.onlineFront])
        #expect(orders.first?.order.lines.first?.note == "for Amy")
        #expect(try await counter.onlineOrderStatus(ticket) == .placed)
    }

    @Test func customersNeedNoPINEvenWhenStaffDo() async throws {
        let fixture = try await ShopFixture(pinHasher: try PINHasher(iterations: 1_000))
        _ = try await fixture.shop.staff.add("Mia", role: .manager)
        try await fixture.shop.staff.setPIN(try PIN("1357"), for: "Mia")
        let counter = fixture.shop.counter
        // Opening it is a manager's action; nobody logged in is refused.
        await #expect(throws: TillError.self) { try await counter.setOnlineOrdering(true, by: Acting("till", role: nil)) }
        try await counter.setOnlineOrdering(true, by: mia)
        // A customer places an order without logging in: the front's table is its own.
        #expect(try await counter.placeOnline(draft(fixture), openLimit: 5).number == 1)
    }

    @Test func openOnlineOrdersAreBoundedUntilCollected() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setOnlineOrdering(true, by: mia)
        let first = try await counter.placeOnline(draft(fixture), openLimit: 2)
        _ = try await counter.placeOnline(draft(fixture), openLimit: 2)
        // An order placed at the counter does not count against the page's bound.
        _ = try await counter.place(draft(fixture, name: "Walk-in"), by: mia)
        do {
            _ = try await counter.placeOnline(draft(fixture), openLimit: 2)
            Issue.record("a third open online order was placed")
        } catch {
            guard case .tooManyOpen(let limit) = error else { throw error }
            #expect(limit == 2)
        }
        #expect(try await counter.openOnlineOrders() == 2)
        for _ in 0..<2 { _ = try await counter.advance(.pickup(first.number), by: mia) }
        #expect(try await counter.onlineOrderStatus(first) == .ready)
        _ = try await counter.advance(.pickup(first.number), unpaid: true, by: mia)
        #expect(try await counter.openOnlineOrders() == 1)
        #expect(try await counter.placeOnline(draft(fixture), openLimit: 2).number == 4)
    }

    @Test func aStatusIsReadOnlyWithTheOrdersKey() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setOnlineOrdering(true, by: mia)
        let ticket = try await counter.placeOnline(draft(fixture), openLimit: 5)
        let guessed = OnlineTicket(number: ticket.number, day: ticket.day, orderRef: "ordGuessedGuessed", total: 0)
        await #expect(throws: ShopError.self) { try await counter.onlineOrderStatus(guessed) }
    }

    @Test func theShopsRulesStillApply() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setOnlineOrdering(true, by: mia)
        let hot = OrderDraft(orderName: "Amy", lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.hot), .addOn(.fruitJelly)])])
        do {
            _ = try await counter.placeOnline(hot, openLimit: 5)
            Issue.record("菓玉 in a hot drink was placed")
        } catch {
            guard case .refused(.rule(.addOnNotServedHot(.fruitJelly, _), _, _)) = error else { throw error }
        }
        #expect(try await fixture.shop.orders.today().orders.isEmpty)
    }
}
