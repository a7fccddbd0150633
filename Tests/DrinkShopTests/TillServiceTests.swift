import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
import TestSupport
import Testing

@Suite struct TillServiceTests {
    private func place(_ fixture: ShopFixture, _ drink: String = "熟成紅茶", size: CupSize = .medium, cups: Int = 1) async throws
        -> StoredOrder
    {
        try await fixture.shop.orders.place(OrderDraft(lines: [fixture.line(drink, [.size(size), .sugar(.free), .ice(.iceFree)],
                                                                            quantity: cups)]), placedBy: "Ken")
    }

    @Test func cashAnswersTheChangeAndPartsAddUpToPaid() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.drawer.open(float: 0, by: "Ken")  // cash goes into an open shift
        let order = try await place(fixture, cups: 2)   // 2 × 35, the second half price: 53
        #expect(order.order.total == 53)
        let first = try await fixture.shop.till.pay(.pickup(1), method: .card, tendered: 30, by: "Ken")
        #expect(first.money.state == .partlyPaid(paid: 30, due: 23))
        let second = try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 100, by: "Ken")
        #expect(second.payment.change == 77)
        #expect(second.payment.amount == 23)
        #expect(second.money.state == .paid)
        let stored = try await fixture.records("TillPayment")
        #expect(stored.count == 2)
        #expect(Set(stored.compactMap { $0.fields["orderRef"]?.stringValue }) == [order.orderRef])
        // Read back from the store by another counter.
        let other = fixture.secondCounter()
        let money = try await other.till.money(of: try await other.orders.find(.pickup(1)))
        #expect(money.paid == 53 && money.state == .paid)
    }

    @Test func aRefusedPaymentWritesNothing() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.drawer.open(float: 0, by: "Ken")  // cash goes into an open shift
        _ = try await place(fixture)
        await #expect(throws: TillError.self) { try await fixture.shop.till.pay(.pickup(1), method: .linePay, tendered: 500, by: "Ken") }
        await #expect(throws: TillError.self) { try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 0, by: "Ken") }
        await #expect(throws: TillError.self) { try await fixture.shop.till.pay(.pickup(9), method: .cash, tendered: 50, by: "Ken") }
        #expect(try await fixture.records("TillPayment").isEmpty)
        _ = try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 35, by: "Ken")
        do {
            _ = try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 35, by: "Ken")
            Issue.record("an order paid in full took more money")
        } catch {
            guard case TillError.payment(.alreadyPaid(order: 1, total: 35)) = error else {
                Issue.record("not refused as already paid: \(error)")
                return
            }
        }
        #expect(try await fixture.records("TillPayment").count == 1)
    }

    @Test func aVoidRefundsEachMethodAndTheReportListsIt() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.drawer.open(float: 0, by: "Ken")  // cash goes into an open shift
        _ = try await place(fixture, cups: 2)
        _ = try await fixture.shop.till.pay(.pickup(1), method: .easyCard, tendered: 20, by: "Ken")
        _ = try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 100, by: "Ken")
        // Cancelling a paid order is a void through the counter: what was paid goes back, each method.
        let refunds = try await fixture.shop.counter.cancel(.pickup(1), reason: "spilled", by: Acting("Amy", role: nil)).refunds
        #expect(Set(refunds.map { "\($0.method.rawValue) \($0.amount)" }) == ["cash 33", "easyCard 20"])
        let period = try fixture.shop.till.period(from: "today", to: "today")
        let report = try await fixture.shop.till.report(period)
        #expect(report.voids.count == 1)
        #expect(report.voids.first?.reason == "spilled")
        #expect(report.byMethod[.cash]?.net == 0)
        // A second void of the same order is refused and refunds nothing more.
        await #expect(throws: TillError.self) { try await fixture.shop.counter.void(.pickup(1), reason: "again", by: Acting("Amy", role: nil)) }
        #expect(try await fixture.records("TillPayment").count == 4)
        // A cancelled order takes no money.
        await #expect(throws: TillError.self) { try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 10, by: "Ken") }
    }

    @Test func menuControlIsWrittenForEveryCounter() async throws {
        let fixture = try await ShopFixture()
        let (change, drink) = try await fixture.shop.menuControl.change("熟成紅茶", .soldOut)
        #expect(change == .soldOut(drink: "熟成紅茶") && !drink.available)
        let other = fixture.secondCounter()
        #expect(try await other.catalog.menu(refresh: true).drink(named: "熟成紅茶")?.available == false)
        await #expect(throws: ShopError.self) { try await place(fixture) }
        _ = try await fixture.shop.menuControl.change("熟成紅茶", .restock)
        _ = try await fixture.shop.menuControl.change("熟成紅茶", .price(.medium, 40))
        #expect(try await other.catalog.menu(refresh: true).drink(named: "熟成紅茶")?.mediumPrice == 40)
        let before = try await fixture.records("Drink").map(\.fields)
        for request in [MenuControl.Request.price(.medium, -1), .price(.medium, 40), .restock] {
            await #expect(throws: TillError.self) { try await fixture.shop.menuControl.change("熟成紅茶", request) }
        }
        await #expect(throws: TillError.self) { try await fixture.shop.menuControl.change("no such tea", .soldOut) }
        #expect(try await fixture.records("Drink").map(\.fields) == before)
    }

    @Test func theDrawerCountsFloatPlusCashLessRefunds() async throws {
        let fixture = try await ShopFixture()
        await #expect(throws: TillError.self) { try await fixture.shop.drawer.close(counted: 100, by: "Ken") }
        _ = try await fixture.shop.drawer.open(float: 2000, by: "Ken")
        await #expect(throws: TillError.self) { try await fixture.shop.drawer.open(float: 100, by: "Amy") }
        await #expect(throws: TillError.self) { try await fixture.shop.drawer.close(counted: -1, by: "Ken") }
        _ = try await place(fixture)
        _ = try await place(fixture)
        _ = try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 100, by: "Ken")   // 35, change 65
        _ = try await fixture.shop.till.pay(.pickup(2), method: .card, tendered: 35, by: "Ken")
        _ = try await fixture.shop.counter.cancel(.pickup(1), reason: "wrong drink", by: Acting("Ken", role: nil))
        _ = try await place(fixture)
        _ = try await fixture.shop.till.pay(.pickup(3), method: .cash, tendered: 35, by: "Ken")
        let count = try await fixture.shop.drawer.close(counted: 2030, by: "Amy")
        #expect(count.expected == 2000 + 35 - 35 + 35)
        #expect(count.difference == -5 && count.summary == "short 5")
        #expect(try await fixture.shop.drawer.current() == nil)
        let period = try fixture.shop.till.period(from: "today", to: "today")
        let counts = try await fixture.shop.drawer.counts(from: period.start, to: period.end)
        #expect(counts.map(\.difference) == [-5])
    }

    @Test func adjustmentsFromTheSeedPriceTheBillApartFromPromotions() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.drawer.open(float: 0, by: "Ken")  // cash goes into an open shift
        let directory = try TemporaryDirectory()
        let path = try directory.file("till.json", contents: """
            {"adjustments": [{"name":"環保杯","code":"cup","kind":"perCup","amount":-5},
                             {"name":"塑膠袋","code":"bag","kind":"perItem","amount":2}]}
            """)
        let seeded = try await fixture.shop.seeder.seed(contentsOf: path)
        #expect(seeded.adjustments == 2)
        let order = try await place(fixture, cups: 2)
        let charges = try await fixture.shop.extras.adjust(order, uses: ["cup": 2, "bag": 1])
        #expect(charges.total == 53 - 10 + 2)
        #expect(charges.promotion?.name == "第二杯半價")
        await #expect(throws: TillError.self) { try await fixture.shop.extras.adjust(order, uses: ["cup": 3]) }
        await #expect(throws: TillError.self) { try await fixture.shop.extras.adjust(order, uses: ["nope": 1]) }
        let receipt = try await fixture.shop.till.pay(.pickup(1), method: .cash, tendered: 100, by: "Ken")
        #expect(receipt.money.total == 45 && receipt.payment.change == 55)
        let report = try await fixture.shop.till.report(try fixture.shop.till.period(from: "today", to: "today"))
        #expect(report.adjustments["環保杯"] == ReportTotals(count: 2, amount: -10))
        #expect(report.adjustments["塑膠袋"] == ReportTotals(count: 1, amount: 2))
    }

    @Test func invoiceDetailsAreCheckedAndStoredOnTheOrder() async throws {
        let fixture = try await ShopFixture()
        let order = try await place(fixture)
        try await fixture.shop.extras.setInvoice(try InvoiceDetails(parsing: "/ABC1234"), of: order)
        #expect(try await fixture.shop.extras.extra(of: order.orderRef).invoice?.value == "/ABC1234")
        #expect(throws: InvoiceDetailsError.self) { try InvoiceDetails(parsing: "12345678") }
        let csv = try await fixture.shop.till.export(try fixture.shop.till.period(from: "today", to: "today"))
        #expect(csv.orders.bytes.starts(with: [0xEF, 0xBB, 0xBF]))
        #expect(csv.orders.text.contains("/ABC1234"))
    }

    @Test func pinsAreHashedAndALockoutSurvivesARestart() async throws {
        let hasher = try PINHasher(iterations: 1_000)
        let directory = try TemporaryDirectory()
        let path = directory.path + "/shop.sqlite"
        let fixture = try await ShopFixture(path: path, pinHasher: hasher)
        _ = try await fixture.shop.staff.add("Ken", role: .staff)
        await #expect(throws: TillError.self) { try await fixture.shop.staff.setPIN(try PIN("2468"), for: "Ken") }
        _ = try await fixture.shop.staff.add("Amy", role: .manager)
        #expect(try await !fixture.shop.staff.pinsEnabled())
        try await fixture.shop.staff.setPIN(try PIN("1357"), for: "Amy")
        #expect(try await fixture.shop.staff.pinsEnabled())
        let cells = try await fixture.records("User").map { "\($0.fields)" }.joined()
        #expect(!cells.contains("1357") && cells.contains("$pbkdf2-sha256$"))
        let amy = try await fixture.shop.staff.verify(try PIN("1357"), for: "Amy", at: fixture.clock.now)
        #expect(amy.role == .manager)
        for _ in 1...5 {
            await #expect(throws: TillError.self) { try await fixture.shop.staff.verify(try PIN("0000"), for: "Amy", at: fixture.clock.now) }
        }
        // A restarted counter on the same file still refuses, even the right PIN, until the lock ends.
        let restarted = Shop(store: fixture.base, clock: fixture.clock.shopClock, pinHasher: hasher)
        do {
            _ = try await restarted.staff.verify(try PIN("1357"), for: "Amy", at: fixture.clock.now)
            Issue.record("a locked account was let in")
        } catch {
            guard case TillError.login(.locked) = error else {
                Issue.record("not refused as locked: \(error)")
                return
            }
        }
        fixture.clock.advance(by: 301)
        #expect(try await restarted.staff.verify(try PIN("1357"), for: "Amy", at: fixture.clock.now).name == "Amy")
    }

    @Test func anOlderStoreGainsTheTillTablesAndKeepsItsOrders() async throws {
        let fixture = try await ShopFixture()
        _ = try await place(fixture)
        // An earlier version's base: drop the till's tables and fields by building one without them.
        let old = try LocalBase.inMemory(clock: { fixture.clock.now })
        for spec in [ShopSchema.drink, ShopSchema.order, ShopSchema.promotion, ShopSchema.ticket] { _ = try await old.createTable(spec) }
        var user = ShopSchema.user
        user.fields = user.fields.filter { $0.name == "name" || $0.name == "role" }
        _ = try await old.createTable(user)
        _ = try await old.createRecord(in: "User", ["name": "Ken", "role": "staff"], options: WriteOptions())
        let shop = Shop(store: old, clock: fixture.clock.shopClock)
        let missing = try await shop.missingSchema()
        #expect(missing.contains("table TillPayment") && missing.contains("field User.pinHash (singleLineText)"))
        _ = try await shop.createMissingSchema()
        #expect(try await shop.missingSchema().isEmpty)
        #expect(try await shop.staff.account(named: "Ken").role == .staff)
        _ = try await shop.staff.add("Ken", role: .manager)
        #expect(try await old.allRecords(in: "User").count == 1)
    }
}

