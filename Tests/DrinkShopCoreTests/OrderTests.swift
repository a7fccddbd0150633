import Foundation
import Testing
@testable import DrinkShopCore

@Suite struct OrderTests {
    private func halfPrice() throws -> Promotion {
        try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice)
    }

    private func order(_ lines: [OrderLine], promotions: [Promotion] = []) throws -> Order {
        try Order.place(pickupNumber: 12, orderName: " Amy ", placedBy: "Ben", createdAt: Fixtures.noon,
                        lines: lines, promotions: promotions)
    }

    @Test func placingTotalsTheLinesAndAppliesTheBestPromotion() throws {
        let placed = try order([try Fixtures.line("白玉歐蕾", .large, quantity: 2), try Fixtures.line("熟成紅茶")],
                               promotions: [try halfPrice()])
        #expect(placed.status == .placed)
        #expect(placed.orderName == "Amy")
        #expect(placed.subtotal == 175)
        #expect(placed.cupCount == 3)
        // Cups 70, 70, 35: the pair (70, 70) gives 35 off the second 白玉歐蕾; 熟成紅茶 is unpaired.
        #expect(placed.promotion == AppliedPromotion(name: "第二杯半價", lineDiscounts: [35, 0]))
        #expect(placed.discount == 35)
        #expect(placed.total == 140)
        #expect(placed.discount(forLine: 0) == 35)
        #expect(placed.discount(forLine: 5) == 0)
    }

    @Test func withoutAPromotionTheDiscountIsZero() throws {
        let placed = try order([try Fixtures.line("白玉歐蕾")])
        #expect(placed.promotion == nil)
        #expect(placed.discount == 0)
        #expect(placed.total == 60)
    }

    @Test func placingChecksTheOrderAsAWhole() throws {
        #expect(throws: OrderError.noLines) { try order([]) }
        let line = try Fixtures.line("白玉歐蕾")
        #expect(throws: OrderError.invalidPickupNumber(0)) {
            try Order.place(pickupNumber: 0, orderName: "Amy", placedBy: "Ben", createdAt: Fixtures.noon,
                            lines: [line], promotions: [])
        }
        #expect(throws: PersonNameError.empty(field: "who the order is for")) {
            try Order.place(pickupNumber: 1, orderName: "  ", placedBy: "Ben", createdAt: Fixtures.noon,
                            lines: [line], promotions: [])
        }
        #expect(throws: PersonNameError.empty(field: "who placed the order")) {
            try Order.place(pickupNumber: 1, orderName: "Amy", placedBy: "", createdAt: Fixtures.noon,
                            lines: [line], promotions: [])
        }
    }

    @Test func editingALineRepricesAndReappliesThePromotion() throws {
        var placed = try order([try Fixtures.line("白玉歐蕾")], promotions: [try halfPrice()])
        #expect(placed.discount == 0)
        try placed.editLine(at: 0, with: LineEdit(quantity: 2), drink: try Fixtures.drink("白玉歐蕾"),
                            promotions: [try halfPrice()])
        #expect(placed.lines[0].quantity == 2)
        #expect(placed.subtotal == 120)
        #expect(placed.discount == 30)
        #expect(placed.total == 90)
    }

    @Test func theCustomerKeepsTheOfferTheyOrderedUnder() throws {
        let endsAfterOrdering = try Promotion(name: "午間買一送一", kind: .buyOneGetOne,
                                              endsAt: Fixtures.noon.addingTimeInterval(60))
        var placed = try order([try Fixtures.line("白玉歐蕾", quantity: 2)], promotions: [endsAfterOrdering])
        try placed.editLine(at: 0, with: LineEdit(sugar: .free), drink: try Fixtures.drink("白玉歐蕾"),
                            promotions: [endsAfterOrdering])
        #expect(placed.discount == 60)
    }

    @Test func aRefusedEditChangesNothing() throws {
        var placed = try order([try Fixtures.line("白玉歐蕾"), try Fixtures.line("熟成紅茶")])
        let before = placed
        let latte = try Fixtures.drink("白玉歐蕾")
        #expect(throws: OrderRuleViolation.tooManyAddOns(count: 3)) {
            try placed.editLine(at: 0, with: LineEdit(addOns: AddOn.allCases), drink: latte, promotions: [])
        }
        #expect(throws: OrderError.lineOutOfRange(order: 12, line: 3, count: 2)) {
            try placed.editLine(at: 2, with: LineEdit(sugar: .free), drink: latte, promotions: [])
        }
        #expect(throws: OrderError.nothingToChange(order: 12)) {
            try placed.editLine(at: 0, with: LineEdit(), drink: latte, promotions: [])
        }
        #expect(placed == before)
        #expect(OrderError.lineOutOfRange(order: 12, line: 3, count: 2).description
            == "order #12 has 2 lines; there is no line 3 (沒有第 3 項)")
    }

    @Test func editsOnlyWhilePlaced() throws {
        var placed = try order([try Fixtures.line("白玉歐蕾"), try Fixtures.line("熟成紅茶")])
        #expect(placed.canEdit)
        try placed.advance()
        #expect(!placed.canEdit)
        let before = placed
        #expect(throws: OrderStatusError.notEditable(order: 12, status: .preparing)) {
            try placed.editLine(at: 0, with: LineEdit(sugar: .free), drink: try Fixtures.drink("白玉歐蕾"),
                                promotions: [])
        }
        #expect(placed == before)
    }

    @Test func advanceAndCancelFollowTheStatusMachine() throws {
        var placed = try order([try Fixtures.line("白玉歐蕾")])
        #expect(try placed.advance() == .preparing)
        #expect(try placed.advance() == .ready)
        #expect(throws: OrderStatusError.onlyPickupLeft(order: 12)) { try placed.cancel(reason: "no show") }
        #expect(try placed.advance() == .pickedUp)
        #expect(throws: OrderStatusError.finished(order: 12, status: .pickedUp)) { try placed.advance() }
        #expect(placed.status == .pickedUp)
        #expect(placed.cancelReason == nil)
    }

    @Test func cancellingKeepsTheReason() throws {
        var placed = try order([try Fixtures.line("白玉歐蕾")])
        #expect(throws: OrderStatusError.missingCancelReason(order: 12)) { try placed.cancel(reason: "  ") }
        #expect(throws: OrderStatusError.cancelReasonTooLong(order: 12, length: 101)) {
            try placed.cancel(reason: String(repeating: "x", count: 101))
        }
        #expect(placed.status == .placed)
        try placed.advance()
        try placed.cancel(reason: " customer left ")
        #expect(placed.status == .cancelled)
        #expect(placed.cancelReason == "customer left")
        #expect(throws: OrderStatusError.finished(order: 12, status: .cancelled)) { try placed.cancel(reason: "again") }
        #expect(throws: OrderStatusError.finished(order: 12, status: .cancelled)) { try placed.advance() }
    }

    @Test func restoringFromStorageKeepsWhatWasStored() throws {
        let line = try OrderLine(drinkName: "已下架", category: .seasonal, size: .large, ice: .less, sugar: .half,
                                 addOns: [.whiteTapioca], quantity: 2, unitPrice: 85, note: nil)
        let stored = try Order(pickupNumber: 3, orderName: "Amy", placedBy: "Ben", status: .ready,
                               createdAt: Fixtures.noon, lines: [line],
                               promotion: AppliedPromotion(name: "買一送一", lineDiscounts: [75]))
        #expect(stored.subtotal == 170)
        #expect(stored.discount == 75)
        #expect(stored.total == 95)
        #expect(stored.status == .ready)
    }

    @Test func absurdStoredNumbersAreRefusedRatherThanOverflowing() throws {
        func line(quantity: Int = 1, unitPrice: Int = 60, name: String = "白玉歐蕾") throws -> OrderLine {
            try OrderLine(drinkName: name, category: .milkTea, size: .medium, ice: .less, sugar: .half,
                          addOns: [], quantity: quantity, unitPrice: unitPrice, note: nil)
        }
        #expect(throws: StoredOrderError.quantityOutOfRange(Int.max)) { try line(quantity: .max) }
        #expect(throws: StoredOrderError.quantityOutOfRange(0)) { try line(quantity: 0) }
        #expect(throws: StoredOrderError.unitPriceOutOfRange(-1)) { try line(unitPrice: -1) }
        #expect(throws: StoredOrderError.emptyDrinkName) { try line(name: " ") }
        #expect(StoredOrderError.quantityOutOfRange(0).field == "numberOfCups")
        let valid = try line(quantity: 150)  // the KEBUKE app sets no maximum
        #expect(throws: StoredOrderError.discountOutOfRange(line: 1, discount: 9_001, lineTotal: 9_000)) {
            try Order(pickupNumber: 1, orderName: "Amy", placedBy: "Ben", status: .placed, createdAt: Fixtures.noon,
                      lines: [valid], promotion: AppliedPromotion(name: "x", lineDiscounts: [9_001]))
        }
        #expect(throws: StoredOrderError.discountCountMismatch(lines: 1, discounts: 2)) {
            try Order(pickupNumber: 1, orderName: "Amy", placedBy: "Ben", status: .placed, createdAt: Fixtures.noon,
                      lines: [valid], promotion: AppliedPromotion(name: "x", lineDiscounts: [1, 1]))
        }
        #expect(throws: StoredOrderError.pickupNumberOutOfRange(-1)) {
            try Order(pickupNumber: -1, orderName: "Amy", placedBy: "Ben", status: .placed, createdAt: Fixtures.noon,
                      lines: [valid])
        }
        // 0: an order the KEBUKE app wrote, which has no pickup number yet.
        #expect(try Order(pickupNumber: 0, orderName: "Amy", placedBy: "", status: .placed, createdAt: Fixtures.noon,
                          lines: [valid]).pickupNumber == 0)
    }
}
