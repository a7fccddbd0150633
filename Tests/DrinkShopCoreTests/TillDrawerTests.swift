import Foundation
import Testing
@testable import DrinkShopCore

@Suite("Till: closing the drawer")
struct TillDrawerTests {
    let now = Fixtures.noon

    @Test("expected cash is the float plus cash taken less cash refunded; other methods do not count")
    func expectedCash() throws {
        let shift = try Shift(openedBy: "店長", openedAt: now, float: 2_000)
        let payments = [
            try Payment(method: .cash, amount: 70, tendered: 500, takenBy: "阿明", takenAt: now),
            try Payment(method: .cash, amount: 35, takenBy: "阿明", takenAt: now),
            try Payment(method: .linePay, amount: 120, takenBy: "阿明", takenAt: now),
        ]
        let refunds = [try Refund(method: .cash, amount: 35, refundedBy: "店長", refundedAt: now, reason: "做錯")]
        #expect(shift.expectedCash(payments: payments, refunds: refunds) == 2_070)
        let short = try shift.close(counted: 2_050, payments: payments, refunds: refunds, closedBy: "店長", at: now)
        #expect(short.difference == -20)
        #expect(short.summary == "short 20")
        #expect(short.chineseSummary == "短少 20")
        let over = try shift.close(counted: 2_075, payments: payments, refunds: refunds, closedBy: "店長", at: now)
        #expect(over.summary == "over 5")
        let exact = try shift.close(counted: 2_070, payments: payments, refunds: refunds, closedBy: "店長", at: now)
        #expect(exact.summary == "exact")
        // The close's lines add up: float + taken − change − refunds = expected (500 + 35 handed over, 430 back).
        let cash = try #require(exact.cash)
        #expect(cash.handedOver == 535 && cash.change == 430 && cash.refunded == 35)
        #expect(shift.float + cash.handedOver - cash.change - cash.refunded == exact.expected)
    }

    @Test("a negative float or count is refused")
    func negative() throws {
        #expect(throws: DrawerError.negativeAmount(field: "float", -1)) { try Shift(openedBy: "x", openedAt: now, float: -1) }
        let shift = try Shift(openedBy: "x", openedAt: now, float: 0)
        #expect(throws: DrawerError.negativeAmount(field: "counted", -5)) {
            try shift.close(counted: -5, payments: [], refunds: [], closedBy: "x", at: now)
        }
    }
}

@Suite("Till: one shift at a time")
struct TillShiftTests {
    @Test("a shift opens only when none is open, and closing needs an open one")
    func openAndClose() throws {
        let shift = try Shift.open(current: nil, by: "店長", at: Fixtures.noon, float: 1_000)
        #expect(throws: DrawerError.shiftAlreadyOpen(openedBy: "店長")) {
            try Shift.open(current: shift, by: "阿明", at: Fixtures.noon, float: 500)
        }
        #expect(try Shift.toClose(shift) == shift)
        #expect(throws: DrawerError.noOpenShift) { try Shift.toClose(nil) }
        #expect(throws: PaymentError.unknownMethod("bitcoin")) { try PaymentMethod.parse(" bitcoin ") }
        #expect(try PaymentMethod.parse("街口") == .jkoPay)
    }
}
