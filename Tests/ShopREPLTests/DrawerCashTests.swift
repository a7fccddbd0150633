@testable import DrinkShop
import DrinkShopCore
import Testing
@testable import ShopREPL

/// Cash is never taken outside a shift: at a terminal the payment opens one with the float staff give;
/// without anyone to ask it is refused and nothing is recorded; after a close, cash waits for the next shift.
@Suite struct DrawerCashTests {
    @Test func aCashPaymentWithNoShiftAsksTheFloatAndOpensOne() async throws {
        let answers = AnswerQueue(["", "2000"])
        let asked = AnswerQueue([])
        let counter = try await Counter(ask: { question in
            asked.push(question)
            return answers.pop()
        })
        await counter.run("order 熟成紅茶 M 無糖 少冰", "order 熟成紅茶 M 無糖 少冰")
        // Card needs no drawer.
        #expect(await counter.run("pay #2 card") == [.succeeded])
        // No answer: no shift, no cash.
        #expect(await counter.run("pay #1 cash 100") == [.failed])
        #expect(counter.output.errors.contains("no shift is open"))
        #expect(try await counter.interpreter.shop.till.money(of: try await counter.interpreter.shop.orders.find(.pickup(1))).paid == 0)
        // A float: the shift opens, the cash goes into it, and the drawer expects float + cash taken.
        #expect(await counter.run("pay #1 cash 100") == [.succeeded])
        #expect(asked.all.count == 2 && asked.all.allSatisfy { $0.hasPrefix("No shift is open (未開班). Cash float") })
        #expect(counter.output.text.contains("with a float of $2000 (開班)"))
        #expect(counter.output.text.contains("change $65"))
        let (shift, expected) = try await counter.interpreter.shop.drawer.expected()
        #expect(shift.float == 2000 && expected == 2035)
    }

    @Test func withNobodyToAskCashIsRefusedUntilAShiftIsOpenAndAfterTheClose() async throws {
        let counter = try await Counter()
        await counter.run("order 熟成紅茶 M 無糖 少冰", "order 熟成紅茶 M 無糖 少冰")
        #expect(await counter.run("pay #1 cash 100") == [.failed])
        #expect(counter.output.errors.contains("open one with its float first (shift open FLOAT)"))
        #expect(await counter.run("shift open 1000", "pay #1 cash 100", "close 1035") == [.succeeded, .succeeded, .succeeded])
        // The drawer is counted: cash now belongs to the next shift, which is not open.
        #expect(await counter.run("pay #2 cash 35") == [.failed])
        let ledger = try await counter.base.allRecords(in: ShopSchema.paymentTable)
        #expect(ledger.count == 1)
    }
}

@Suite struct PhoneLikeNameTests {
    @Test func aPhoneLikeNameThatIsNoMobileNumberIsQuestionedNotTakenAsAName() async throws {
        let counter = try await Counter()
        #expect(await counter.run("order 熟成紅茶 M 無糖 少冰 for 091234567") == [.failed])
        #expect(counter.output.errors.contains("\"091234567\" is not a mobile number: it has 9 digits, not 10"))
        #expect(try await counter.base.allRecords(in: ShopSchema.orderTable).isEmpty)
        // A real number is a member's order; a name with a digit or two stays a name.
        #expect(await counter.run("order 熟成紅茶 M 無糖 少冰 for 0912-345-678", "order 熟成紅茶 M 無糖 少冰 for Amy 2") == [.succeeded, .succeeded])
        #expect(counter.output.text.contains("0912-***-678"))
    }
}
