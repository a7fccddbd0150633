@testable import DrinkShop
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
        await #expect(throws: OnlineRefusal.self) { try await counter.placeOnline(draft(fixture), within: .init(orders: 5)) }
        try await counter.setOnlineOrdering(true, by: mia)
        let ticket = try await counter.placeOnline(draft(fixture), within: .init(orders: 5))
        #expect(ticket.number == 1 && ticket.total == 35 && ticket.day == fixture.shop.clock.today)
        let (orders, _) = try await fixture.shop.orders.today()
        #expect(orders.map(\.order.placedBy) == [Counter.onlineFront])
        #expect(orders.first?.order.lines.first?.note == "for Amy")
        #expect(try await counter.onlineOrderStatus(ticket) == .placed)
    }

    @Test("a new order from the page is told once to every running counter, and a counter's own never")
    func newOnlineOrdersAreToldOnceAtEveryCounter() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setOnlineOrdering(true, by: mia)
        _ = try await counter.placeOnline(draft(fixture, name: "Early"), within: .init(orders: 5))
        fixture.clock.advance(by: 1)
        // Two counters running from now: the morning's order is not theirs to ring for.
        let first = OnlineArrivals(fixture.shop), second = OnlineArrivals(fixture.secondCounter())
        #expect(try await first.read().isEmpty)
        fixture.clock.advance(by: 1)
        _ = try await fixture.shop.orders.place(draft(fixture, name: "AtTheCounter"), placedBy: "Ken")
        _ = try await counter.placeOnline(draft(fixture, name: "Amy"), within: .init(orders: 5))
        let told = try await first.read()
        #expect(told.map(\.order.orderName) == ["Amy"] && told.allSatisfy(\.isOnline))
        #expect(OnlineArrivals.line(told[0]) == "網路新單 online order #3 for Amy: 1 cup, $35")
        #expect(try await first.read().isEmpty, "told once")
        #expect(try await second.read().map(\.order.orderName) == ["Amy"])
        // The make line's list tells through the same counter's memory: nothing twice.
        #expect(first.untold(try await fixture.shop.orders.today().orders).isEmpty)
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
        #expect(try await counter.placeOnline(draft(fixture), within: .init(orders: 5)).number == 1)
    }

    @Test func openOnlineOrdersAreBoundedUntilCollected() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setOnlineOrdering(true, by: mia)
        let first = try await counter.placeOnline(draft(fixture), within: .init(orders: 2))
        _ = try await counter.placeOnline(draft(fixture), within: .init(orders: 2))
        // An order placed at the counter does not count against the page's bound.
        _ = try await counter.place(draft(fixture, name: "Walk-in"), by: mia)
        do {
            _ = try await counter.placeOnline(draft(fixture), within: .init(orders: 2))
            Issue.record("a third open online order was placed")
        } catch {
            guard case .tooManyOpen(.orders(let limit), yourShare: false) = error else { throw error }
            #expect(limit == 2)
        }
        #expect(try await counter.openOnlineOrders().count == 2)
        for _ in 0..<2 { _ = try await counter.advance(.pickup(first.number), by: mia) }
        #expect(try await counter.onlineOrderStatus(first) == .ready)
        _ = try await counter.advance(.pickup(first.number), unpaid: true, by: mia)
        #expect(try await counter.openOnlineOrders().count == 1)
        #expect(try await counter.placeOnline(draft(fixture), within: .init(orders: 2)).number == 4)
    }

    /// The bound a refusal names, and whether it was the sender's share (nil when not refused on a bound).
    private func overBound(_ refusal: OnlineRefusal?) -> OverBound? {
        guard case .tooManyOpen(let bound, let yourShare) = refusal else { return nil }
        return OverBound(bound: bound, yourShare: yourShare)
    }

    private struct OverBound: Equatable {
        let bound: OnlineBound
        let yourShare: Bool
    }

    @Test func theBoundsCountCupsAndUnpaidMoneyInAllAndPerSender() {
        let bounds = OnlineOrderBounds(orders: 20, cups: 100, unpaid: 5_000)
        let half: @Sendable (Int, Int) -> Int = { cap, others in let free = max(0, cap - others); return free / 2 + free % 2 }
        let open = [OpenOnlineOrder(orderRef: "a1", cups: 30, unpaid: 1_500), OpenOnlineOrder(orderRef: "a2", cups: 15, unpaid: 600),
                    OpenOnlineOrder(orderRef: "b1", cups: 10, unpaid: 0)]
        let a = OnlineOrderBounds.Sender(orderRefs: ["a1", "a2", "gone"], share: half)
        let c = OnlineOrderBounds.Sender(orderRefs: [], share: half)
        // In all: 55 cups and NT$2,100 are open.
        #expect(overBound(bounds.refusal(cups: 46, amount: 10, open: open, from: nil)) == OverBound(bound: .cups(100), yourShare: false))
        #expect(overBound(bounds.refusal(cups: 1, amount: 2_901, open: open, from: nil)) == OverBound(bound: .unpaid(5_000), yourShare: false))
        #expect(bounds.refusal(cups: 45, amount: 2_900, open: open, from: nil) == nil)
        // Sender a holds 45 cups and NT$2,100; the others 10 cups: a's share of cups is half of the 90 they leave, 45.
        #expect(overBound(bounds.refusal(cups: 1, amount: 10, open: open, from: a)) == OverBound(bound: .cups(45), yourShare: true))
        // b holds 10 of the 55 cups: half of the 55 the others leave is 28, so 18 more and no more.
        let b = OnlineOrderBounds.Sender(orderRefs: ["b1"], share: half)
        #expect(bounds.refusal(cups: 18, amount: 10, open: open, from: b) == nil)
        #expect(overBound(bounds.refusal(cups: 19, amount: 10, open: open, from: b)) == OverBound(bound: .cups(28), yourShare: true))
        // Someone new gets half of what is left of each: cups (45 free) and unpaid NT$ (2,900 free).
        #expect(bounds.refusal(cups: 20, amount: 1_000, open: open, from: c) == nil)
        #expect(overBound(bounds.refusal(cups: 24, amount: 10, open: open, from: c)) == OverBound(bound: .cups(23), yourShare: true))
        #expect(overBound(bounds.refusal(cups: 1, amount: 1_451, open: open, from: c)) == OverBound(bound: .unpaid(1_450), yourShare: true))
    }

    @Test func anOrderOverTheCupsBoundIsRefusedBeforeItIsPlaced() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setOnlineOrdering(true, by: mia)
        let big = OrderDraft(orderName: "Amy", lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)], quantity: 20)])
        do {
            _ = try await counter.placeOnline(big, within: .init(orders: 5, cups: 10))
            Issue.record("20 cups were placed under a bound of 10")
        } catch {
            guard case .tooManyOpen(.cups(10), yourShare: false) = error else { throw error }
        }
        #expect(try await fixture.shop.orders.today().orders.isEmpty, "nothing placed, no pickup number spent")
        let ticket = try await counter.placeOnline(draft(fixture), within: .init(orders: 5, cups: 10, unpaid: 35))
        #expect(try await counter.openOnlineOrders() == [OpenOnlineOrder(orderRef: ticket.orderRef, cups: 1, unpaid: 35)])
        do {
            _ = try await counter.placeOnline(draft(fixture), within: .init(orders: 5, cups: 10, unpaid: 35))
            Issue.record("NT$70 left unpaid under a bound of NT$35")
        } catch {
            #expect(overBound(error) == OverBound(bound: .unpaid(35), yourShare: false))
        }
    }

    @Test func aStatusIsReadOnlyWithTheOrdersKey() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setOnlineOrdering(true, by: mia)
        let ticket = try await counter.placeOnline(draft(fixture), within: .init(orders: 5))
        let guessed = OnlineTicket(number: ticket.number, day: ticket.day, orderRef: "ordGuessedGuessed", total: 0)
        await #expect(throws: ShopError.self) { try await counter.onlineOrderStatus(guessed) }
    }

    @Test func theShopsRulesStillApply() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        try await counter.setOnlineOrdering(true, by: mia)
        let hot = OrderDraft(orderName: "Amy", lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.hot), .addOn(.fruitJelly)])])
        do {
            _ = try await counter.placeOnline(hot, within: .init(orders: 5))
            Issue.record("菓玉 in a hot drink was placed")
        } catch {
            guard case .refused(.rule(.addOnNotServedHot(.fruitJelly, _), _, _)) = error else { throw error }
        }
        #expect(try await fixture.shop.orders.today().orders.isEmpty)
    }
}