@Suite struct MemberServiceTests {
    private func seedProgram(_ fixture: ShopFixture, _ directory: borrowing TemporaryDirectory) async throws {
        let path = try directory.file("members.json", contents: """
            {"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"},
             "passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10}]}
            """)
        let report = try await fixture.shop.seeder.seed(contentsOf: path)
        #expect(report.memberProgram == ["passes", "stampCard"])
    }

    private func place(_ fixture: ShopFixture, cups: Int, size: CupSize = .medium) async throws -> StoredOrder {
        try await fixture.shop.orders.place(OrderDraft(orderName: "0912-***-678", lines: [
            fixture.line("熟成紅茶", [.size(size), .sugar(.free), .ice(.iceFree)], quantity: cups),
        ]), placedBy: "Ken")
    }

    @Test func stampsAreEarnedOncePaidAndRedeemedAndApplyingTwiceIsHarmless() async throws {
        let fixture = try await ShopFixture()
        let directory = try TemporaryDirectory()
        try await seedProgram(fixture, directory)
        let mobile = try MobileNumber(parsing: "0912345678")
        let first = try await place(fixture, cups: 6)
        _ = try await fixture.shop.members.apply(to: first, mobile: mobile, freeCups: 0, money: nil)
        _ = try await fixture.shop.members.apply(to: first, mobile: mobile, freeCups: 0, money: nil)
        #expect(try await fixture.shop.members.member(mobile).card.stamps == 0)
        _ = try await fixture.shop.counter.pay(.pickup(first.order.pickupNumber), method: .card, tendered: nil, by: Acting("Ken", role: nil))
        #expect(try await fixture.shop.members.member(mobile).card.stamps == 6)
        let second = try await place(fixture, cups: 1)
        let (member, charges, _) = try await fixture.shop.members.apply(to: second, mobile: mobile, freeCups: 1, money: nil)
        #expect(member.card.stamps == 6 - 5)
        #expect(charges.total == 0)
        // Not enough stamps: refused, the card unchanged.
        let third = try await place(fixture, cups: 1)
        await #expect(throws: TillError.self) { try await fixture.shop.members.apply(to: third, mobile: mobile, freeCups: 1, money: nil) }
        #expect(try await fixture.shop.members.member(mobile).card.stamps == 1)
        let report = try await fixture.shop.till.report(try fixture.shop.till.period(from: "today", to: "today"))
        #expect(report.stampsRedeemed == 5 && report.freeCups.count == 1)
    }

