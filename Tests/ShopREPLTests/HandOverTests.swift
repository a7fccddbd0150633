@testable import DrinkShop
import DrinkShopCore
import Testing
@testable import ShopREPL

/// Handing over (ready → picked up) an order with money due: refused unasked, asked at a terminal, done
/// with --unpaid one-shot, and then in the audit trail and the day's report with who did it.
@Suite struct HandOverTests {
    @Test func anOrderWithMoneyDueIsNotHandedOverUnasked() async throws {
        let counter = try await Counter()
        await counter.run("order 熟成紅茶 M 無糖 少冰", "order 熟成紅茶 M 無糖 少冰", "pay #2 card")
        for _ in 0..<2 { await counter.run("advance #1", "advance #2") }
        // Ready; #1 unpaid: refused, nothing moved, and the message says both ways on.
        #expect(await counter.run("advance #1") == [.failed])
        #expect(counter.output.errors.contains("order #1 has $35 due (未付款)"))
        #expect(counter.output.errors.contains("pay #1") && counter.output.errors.contains("advance #1 --unpaid"))
        #expect(try await counter.interpreter.shop.orders.find(.pickup(1)).order.status == .ready)
        // Paid: handed over as before.
        #expect(await counter.run("advance #2") == [.succeeded])
        #expect(try await counter.interpreter.shop.orders.find(.pickup(2)).order.status == .pickedUp)
        // Said so: handed over, in the audit trail and the report with who did it.
        #expect(await counter.run("advance #1 --unpaid") == [.succeeded])
        #expect(try await counter.interpreter.shop.orders.find(.pickup(1)).order.status == .pickedUp)
        let entries = try await counter.interpreter.shop.audit.entries(fromDay: "2026-11-29", throughDay: "2026-11-29")
        #expect(entries.filter(\.isUnpaidHandover).map(\.subject) == ["#1"])
        await counter.run("report")
        #expect(counter.output.text.contains("Handed over unpaid (未付款取餐): #1 by counter ($35 due)"))
    }

    @Test func atATerminalStaffAreAskedAndNoKeepsTheOrder() async throws {
        let answers = AnswerQueue(["n", "y"])
        let asked = AnswerQueue([])
        let counter = try await Counter(confirm: { question in
            asked.push(question)
            return answers.pop() == "y"
        })
        await counter.run("order 熟成紅茶 M 無糖 少冰", "advance #1", "advance #1")
        #expect(await counter.run("advance #1") == [.failed])
        #expect(counter.output.errors.contains("stays ready with $35 due"))
        #expect(await counter.run("advance #1") == [.succeeded])
        #expect(asked.all == Array(repeating: "Order #1 has $35 due (未付款). Hand it over unpaid? [y/N] ", count: 2))
        #expect(try await counter.interpreter.shop.orders.find(.pickup(1)).order.status == .pickedUp)
    }
}
