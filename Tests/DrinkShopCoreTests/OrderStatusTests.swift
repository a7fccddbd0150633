import Testing
@testable import DrinkShopCore

@Suite struct OrderStatusTests {
    @Test func storedValues() {
        #expect(OrderStatus.allCases.map(\.rawValue) == ["placed", "preparing", "ready", "picked up", "cancelled"])
    }

    @Test func advanceWalksPlacedPreparingReadyPickedUp() throws {
        #expect(try OrderStatus.placed.advanced(order: 1) == .preparing)
        #expect(try OrderStatus.preparing.advanced(order: 1) == .ready)
        #expect(try OrderStatus.ready.advanced(order: 1) == .pickedUp)
    }

    @Test func finishedOrdersCannotAdvance() {
        #expect(throws: OrderStatusError.finished(order: 12, status: .pickedUp)) {
            try OrderStatus.pickedUp.advanced(order: 12)
        }
        #expect(throws: OrderStatusError.finished(order: 12, status: .cancelled)) {
            try OrderStatus.cancelled.advanced(order: 12)
        }
        #expect(OrderStatusError.finished(order: 12, status: .pickedUp).description
            .hasPrefix("order #12 was picked up; a picked-up order cannot change"))
        #expect(OrderStatusError.finished(order: 12, status: .cancelled).description
            .hasPrefix("order #12 was cancelled; a cancelled order cannot change"))
    }

    @Test func cancelOnlyFromPlacedOrPreparing() throws {
        #expect(try OrderStatus.placed.cancelled(order: 12) == .cancelled)
        #expect(try OrderStatus.preparing.cancelled(order: 12) == .cancelled)
        #expect(throws: OrderStatusError.onlyPickupLeft(order: 12)) { try OrderStatus.ready.cancelled(order: 12) }
        #expect(OrderStatusError.onlyPickupLeft(order: 12).description
            .hasPrefix("order #12 is ready; it can only be picked up, or voided by a manager (void #12 REASON)"))
        #expect(throws: OrderStatusError.finished(order: 12, status: .pickedUp)) {
            try OrderStatus.pickedUp.cancelled(order: 12)
        }
        #expect(throws: OrderStatusError.finished(order: 12, status: .cancelled)) {
            try OrderStatus.cancelled.cancelled(order: 12)
        }
    }

    @Test func onlyPlacedOrdersCanBeEdited() throws {
        #expect(OrderStatus.allCases.filter(\.canEdit) == [.placed])
        try OrderStatus.placed.checkEditable(order: 7)
        #expect(throws: OrderStatusError.notEditable(order: 7, status: .preparing)) {
            try OrderStatus.preparing.checkEditable(order: 7)
        }
        #expect(OrderStatusError.notEditable(order: 7, status: .preparing).description
            .hasPrefix("order #7 is being prepared; only placed orders can be edited"))
        #expect(OrderStatus.allCases.filter(\.isFinal) == [.pickedUp, .cancelled])
    }

    @Test(arguments: [
        ("placed", OrderStatus.placed), ("PREPARING", .preparing), ("ready", .ready), ("picked up", .pickedUp),
        ("picked-up", .pickedUp), ("pickedup", .pickedUp), ("cancelled", .cancelled), ("canceled", .cancelled),
        ("製作中", .preparing), ("可取餐", .ready),
    ])
    func parsesStatusSpellings(text: String, status: OrderStatus) {
        #expect(OrderStatus(parsing: text) == status)
    }

    @Test func unknownStatusIsNil() {
        #expect(OrderStatus(parsing: "lost") == nil)
        #expect(OrderStatus(parsing: "") == nil)
    }
}
