import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Testing
import TestSupport

/// Kept orders are numbered with their counter's letter (`A-P1`, `B-P1`), so two counters that keep orders at
/// once never give two customers the same slip; and once sent, the audit trail, the pickup screen and a reprint
/// follow the order from its kept number to its pickup number (`#14 (was A-P1)`).
@Suite struct CounterLetterTests {
    /// A counter over `fixture`'s base, behind its own plug, with its own outbox (another machine).
    struct Till {
        let flaky: FlakyStore
        let outbox: Outbox
        let shop: Shop

        init(on fixture: ShopFixture, outbox store: LocalBase? = nil, name: String) async throws {
            flaky = FlakyStore(fixture.base)
            outbox = Outbox(store: try store ?? LocalBase.inMemory(clock: fixture.clock.date), location: name)
            try await outbox.prepare()
            shop = Shop(store: flaky, clock: fixture.clock.shopClock, outbox: outbox)
            _ = try await shop.catalog.menu()
        }

        /// As `drinkshop` starts: whatever is kept is sent, and the first time the counter claims its letter.
        func start() async throws { _ = try await shop.orders.sendUnsent(force: true) }

        func order(_ name: String) async throws -> StoredOrder {
            try await shop.orders.place(OrderDraft(orderName: name, lines: [
                LineDraft(drink: "熟成紅茶", options: [.size(.medium), .sugar(.half), .ice(.less)], quantity: 1),
            ]), placedBy: "Ken")
        }
    }

    @Test func twoCountersKeepingOrdersAtOnceNeverHandOutTheSameKeptNumber() async throws {
        let fixture = try await ShopFixture()
        let first = try await Till(on: fixture, name: "counter-1")
        let second = try await Till(on: fixture, name: "counter-2")
        try await first.start()
        try await second.start()
        first.flaky.unplug()
        second.flaky.unplug()
        let one = try await first.order("Amy")
        let two = try await second.order("Bo")
        #expect(one.number == .provisional(1, counter: "A"))
        #expect(two.number == .provisional(1, counter: "B"))
        #expect(OrderPrintout.numberText(one) == "#A-P1" && OrderPrintout.numberText(two) == "#B-P1")
        // The letters are the base's: a restarted counter (a new process, its outbox kept) keeps its own.
        #expect(try await fixture.records(ShopSchema.counterLetterTable).count == 2)

        first.flaky.plugIn()
        second.flaky.plugIn()
        let sentFirst = try await first.shop.orders.sendUnsent(force: true).sent
        let sentSecond = try await second.shop.orders.sendUnsent(force: true).sent
        #expect(sentFirst.map(\.queuedAs) == [.provisional(1, counter: "A")])
        #expect(sentSecond.map(\.queuedAs) == [.provisional(1, counter: "B")])
        // The pickup screen shows each kept number beside its pickup number (`A-P1 → 1`).
        let tickets = try await fixture.shop.queue.pickupTickets().tickets
        #expect(Dictionary(uniqueKeysWithValues: tickets.map { ($0.number, $0.keptText) })
            == [try #require(sentFirst.first).pickupNumber: "A-P1", try #require(sentSecond.first).pickupNumber: "B-P1"])
        // Either slip finds its order, at either counter, once it is sent.
        let found = try await second.shop.orders.find(.provisional(1, counter: "A"))
        #expect(found.number == .pickup(try #require(sentFirst.first).pickupNumber))
        #expect(OrderPrintout.numberText(found) == "\(found.order.pickupNumber) (A-P1)")
    }

    @Test("a kept number reads as staff type it", arguments: [
        ("#A-P1", OrderNumber.provisional(1, counter: "A")), ("a-p1", .provisional(1, counter: "A")),
        ("#AP1", .provisional(1, counter: "A")), ("＃Ａ－Ｐ１", .provisional(1, counter: "A")),
        ("A–P12", .provisional(12, counter: "A")), ("#ab-p3", .provisional(3, counter: "AB")),
        ("P-P2", .provisional(2, counter: "P")), ("#K7Q-P2", .provisional(2, counter: "K7Q")),
        ("#P1", .provisional(1)), ("ｐ１", .provisional(1)), ("#12", .pickup(12)), ("１２", .pickup(12)),
    ])
    func keptNumbersReadAsStaffTypeThem(text: String, number: OrderNumber) {
        #expect(OrderNumber(parsing: text) == number)
        #expect(OrderNumber(parsing: number.description) == number, "\(number) reads back")
    }

    @Test("what is not a kept number is refused", arguments: ["#1-P1", "#ABCD-P1", "#A-P", "#A-P0", "#A-P1x", "#A-P+1", "#A--P1", "#é-P1", "#A P1"])
    func whatIsNotAKeptNumberIsRefused(text: String) {
        #expect(OrderNumber(parsing: text) == nil)
    }

    @Test func aNumberTypedWithoutItsLetterIsRefusedWhenTwoKeptOrdersHaveIt() async throws {
        let fixture = try await ShopFixture()
        let till = try await Till(on: fixture, name: "counter-1")
        till.flaky.unplug()
        // Kept before the counter ever reached the store (its own code), and refused by the store when sent.
        let first = try await till.order("refused")
        fixture.clock.advance(by: 86_400)
        till.flaky.plugIn()
        _ = try await till.shop.orders.sendUnsent(force: true)
        till.flaky.unplug()
        let second = try await till.order("Bo")
        #expect(second.number == .provisional(1, counter: "A"))
        fixture.clock.advance(by: 86_400)
        // Two earlier days' P1 wait on this counter: `#P1` names neither, and the refusal names both.
        let firstNumber = try #require(first.number).description
        await #expect { try await till.shop.orders.find(.provisional(1)) } throws: { error in
            guard case ShopError.ambiguousOrder = error else { return false }
            return "\(error)".contains("#A-P1") && "\(error)".contains(firstNumber)
        }
        #expect(try await till.shop.orders.find(.provisional(1, counter: "A")).order.orderName == "Bo")
    }

