import Foundation
import Testing
@testable import DrinkShopCore

@Suite("Till: payments and refunds")
struct TillPaymentTests {
    let now = Fixtures.noon

    func ledger(total: Int = 70) throws -> OrderPayments {
        try OrderPayments(pickupNumber: 12, total: total)
    }

    @Test("methods parse from codes, Chinese and English labels and counter shorthand",
          arguments: [("cash", PaymentMethod.cash), ("現金", .cash), ("Card", .card), ("刷卡", .card),
                      ("LINE Pay", .linePay), ("linepay", .linePay), ("街口", .jkoPay), ("JKOPay", .jkoPay),
                      ("悠遊卡", .easyCard), ("easy card", .easyCard), ("一卡通", .other), ("其他", .other)])
    func parsesMethods(text: String, method: PaymentMethod) {
        #expect(PaymentMethod(parsing: text) == method)
    }

    @Test("unknown method words are not guessed")
    func unknownMethod() {
        #expect(PaymentMethod(parsing: "bitcoin") == nil)
        #expect(PaymentMethod(parsing: "") == nil)
        #expect(PaymentMethod.jkoPay.label == "街口支付 JKOPay")
        #expect(PaymentMethod.linePay.label == "LINE Pay")
    }

    @Test("cash over the total is paid with change")
    func cashChange() throws {
        let (paid, payment) = try ledger().paying(.cash, tendered: 500, voided: false, by: "阿明", at: now)
        #expect(payment.amount == 70)
        #expect(payment.change == 430)
        #expect(paid.state == .paid)
        #expect(paid.due == 0)
    }

    @Test("an order paid in parts is partly paid until the parts reach the total")
    func partPayments() throws {
        var money = try ledger()
        #expect(money.state == .unpaid)
        (money, _) = try money.paying(.easyCard, tendered: 50, voided: false, by: "阿明", at: now)
        #expect(money.state == .partlyPaid(paid: 50, due: 20))
        #expect(money.state.description == "paid 50, 20 due")
        (money, _) = try money.paying(.linePay, tendered: 20, voided: false, by: "阿明", at: now)
        #expect(money.state == .paid)
        #expect(money.payments.map(\.method) == [.easyCard, .linePay])
    }

    @Test("a card, wallet or transit card is not charged more than is due")
    func overpaymentNotCash() throws {
        for method in PaymentMethod.allCases where method != .cash {
            #expect(throws: PaymentError.overpaymentNotCash(method: method, offered: 100, due: 70)) {
                try ledger().paying(method, tendered: 100, voided: false, by: "阿明", at: now)
            }
        }
        let error = PaymentError.overpaymentNotCash(method: .card, offered: 100, due: 70)
        // What staff read, whole: why the card is not charged the 100 offered.
        #expect(error.description
            == "\(PaymentMethod.card.label) is charged exactly what is due: 100 is more than the 70 due (only cash gives change) (非現金須付剛好金額)")
    }

    @Test("zero or negative amounts, voided orders and paid orders take no money")
    func refusedPayments() throws {
        #expect(throws: PaymentError.nonPositiveAmount(0)) {
            try ledger().paying(.cash, tendered: 0, voided: false, by: "阿明", at: now)
        }
        #expect(throws: PaymentError.nonPositiveAmount(-5)) {
            try ledger().paying(.cash, tendered: -5, voided: false, by: "阿明", at: now)
        }
        #expect(throws: PaymentError.orderVoided(order: 12)) {
            try ledger().paying(.cash, tendered: 70, voided: true, by: "阿明", at: now)
        }
        let (paid, _) = try ledger().paying(.card, tendered: 70, voided: false, by: "阿明", at: now)
        #expect(throws: PaymentError.alreadyPaid(order: 12, total: 70)) {
            try paid.paying(.cash, tendered: 10, voided: false, by: "阿明", at: now)
        }
    }

    @Test("voiding refunds each method what it paid, and the order shows refunded")
    func voidRefunds() throws {
        var money = try ledger(total: 100)
        (money, _) = try money.paying(.cash, tendered: 60, voided: false, by: "阿明", at: now)
        (money, _) = try money.paying(.card, tendered: 40, voided: false, by: "阿明", at: now)
        let (voided, refunds) = money.refundingAll(reason: "客人取消", by: "店長", at: now)
        #expect(refunds.map(\.method) == [.cash, .card])
        #expect(refunds.map(\.amount) == [60, 40])
        #expect(voided.state == .refunded(100))
        #expect(voided.refundable(by: .cash) == 0)
        #expect(voided.refundingAll(reason: "again", by: "店長", at: now).1.isEmpty)
    }

    @Test("cash change is not refunded: only what went to the order")
    func refundExcludesChange() throws {
        let (money, _) = try ledger().paying(.cash, tendered: 100, voided: false, by: "阿明", at: now)
        let (_, refunds) = money.refundingAll(reason: "做錯", by: "店長", at: now)
        #expect(refunds.map(\.amount) == [70])
    }

    @Test("a refund beyond what was paid, or through a method that did not pay, is refused")
    func refundTooLarge() throws {
        let (money, _) = try ledger().paying(.cash, tendered: 70, voided: false, by: "阿明", at: now)
        #expect(throws: PaymentError.refundExceedsPaid(order: 12, method: .cash, refund: 80, refundable: 70)) {
            try money.refunding(.cash, amount: 80, reason: "x", by: "店長", at: now)
        }
        #expect(throws: PaymentError.refundExceedsPaid(order: 12, method: .card, refund: 10, refundable: 0)) {
            try money.refunding(.card, amount: 10, reason: "x", by: "店長", at: now)
        }
        let (partly, refund) = try money.refunding(.cash, amount: 30, reason: "少一杯", by: "店長", at: now)
        #expect(refund.amount == 30)
        #expect(partly.refundable(by: .cash) == 40)
        #expect(throws: PaymentError.nonPositiveAmount(0)) {
            try money.refunding(.cash, amount: 0, reason: "x", by: "店長", at: now)
        }
    }

    @Test("stored payments are checked when read back")
    func storedPayments() throws {
        #expect(throws: PaymentError.overpaymentNotCash(method: .card, offered: 80, due: 70)) {
            try Payment(method: .card, amount: 70, tendered: 80, takenBy: "x", takenAt: now)
        }
        #expect(throws: PaymentError.tenderedBelowAmount(tendered: 50, amount: 70)) {
            try Payment(method: .cash, amount: 70, tendered: 50, takenBy: "x", takenAt: now)
        }
        let payment = try Payment(method: .cash, amount: 70, takenBy: "x", takenAt: now)
        let refund = try Refund(method: .cash, amount: 90, refundedBy: "x", refundedAt: now, reason: "r")
        #expect(throws: PaymentError.self) {
            try OrderPayments(pickupNumber: 3, total: 70, payments: [payment], refunds: [refund])
        }
    }
}