    @Test func aPassIsBoughtUsedAndRefusedOnceExpired() async throws {
        let fixture = try await ShopFixture()
        let directory = try TemporaryDirectory()
        try await seedProgram(fixture, directory)
        let mobile = try MobileNumber(parsing: "0912345678")
        await #expect(throws: TillError.self) { try await fixture.shop.members.buyPass("年卡", for: mobile) }
        _ = try await fixture.shop.members.buyPass("月卡", for: mobile)
        await #expect(throws: TillError.self) { try await fixture.shop.members.buyPass("月卡", for: mobile) }
        let order = try await place(fixture, cups: 1, size: .large)
        let (_, charges, note) = try await fixture.shop.members.apply(to: order, mobile: mobile, freeCups: 0, money: nil)
        #expect(charges.memberDiscounts == [.pass(name: "月卡", amount: order.order.total / 10)])
        #expect(note == nil)
        // 31 days on, the pass has expired: no discount, and it says why.
        fixture.clock.advance(by: 31 * 86_400)
        let later = try await place(fixture, cups: 1, size: .large)
        let (_, laterCharges, laterNote) = try await fixture.shop.members.apply(to: later, mobile: mobile, freeCups: 0, money: nil)
        #expect(laterCharges.memberDiscounts.isEmpty)
        #expect(laterNote?.contains("expired") == true)
        _ = try await fixture.shop.members.buyPass("月卡", for: mobile)
    }
}

