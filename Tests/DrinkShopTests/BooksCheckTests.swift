import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import Testing
import TestSupport

/// The books check (`shop.books.check`): a day at the counter checks clean, and each difference written
/// straight into the store behind the till's back is found and named, with what to do.
@Suite struct BooksCheckTests {
    let amy = Acting("Amy", role: .manager)
    let ken = Acting("Ken", role: .staff)

    /// A day through the counter: a shift opened with a float, #1 paid in cash with change, #2 part-paid by card,
    /// #3 paid in cash then cancelled (refunded), #4 paid by LINE Pay and voided while being made, #5 handed over
    /// unpaid (on record), #6 cancelled before any payment; the drawer closed. Returns the orders' totals.
    private func aDay(_ fixture: ShopFixture) async throws -> [Int: Int] {
        let counter = fixture.shop.counter
        _ = try await counter.openShift(float: 1000, by: amy)
        var totals: [Int: Int] = [:]
        for cups in 1...6 {
            fixture.clock.advance(by: 60)
            let placed = try await counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)],
                                                                                quantity: cups == 2 ? 2 : 1)]), by: ken).order
            totals[placed.order.pickupNumber] = placed.order.total
        }
        fixture.clock.advance(by: 60)
        _ = try await counter.pay(.pickup(1), method: .cash, tendered: 500, by: ken)
        _ = try await counter.pay(.pickup(2), method: .card, tendered: 20, by: ken)
        _ = try await counter.pay(.pickup(3), method: .cash, tendered: nil, by: ken)
        _ = try await counter.pay(.pickup(4), method: .linePay, tendered: nil, by: ken)
        fixture.clock.advance(by: 60)
        _ = try await counter.cancel(.pickup(3), reason: "customer left", by: amy)
        _ = try await counter.advance(.pickup(4), by: ken)
        _ = try await counter.void(.pickup(4), reason: "spilled", by: amy)
        for _ in 0..<2 { _ = try await counter.advance(.pickup(5), by: ken) }
        _ = try await counter.advance(.pickup(5), unpaid: true, by: ken)
        _ = try await counter.cancel(.pickup(6), reason: "wrong order", by: ken)
        fixture.clock.advance(by: 60)
        _ = try await counter.closeDrawer(counted: 1000 + totals[1, default: 0], by: amy)
        fixture.clock.advance(by: 60)
        return totals
    }

    private func check(_ fixture: ShopFixture, from: String = "today", to: String = "today") async throws -> BooksCheck {
        try await fixture.shop.books.check(try fixture.shop.till.period(from: from, to: to))
    }

    /// The ledger rows of order `number` (of any day).
    private func ledger(_ fixture: ShopFixture, _ number: Int) async throws -> [Record] {
        try await fixture.records("TillPayment").filter { $0.fields["pickupNumber"]?.intValue == number }
    }

    private func addLedgerRow(_ fixture: ShopFixture, order number: Int, orderRef: String? = nil, kind: String = "payment",
                              method: String, amount: Int, at: Date) async throws
    {
        var ref = orderRef ?? ""
        if orderRef == nil { ref = try await fixture.shop.orders.find(.pickup(number)).orderRef }
        _ = try await fixture.base.createRecord(in: "TillPayment", [
            "ref": .string("pay-test-\(number)-\(kind)-\(method)"), "orderRef": .string(ref), "pickupNumber": .int(number),
            "businessDay": "2026-11-29", "kind": .string(kind), "method": .string(method), "amount": .int(amount),
            "tendered": .int(amount), "by": "Ken", "at": .string(AirtableTimestamp.format(at)),
        ])
    }

    /// Writes `fields` on every line record of order `number`, as a client writing the table directly would.
    private func writeOrder(_ fixture: ShopFixture, _ number: Int, _ fields: Fields) async throws {
        let stored = try await fixture.shop.orders.find(.pickup(number))
        _ = try await fixture.base.updateRecords(in: "OrderDrink", stored.recordIDs.map { RecordUpdate(id: $0, fields: fields) },
                                                 replace: false, options: WriteOptions())
    }

    @Test func aDayAtTheCounterBalances() async throws {
        let fixture = try await ShopFixture()
        _ = try await aDay(fixture)
        let books = try await check(fixture)
        #expect(books.differences == [])
        #expect(books.balances)
        #expect(books.summary == "The books of 2026-11-29 balance: 6 orders, 4 payments, 2 refunds, 1 drawer count checked.")
    }

    @Test func aPaidOrderWhosePaymentWasNeverRecordedIsNamedAndPayingAgainRecordsIt() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.counter.openShift(float: 500, by: amy)
        let placed = try await fixture.shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                          by: ken).order
        let total = placed.order.total
        _ = try await fixture.shop.counter.pay(.pickup(1), method: .cash, tendered: nil, by: ken)
        // The copy on the order says paid; the ledger's row is gone (a counter stopped between its two writes).
        _ = try await fixture.base.deleteRecords(in: "TillPayment", ids: try await ledger(fixture, 1).map(\.id))
        let books = try await check(fixture)
        #expect(books.differences == [.copyDisagrees(.pickup(1), copy: TillCopy(paidBy: [.cash: total]), ledgerPaid: [:], ledgerRefunded: [:], due: total)])
        let said = try #require(books.differences.first).description
        #expect(said.contains("order #1") && said.contains("never recorded") && said.contains("pay #1 cash \(total)"), "\(said)")
        #expect(!books.balances && books.summary.hasPrefix("The books of 2026-11-29 do not balance (帳不平): 1 difference"))

        // Paying again goes by the ledger: the payment is recorded once, and the books balance.
        let receipt = try await fixture.shop.counter.pay(.pickup(1), method: .cash, tendered: nil, by: ken)
        #expect(receipt.payment.amount == total)
        #expect(try await ledger(fixture, 1).count == 1)
        #expect(try await fixture.shop.orders.find(.pickup(1)).till == TillCopy(paidBy: [.cash: total]))
        #expect(try await check(fixture).balances)
        // And once paid by the ledger too, it is paid.
        await #expect(throws: TillError.self) { try await fixture.shop.counter.pay(.pickup(1), method: .cash, tendered: nil, by: ken) }
        #expect(try await ledger(fixture, 1).count == 1)
    }

    @Test func aCopyBehindTheLedgerIsNamedAndPayingPutsItRight() async throws {
        let fixture = try await ShopFixture()
        let totals = try await aDay(fixture)
        try await writeOrder(fixture, 1, ["paid": 0, "paidBy": .null])
        let books = try await check(fixture)
        #expect(books.differences == [.copyDisagrees(.pickup(1), copy: TillCopy(), ledgerPaid: [.cash: totals[1, default: 0]], ledgerRefunded: [:], due: 0)])
        #expect(books.differences.first?.description.contains("the ledger counts (帳以收款紀錄為準): nothing is due") == true)
        // The ledger says paid: paying is refused, and the order's copy is put right.
        await #expect(throws: TillError.self) { try await fixture.shop.counter.pay(.pickup(1), method: .card, tendered: nil, by: ken) }
        #expect(try await fixture.shop.orders.find(.pickup(1)).till == TillCopy(paidBy: [.cash: totals[1, default: 0]]))
        #expect(try await check(fixture).balances)
    }

    @Test func cashTakenOutsideAnyShiftIsNamed() async throws {
        let fixture = try await ShopFixture()
        let totals = try await aDay(fixture)
        // #2 finished in cash an hour before the shift opened; the order's copy agrees, so only the shift is wrong.
        let rest = totals[2, default: 0] - 20
        try await addLedgerRow(fixture, order: 2, method: "cash", amount: rest, at: TestClock.noon.addingTimeInterval(-3600))
        try await writeOrder(fixture, 2, ["paid": .int(totals[2, default: 0]), "paidBy": .string("cash:\(rest),card:20")])
        let books = try await check(fixture)
        #expect(books.differences == [.cashOutsideShift(.pickup(2), amount: rest, at: "2026-11-29 11:00")])
        #expect(books.differences.first?.description.contains("while no shift was open") == true)
    }

    @Test func aDrawerCountWhoseExpectedIsNotTheLedgersIsNamed() async throws {
        let fixture = try await ShopFixture()
        let totals = try await aDay(fixture)
        let shift = try #require(try await fixture.records("Shift").first)
        let recorded = try #require(shift.fields["expected"]?.intValue)
        #expect(recorded == 1000 + totals[1, default: 0])
        _ = try await fixture.base.updateRecords(in: "Shift", [RecordUpdate(id: shift.id, fields: ["expected": .int(recorded + 50)])],
                                                 replace: false, options: WriteOptions())
        let books = try await check(fixture)
        #expect(books.differences == [.drawerExpectedDiffers(closedBy: "Amy", closedAt: "2026-11-29 12:09", recorded: recorded + 50,
                                                             float: 1000, cashTaken: totals[1, default: 0] + totals[3, default: 0],
                                                             cashRefunded: totals[3, default: 0])])
        #expect(books.differences.first?.description.contains("is off by $50") == true)
        #expect(books.differences.first?.description.contains("count it again against $\(recorded)") == true)
    }

    @Test func anOrderHandedOverOwingWithoutTheUnpaidHandoverIsNamed() async throws {
        let fixture = try await ShopFixture()
        let totals = try await aDay(fixture)
        try await writeOrder(fixture, 2, ["status": "picked up"])
        let due = totals[2, default: 0] - 20
        #expect(try await check(fixture).differences == [.unpaidHandoverNotRecorded(.pickup(2), due: due)])
        // Checked the next day, the order is named with its day.
        fixture.clock.advance(by: 86_400)
        let yesterday = try await check(fixture, from: "yesterday", to: "yesterday")
        #expect(yesterday.differences == [.unpaidHandoverNotRecorded(.onDay(2, day: "2026-11-29"), due: due)])
        #expect(yesterday.differences.first?.description.contains("order #2@2026-11-29 was picked up with $\(due) still due") == true)
        // Over two days, the same; the day with no orders adds none.
        #expect(try await check(fixture, from: "yesterday", to: "today").differences == yesterday.differences)
    }

    @Test func aCancelledOrderWhoseRefundIsMissingIsNamed() async throws {
        let fixture = try await ShopFixture()
        let totals = try await aDay(fixture)
        let three = totals[3, default: 0]
        _ = try await fixture.base.deleteRecords(in: "TillPayment",
                                                 ids: try await ledger(fixture, 3).filter { $0.fields["kind"]?.stringValue == "refund" }.map(\.id))
        let differences = try await check(fixture).differences
        #expect(differences.contains(.cancelledNotRefunded(.pickup(3), voided: false, held: [.cash: three])))
        #expect(differences.contains(.copyDisagrees(.pickup(3), copy: TillCopy(paidBy: [.cash: three], refundedBy: [.cash: three]),
                                                    ledgerPaid: [.cash: three], ledgerRefunded: [:], due: nil)))
        // The drawer count took the refund out; the ledger no longer does, and the report's sales are $three short.
        #expect(differences.contains { if case .drawerExpectedDiffers = $0 { true } else { false } })
        let sales = try #require(differences.first { if case .salesDoNotAddUp = $0 { true } else { false } })
        #expect(sales.description.contains("explain the $\(three)"))
        #expect(differences.count == 4)
    }

    @Test func moneyTheReportCannotPlaceIsNamed() async throws {
        let fixture = try await ShopFixture()
        let totals = try await aDay(fixture)
        let later = TestClock.noon.addingTimeInterval(300)
        // A refund by card larger than #1 was paid by card (it paid cash), and a payment for an order that does not exist.
        try await addLedgerRow(fixture, order: 1, kind: "refund", method: "card", amount: 10, at: later)
        try await addLedgerRow(fixture, order: 99, orderRef: "ordNOSUCHORDER0", method: "jkoPay", amount: 45, at: later)
        let differences = try await check(fixture).differences
        #expect(differences.contains(.refundExceedsPaid(.pickup(1), method: .card, paid: 0, refunded: 10)))
        #expect(differences.contains(.refundedButKept(.pickup(1), refunded: [.card: 10])))
        #expect(differences.contains(.moneyWithoutOrder(.pickup(99), refund: false, method: .jkoPay, amount: 45)))
        #expect(differences.contains(.methodDoesNotAddUp(.jkoPay, reportTaken: 0, reportRefunded: 0, ledgerTaken: 45, ledgerRefunded: 0)))
        // #1 cannot be added up at all: the report leaves its cash out, and says so against the ledger.
        #expect(differences.contains(.methodDoesNotAddUp(.cash, reportTaken: totals[3, default: 0], reportRefunded: totals[3, default: 0],
                                                         ledgerTaken: totals[1, default: 0] + totals[3, default: 0],
                                                         ledgerRefunded: totals[3, default: 0])))
        #expect(differences.contains(.methodDoesNotAddUp(.card, reportTaken: 20, reportRefunded: 0, ledgerTaken: 20, ledgerRefunded: 10)))
        #expect(differences.first { if case .moneyWithoutOrder = $0 { true } else { false } }?.description
            .contains("a payment of $45 by 街口支付 JKOPay is recorded for #99, but there is no such order") == true)
    }

    @Test func anOrderPaidTwiceIsNamedAndTheReportDoesNotAddUp() async throws {
        let fixture = try await ShopFixture()
        let totals = try await aDay(fixture)
        let one = totals[1, default: 0]
        try await addLedgerRow(fixture, order: 1, method: "card", amount: one, at: TestClock.noon.addingTimeInterval(300))
        let differences = try await check(fixture).differences
        #expect(differences.contains(.paidMoreThanBill(.pickup(1), paid: 2 * one, bill: one)))
        #expect(differences.contains(.salesDoNotAddUp(netSales: one + totals[2, default: 0] + totals[5, default: 0],
                                                      paidLessRefunded: 2 * one + 20, due: totals[2, default: 0] - 20 + totals[5, default: 0])))
        #expect(differences.contains { if case .copyDisagrees(.pickup(1), _, _, _, due: 0) = $0 { true } else { false } })
        #expect(differences.count == 3)
    }
}