    @Test func manyCountersClaimingAtOnceAllGetDifferentLetters() async throws {
        let fixture = try await ShopFixture()
        let letters = try await withThrowingTaskGroup(of: String?.self) { group in
            for index in 0..<8 {
                group.addTask { try await CounterLetters(store: fixture.base).claim(for: "counter-\(index)") }
            }
            return try await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(letters.allSatisfy { $0 != nil })
        #expect(Set(letters).count == 8, "\(letters)")
    }

    @Test func lettersSkipThoseThatReadAsDigitsOrThePAndGoOnInTwos() {
        #expect((1...9).map(CounterLetters.letter) == ["A", "B", "C", "D", "E", "F", "G", "H", "J"])
        #expect(CounterLetters.letter(23) == "Z" && CounterLetters.letter(24) == "AA" && CounterLetters.letter(47) == "BA")
        #expect(!(1...600).map(CounterLetters.letter).contains { $0.contains("I") || $0.contains("O") || $0.contains("P") })
        // A counter's own code has a digit, so it is never a claimed letter, and reads back as one.
        var random = SystemRandomNumberGenerator()
        let own = CounterLetters.fallback(using: &random)
        #expect(own.count == 3 && own.contains { $0.isNumber })
        #expect(OrderNumber(parsing: "#\(own)-P2") == .provisional(2, counter: own))
    }

    @Test func aCounterThatNeverReachedTheStoreKeepsOrdersUnderACodeOfItsOwn() async throws {
        let fixture = try await ShopFixture()
        let till = try await Till(on: fixture, name: "counter-1")
        till.flaky.unplug()
        let kept = try await till.order("Amy")
        let again = try await till.order("Bo")
        guard case .provisional(1, let code?) = kept.number else { Issue.record("kept as \(String(describing: kept.number))"); return }
        #expect(CounterLetters.code(code) == code && code.contains { $0.isNumber })
        #expect(again.number == .provisional(2, counter: code), "the same code for every order it keeps")
        // Once it reaches the store it claims a letter for the orders it keeps from then on.
        till.flaky.plugIn()
        _ = try await till.shop.orders.sendUnsent(force: true)
        till.flaky.unplug()
        #expect(try await till.order("Cy").number == .provisional(3, counter: "A"))
    }

    @Test func afterSendingTheAuditTrailNamesTheOrderByItsPickupNumberAndWhatItWas() async throws {
        let fixture = try await ShopFixture()
        let till = try await Till(on: fixture, name: "counter-1")
        try await till.start()
        _ = try await till.order("first")
        till.flaky.unplug()
        _ = try await till.order("Amy")
        _ = try await till.shop.orders.edit(.provisional(1, counter: "A"), line: nil,
                                            change: LineChangeDraft(options: [.size(.large)]), by: "Ken")
        // The store answers again before the order is sent: what is done to it meanwhile waits with it.
        till.flaky.plugIn()
        fixture.clock.advance(by: 5)
        _ = try await till.shop.orders.cancel(.provisional(1, counter: "A"), reason: "left", by: "Ken")
        let sent = try await till.shop.orders.sendUnsent(force: true).sent
        #expect(sent.map(\.pickupNumber) == [2])
        let today = fixture.shop.clock.today
        let entries = try await fixture.shop.audit.entries(fromDay: today, throughDay: today)
        #expect(entries.map(\.subject) == ["#2 (was A-P1)", "#2 (was A-P1)"], "\(entries)")
        #expect(entries.map(\.action) == [.editOrder, .cancelOrder])
        #expect(!entries.contains { $0.subject.hasPrefix("#A-P1") || $0.subject.hasPrefix("#P1") })
    }

    @Test func anOutboxAnEarlierVersionFilledStillOpensAndSendsItsPNumbers() async throws {
        let fixture = try await ShopFixture()
        let local = try LocalBase.inMemory(clock: fixture.clock.date)
        // The line table as the previous version made it: no counter letter.
        var old = Outbox.schema[0]
        old.fields.removeAll { $0.name == OrderField.provisionalCounter.rawValue }
        _ = try await local.createTable(old)
        let till = try await Till(on: fixture, outbox: local, name: "counter-1")
        #expect(try await local.schema().table(Outbox.lineTable)?.field(OrderField.provisionalCounter.rawValue) != nil)
        // An order that version kept: a P number and no letter, as its slip says.
        till.flaky.unplug()
        _ = try await till.order("Amy")
        let rows = try await local.allRecords(in: Outbox.lineTable)
        _ = try await local.updateRecords(in: Outbox.lineTable, rows.map {
            RecordUpdate(id: $0.id, fields: Fields([OrderField.provisionalCounter: .null]))
        }, replace: false, options: WriteOptions())
        #expect(try await till.shop.orders.find(.provisional(1)).order.orderName == "Amy")
        #expect(try await till.shop.orders.today().orders.map(\.number) == [.provisional(1)])

        till.flaky.plugIn()
        let sent = try await till.shop.orders.sendUnsent(force: true).sent
        #expect(sent.map(\.queuedAs) == [.provisional(1)])
        let tickets = try await fixture.shop.queue.pickupTickets().tickets
        #expect(tickets.map(\.keptText) == ["P1"])
    }
}