@Suite struct PINBurstTests {
    @Test("20 wrong PINs at once: each is counted before it is compared, so five are compared and the lock holds")
    func aBurstIsCountedBeforeItIsCompared() async throws {
        let hasher = try PINHasher(iterations: 1_000)
        let fixture = try await ShopFixture(pinHasher: hasher)
        _ = try await fixture.shop.staff.add("Amy", role: .manager)
        try await fixture.shop.staff.setPIN(try PIN("1357"), for: "Amy")
        let shop = fixture.shop
        let now = fixture.clock.now
        let refusals = await withTaskGroup(of: String.self) { group in
            for guess in 0..<20 {
                group.addTask {
                    do {
                        _ = try await shop.staff.verify(try PIN("30\(10 + guess)"), for: "Amy", at: now)
                        return "let in"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let left = refusals.filter { $0.contains("left before a lockout") }
        #expect(Set(left) == Set([4, 3, 2].map { "wrong PIN; \($0) tries left before a lockout (PIN 錯誤)" } + ["wrong PIN; 1 try left before a lockout (PIN 錯誤)"]))
        #expect(left.count == 4)
        #expect(refusals.filter { $0.contains("locked") }.count == 16)
        await #expect(throws: TillError.self) { try await shop.staff.verify(try PIN("1357"), for: "Amy", at: now) }
    }
}

@Suite struct ConcurrentPaymentTests {
    @Test("counters paying one order at the same instant: exactly one payment, the others told already paid")
    func oneOrderIsPaidOnce() async throws {
        let fixture = try await ShopFixture()
        let shop = fixture.shop
        for round in 1...5 {
            let order = try await shop.orders.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)],
                                                                                    quantity: 2)]), placedBy: "Ken")
            // Each counter found the order (unpaid) before any of them paid, as two counters do.
            let found = try await shop.orders.find(.pickup(round))
            let outcomes = await withTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        do {
                            _ = try await shop.till.pay(found, as: .pickup(round), method: index % 2 == 0 ? .card : .linePay,
                                                        tendered: nil, by: "Ken")
                            return "paid"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "paid" }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0.contains("already paid") }.count == 7, "\(outcomes)")
            let ledger = try await fixture.records(ShopSchema.paymentTable)
                .filter { $0.fields["orderRef"]?.stringValue == order.orderRef }
            #expect(ledger.count == 1)
            #expect(ledger.first?.fields["amount"]?.intValue == order.order.total)
            let money = try await shop.till.money(of: try await shop.orders.find(.pickup(round)))
            #expect(money.paid == order.order.total && money.due == 0)
        }
    }
}

/// Over the API (no transactions: Airtable, `drinkshop serve`), on a store whose calls interleave: the
/// claim rule of `Till.payOverTheAPI` leaves exactly one payment, whatever the timing.
@Suite struct ConcurrentRemotePaymentTests {
    @Test("counters paying one order at the same instant over the API: exactly one payment in 20 rounds", arguments: [false, true])
    func oneOrderIsPaidOnceWithoutTransactions(wholeSeconds: Bool) async throws {
        let fixture = try await ShopFixture()
        // Creation times in milliseconds, or whole seconds as real Airtable records often show (payments tie).
        let base = try LocalBase.inMemory(clock: {
            wholeSeconds ? Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)) : Date()
        })
        let setup = Shop(store: base, clock: fixture.clock.shopClock)
        try await setup.createMissingSchema()
        _ = try await setup.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        let store = RacyUpsertStore(base)
        let counters = (0..<4).map { _ in Shop(store: store, clock: fixture.clock.shopClock) }
        #expect(store.atomicStore == nil)
        var lost = 0
        for round in 1...20 {
            let order = try await counters[0].orders.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)],
                                                                                             quantity: 2)]), placedBy: "Ken")
            let outcomes = await withTaskGroup(of: String.self) { group in
                for index in 0..<6 {
                    let shop = counters[index % counters.count]
                    group.addTask {
                        do {
                            _ = try await shop.counter.pay(.pickup(order.order.pickupNumber), method: index % 2 == 0 ? .card : .linePay,
                                                           tendered: nil, by: Acting("Ken", role: nil))
                            return "paid"
                        } catch {
                            return "\(error)"
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "paid" }.count == 1, "round \(round): \(outcomes)")
            #expect(outcomes.filter { $0.contains("already paid") }.count == 5, "round \(round): \(outcomes)")
            lost += outcomes.filter { $0 != "paid" }.count
            let ledger = try await base.allRecords(in: ShopSchema.paymentTable)
                .filter { $0.fields["orderRef"]?.stringValue == order.orderRef }
            #expect(ledger.count == 1, "round \(round)")
            #expect(ledger.first?.fields["amount"]?.intValue == order.order.total)
            let money = try await counters[1].till.moneyForChange(of: try await counters[1].orders.find(.pickup(order.order.pickupNumber)))
            #expect(money.paid == order.order.total && money.due == 0)
            // The copy on the order never says more than the ledger: a counter refused while a rival's payment
            // was still in the ledger (about to give way) does not write that into it.
            let copies = try await base.allRecords(in: ShopSchema.orderTable)
                .filter { $0.fields["orderRef"]?.stringValue == order.orderRef }.map { $0.fields["paid"]?.intValue }
            #expect(copies.allSatisfy { $0 == order.order.total }, "round \(round): the order's copy says paid \(copies)")
        }
        #expect(lost == 20 * 5)
    }

    @Test("a part payment and a full one at the same instant over the API never take more than the bill")
    func partAndFullPaymentsNeverOverpay() async throws {
        let fixture = try await ShopFixture()
        let base = try LocalBase.inMemory(clock: { Date() })
        let setup = Shop(store: base, clock: fixture.clock.shopClock)
        try await setup.createMissingSchema()
        _ = try await setup.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        let store = RacyUpsertStore(base)
        let counters = (0..<3).map { _ in Shop(store: store, clock: fixture.clock.shopClock) }
        for _ in 1...10 {
            let order = try await counters[0].orders.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)],
                                                                                             quantity: 3)]), placedBy: "Ken")
            let number = OrderNumber.pickup(order.order.pickupNumber)
            await withTaskGroup(of: Void.self) { group in
                for (index, tendered) in [Optional(20), nil, Optional(30)].enumerated() {
                    let shop = counters[index]
                    group.addTask { _ = try? await shop.counter.pay(number, method: .card, tendered: tendered, by: Acting("Ken", role: nil)) }
                }
            }
            let ledger = try await base.allRecords(in: ShopSchema.paymentTable)
                .filter { $0.fields["orderRef"]?.stringValue == order.orderRef }
            let taken = ledger.compactMap { $0.fields["amount"]?.intValue }.reduce(0, +)
            #expect(taken <= order.order.total, "\(taken) taken for a bill of \(order.order.total)")
            #expect(taken > 0)
        }
    }
}

/// A void (or a cancel) and a payment of one order at the same instant, from two counters: whatever the
/// timing, money taken for a cancelled order is given back, and the books balance.
@Suite struct PayAgainstVoidTests {
    @Test("a payment and a void at the same instant: the books balance every round", arguments: [false, true])
    func payAndVoidAtOnce(overTheAPI: Bool) async throws {
        let fixture = try await ShopFixture()
        let store: any RecordStore = overTheAPI ? RacyUpsertStore(fixture.base) : fixture.base
        let payer = Shop(store: store, clock: fixture.clock.shopClock)
        let voider = Shop(store: store, clock: fixture.clock.shopClock)
        let ken = Acting("Ken", role: nil)
        var paidAndRefunded = 0
        for round in 1...12 {
            let order = try await payer.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                      by: ken).order
            let number = OrderNumber.pickup(order.order.pickupNumber)
            _ = try await voider.counter.advance(number, by: ken)
            async let paying: Void = { _ = try? await payer.counter.pay(number, method: .card, tendered: nil, by: ken) }()
            async let voiding: Void = { _ = try? await voider.counter.void(number, reason: "spilled", by: ken) }()
            _ = await (paying, voiding)
            let ledger = try await fixture.base.allRecords(in: ShopSchema.paymentTable)
                .filter { $0.fields["orderRef"]?.stringValue == order.orderRef }
            let paid = ledger.filter { $0.fields["kind"]?.stringValue == "payment" }.compactMap { $0.fields["amount"]?.intValue }.reduce(0, +)
            let refunded = ledger.filter { $0.fields["kind"]?.stringValue == "refund" }.compactMap { $0.fields["amount"]?.intValue }.reduce(0, +)
            let now = try await payer.orders.find(number)
            #expect(now.order.status == .cancelled, "round \(round)")
            #expect(paid == refunded, "round \(round): paid \(paid), refunded \(refunded)")
            if paid > 0 { paidAndRefunded += 1 }
        }
        let books = try await fixture.shop.books.check(try fixture.shop.till.period(from: "today", to: "today"))
        #expect(books.differences.isEmpty, "\(books.differences)")
        _ = paidAndRefunded
    }
}

/// A drawer close and cash payments at the same instant: each payment is counted by the close or refused
/// for want of an open shift, so the count's expected cash is the ledger's.
@Suite struct CloseAgainstCashTests {
    @Test func aCloseAndCashPaymentsAtOnceAgreeWithTheLedger() async throws {
        let fixture = try await ShopFixture()
        let ken = Acting("Ken", role: nil)
        let counters = (0..<4).map { _ in Shop(store: fixture.base, clock: fixture.clock.shopClock) }
        for round in 1...5 {
            // Each round a minute on: the books find a count's cash by time (opened to closed), and on a clock that never
            // moves every round's shift would span every round's payments (a round whose close came before any payment
            // was then charged with the next round's cash, once, under load).
            fixture.clock.advance(by: 60)
            _ = try await fixture.shop.counter.openShift(float: 1000, by: ken)
            var numbers: [OrderNumber] = []
            for _ in 0..<4 {
                let order = try await fixture.shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])]),
                                                                 by: ken).order
                numbers.append(.pickup(order.order.pickupNumber))
            }
            await withTaskGroup(of: Void.self) { group in
                for (index, number) in numbers.enumerated() {
                    group.addTask { _ = try? await counters[index].counter.pay(number, method: .cash, tendered: 100, by: ken) }
                }
                group.addTask { _ = try? await fixture.shop.counter.closeDrawer(counted: 1000, by: ken) }
            }
            if try await fixture.shop.drawer.current() != nil {
                _ = try await fixture.shop.counter.closeDrawer(counted: 1000, by: ken)  // the close lost the race to nothing: close now
            }
            let books = try await fixture.shop.books.check(try fixture.shop.till.period(from: "today", to: "today"))
            #expect(books.differences.isEmpty, "round \(round): \(books.differences)")
        }
    }
}
