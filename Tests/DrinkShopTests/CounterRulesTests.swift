import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import PinHashing
import Testing
import TestSupport

/// The counter's rules, asked of `Shop.counter` as every front asks them: who may, and what an order's
/// money allows. Each refusal is a typed case in staff words, and a refused change writes nothing.
@Suite struct CounterRulesTests {
    let amy = Acting("Amy", role: .manager)
    let ken = Acting("Ken", role: .staff)
    let nobody = Acting("till", role: nil)

    private func place(_ fixture: ShopFixture, cups: Int = 1) async throws -> StoredOrder {
        try await fixture.shop.counter.place(OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)],
                                                                             quantity: cups)]), by: ken).order
    }

    /// A shop with PINs on: Amy a manager, Ken staff.
    private func shopWithPINs() async throws -> ShopFixture {
        let fixture = try await ShopFixture(pinHasher: try PINHasher(iterations: 1_000))
        _ = try await fixture.shop.staff.add("Amy", role: .manager)
        _ = try await fixture.shop.staff.add("Ken", role: .staff)
        try await fixture.shop.staff.setPIN(try PIN("1357"), for: "Amy")
        try await fixture.shop.staff.setPIN(try PIN("2468"), for: "Ken")
        return fixture
    }

    private func expectRefusal<T>(_ expected: TillError, _ work: () async throws -> T, sourceLocation: SourceLocation = #_sourceLocation) async {
        do {
            _ = try await work()
            Issue.record("expected \(expected)", sourceLocation: sourceLocation)
        } catch let error as TillError {
            #expect(error.description == expected.description, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected \(expected), got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func withPINsOnEveryChangeNeedsSomeoneLoggedInAndAManagersNeedsAManager() async throws {
        let fixture = try await shopWithPINs()
        let counter = fixture.shop.counter
        _ = try await place(fixture)
        _ = try await fixture.shop.drawer.open(float: 0, by: "Amy")
        // Before this layer, delete, redeem, invoice and advance checked nobody.
        await expectRefusal(.access(.loginRequired(.deleteOrder))) { try await counter.deletable(.pickup(1), by: nobody) }
        await expectRefusal(.access(.loginRequired(.redeemStamps))) { try await counter.redeem(.pickup(1), cups: 1, by: nobody) }
        await expectRefusal(.access(.loginRequired(.editOrder))) { try await counter.invoice(.pickup(1), nil, by: nobody) }
        await expectRefusal(.access(.loginRequired(.advanceOrder))) { try await counter.advance(.pickup(1), by: nobody) }
        await expectRefusal(.access(.loginRequired(.takePayment))) { try await counter.pay(.pickup(1), method: .card, tendered: nil, by: nobody) }
        await expectRefusal(.access(.managerRequired(.void))) { try await counter.void(.pickup(1), reason: "spilled", by: ken) }
        await expectRefusal(.access(.managerRequired(.soldOut))) { try await counter.changeMenu("熟成紅茶", .soldOut, by: ken) }
        await expectRefusal(.access(.managerRequired(.staffChanges))) { try await counter.addStaff("Zed", role: .staff, by: ken) }
        await expectRefusal(.access(.managerRequired(.changeSetting))) { try await counter.setPrinter(.label, to: nil, by: ken) }
        #expect(try await fixture.records("TillPayment").isEmpty)
        #expect(try await fixture.shop.orders.find(.pickup(1)).order.status == .placed)
        // Staff may cancel an unpaid order; a paid one is a void, which needs a manager.
        _ = try await place(fixture)
        _ = try await counter.pay(.pickup(2), method: .card, tendered: nil, by: ken)
        await expectRefusal(.access(.managerRequired(.void))) { try await counter.cancel(.pickup(2), reason: "left", by: ken) }
        #expect(try await fixture.shop.till.money(of: try await fixture.shop.orders.find(.pickup(2))).refunded == 0)
        let voided = try await counter.cancel(.pickup(2), reason: "left", by: amy)
        #expect(voided.refunds.map(\.amount) == [35])
        _ = try await counter.cancel(.pickup(1), reason: "left", by: ken)
    }

    @Test func withoutPINsAnyoneMayDoAnything() async throws {
        let fixture = try await ShopFixture()
        _ = try await place(fixture)
        _ = try await fixture.shop.counter.changeMenu("熟成紅茶", .price(.medium, 40), by: nobody)
        _ = try await fixture.shop.counter.advance(.pickup(1), by: nobody)
        _ = try await fixture.shop.counter.void(.pickup(1), reason: "test", by: nobody)
    }

    @Test func aPaidOrderIsNotEditedAdjustedOrDeletedAndEachRefusalSaysWhatToDo() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        let order = try await place(fixture)
        _ = try await counter.pay(.pickup(1), method: .card, tendered: nil, by: ken)
        let change = LineChangeDraft(options: [.sugar(.half)])
        await expectRefusal(.order(.paidOrderChange(.pickup(1), status: .placed, paid: 35))) {
            try await counter.edit(.pickup(1), line: nil, change: change, by: ken)
        }
        await expectRefusal(.order(.deleteHoldsMoney(.pickup(1), held: 35))) { try await counter.deletable(.pickup(1), by: ken) }
        // An adjustment code nobody seeded is named once, before the money is looked at.
        await expectRefusal(.unknownAdjustment("環保杯", known: [])) { try await counter.adjust(.pickup(1), uses: ["環保杯": 1], by: ken) }
        #expect(try await fixture.shop.orders.find(.pickup(1)).order.lines == order.order.lines)
        // Cancelled with its refund: the ledger keeps both, so the order stays for the report.
        _ = try await counter.cancel(.pickup(1), reason: "left", by: ken)
        await expectRefusal(.order(.paidOrderChange(.pickup(1), status: .cancelled, paid: 35))) {
            try await counter.edit(.pickup(1), line: nil, change: change, by: ken)
        }
        await expectRefusal(.order(.deleteHasLedger(.pickup(1)))) { try await counter.deletable(.pickup(1), by: ken) }
        #expect(try await fixture.records("TillPayment").count == 2)
        // An unpaid placed order is deleted.
        _ = try await place(fixture)
        let found = try await counter.deletable(.pickup(2), by: ken)
        _ = try await counter.delete(found, as: .pickup(2), lookingAgain: true, by: ken)
        await #expect(throws: ShopError.self) { try await fixture.shop.orders.find(.pickup(2)) }
    }

    @Test func aDeleteLooksAgainAfterTheQuestionAndIsRefusedOnceAnotherCounterTookMoney() async throws {
        let fixture = try await ShopFixture()
        _ = try await place(fixture)
        let found = try await fixture.shop.counter.deletable(.pickup(1), by: ken)
        // While staff were asked, another counter took the payment.
        _ = try await fixture.secondCounter().counter.pay(.pickup(1), method: .card, tendered: nil, by: amy)
        await expectRefusal(.order(.deleteHoldsMoney(.pickup(1), held: 35))) {
            try await fixture.shop.counter.delete(found, as: .pickup(1), lookingAgain: true, by: ken)
        }
        #expect(try await fixture.shop.orders.find(.pickup(1)).order.status == .placed)
    }

    @Test func redeemingNeedsAMembersOrder() async throws {
        let fixture = try await ShopFixture()
        _ = try await place(fixture)
        await expectRefusal(.order(.notAMembersOrder(.pickup(1)))) { try await fixture.shop.counter.redeem(.pickup(1), cups: 1, by: ken) }
    }

    @Test func refusalsUseStaffWordsNeverASwiftName() {
        let refusals: [TillError] = [
            .access(.managerRequired(.soldOut)), .access(.loginRequired(.staffChanges)), .access(.managerRequired(.changePrice)),
            .order(.paidOrderChange(.pickup(3), status: .ready, paid: 40)), .order(.deleteHasLedger(.pickup(3))),
            .unknownAdjustment("x", known: ["cup (環保杯)"]), .noStampCard, .noSuchPass("年卡", known: ["月卡"]),
            .periodReversed(first: "2026-12-02", last: "2026-12-01"),
        ]
        let identifiers = ShopAction.allCases.map(\.rawValue).filter { $0.contains(where: \.isUppercase) }
        for refusal in refusals {
            for identifier in identifiers { #expect(!refusal.description.contains(identifier), "\(refusal.description)") }
        }
    }

    @Test func aChangeWhoseAuditEntryCannotBeWrittenIsAnErrorNeverAWarning() async throws {
        let fixture = try await ShopFixture()
        // Over the API (no commit holds both): the staff change is made, then put back for want of its entry.
        let shop = Shop(store: AuditRefusingAPI(underlying: fixture.base), clock: fixture.clock.shopClock)
        await #expect(throws: TillError.self) { try await shop.counter.addStaff("Mei", role: .staff, by: amy) }
        do {
            _ = try await shop.counter.addStaff("Lin", role: .staff, by: amy)
            Issue.record("a change whose audit entry was refused was reported done")
        } catch {
            guard case .shop(.auditNotWrittenNothingChanged(let entry, let failure)) = error else { throw error }
            // The words staff read, whole: nothing changed, the trail could not record it, and what to do.
            #expect(entry.subject == "Lin" && error.description
                == "Lin was not changed: the audit trail could not record it (\(failure)); try again, or tell the manager (未變更，請重試或告知店長)")
        }
        #expect(try await fixture.shop.staff.accounts().isEmpty)
    }

    @Test func onTheEmbeddedStoreAMenuChangeAndItsAuditEntryAreOneCommit() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.shop.counter.changeMenu("熟成紅茶", .price(.medium, 40), by: amy)
        let entries = try await fixture.records("AuditLog")
        #expect(entries.count == 1 && entries.first?.fields["subject"]?.stringValue == "熟成紅茶")
        // A price that is not a change is refused: neither the drink nor the trail changes.
        let drinks = try await fixture.records("Drink").map(\.fields)
        await #expect(throws: TillError.self) { try await fixture.shop.counter.changeMenu("熟成紅茶", .price(.medium, 40), by: amy) }
        #expect(try await fixture.records("Drink").map(\.fields) == drinks)
        #expect(try await fixture.records("AuditLog").count == 1)
    }
}

/// Voids and cancellations are named the same in the daily report and the till's.
@Suite struct VoidNamingTests {
    @Test func aRefundedCancelAndAVoidAreVoidsInBothReportsAndAnUnpaidCancelIsACancellation() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        let ken = Acting("Ken", role: nil)
        let draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)])])
        for _ in 0..<3 { _ = try await counter.place(draft, by: ken) }
        _ = try await counter.pay(.pickup(1), method: .card, tendered: nil, by: ken)
        _ = try await counter.cancel(.pickup(1), reason: "left", by: ken)       // paid: a void, refunded
        _ = try await counter.advance(.pickup(2), by: ken)
        _ = try await counter.void(.pickup(2), reason: "spilled", by: ken)       // being made: a void
        _ = try await counter.cancel(.pickup(3), reason: "changed mind", by: ken) // unpaid: a cancellation
        let till = try await fixture.shop.till.report(try fixture.shop.till.period(from: "today", to: "today"))
        #expect(till.voids.map(\.pickupNumber) == [1, 2])
        #expect(till.cancellations.map(\.pickupNumber) == [3])
        let orders = try await fixture.shop.orders.today().orders
        let daily = DailyReport(days: DayRange(fixture.shop.clock.today), orders: orders.map(\.order),
                                moneyReturned: orders.map { !($0.till?.refundedBy.isEmpty ?? true) })
        #expect(daily.voids.map(\.number) == ["#1", "#2"])
        #expect(daily.cancellations.map(\.number) == ["#3"])
        #expect(daily.voidedOrders == till.voids.count && daily.cancelledOrders == till.cancellations.count)
    }
}

/// A group order's cups carry each person's name, not the organiser's.
@Suite struct GroupStickerTests {
    @Test func eachCupOfAGroupOrderNamesItsPerson() async throws {
        let fixture = try await ShopFixture()
        var draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.iceFree)]),
                                       fixture.line("熟成紅茶", [.size(.large), .sugar(.half), .ice(.less)], quantity: 2)])
        draft.orderName = "Amy"
        draft.lines[0].note = LinePerson.note(for: "Ben", "少一點奶")
        draft.lines[1].note = LinePerson.note(for: "Cara", nil)
        let stored = try await fixture.shop.counter.place(draft, by: Acting("online", role: nil)).order
        let labels = OrderPrintout.labels(for: stored)
        #expect(labels.map(\.customerName) == ["Ben", "Cara", "Cara"])
        #expect(labels.map(\.note) == ["少一點奶", nil, nil])
    }
}

/// An order from the page with the organiser's member number earns that member's stamps once paid, and
/// nothing else: the page proves nobody's number, so a pass's discount waits for the counter.
@Suite struct OnlineMemberTests {
    @Test func aPageOrderWithAMemberNumberEarnsStampsOncePaidButNoPassDiscount() async throws {
        let fixture = try await ShopFixture()
        let directory = try TemporaryDirectory()
        let program = try directory.file("members.json", contents: """
            {"stampCard": {"stampsPerReward": 5, "rewardSize": "中杯"},
             "passes": [{"name": "月卡", "days": 30, "price": 299, "percentOff": 10}]}
            """)
        _ = try await fixture.shop.seeder.seed(contentsOf: program)
        let mobile = try MobileNumber(parsing: "0912345678")
        _ = try await fixture.shop.counter.sellPass("月卡", to: mobile, by: Acting("Amy", role: nil))
        try await fixture.shop.counter.setOnlineOrdering(true, by: Acting("Amy", role: nil))
        let draft = OrderDraft(orderName: "Amy \(mobile.masked)",
                               lines: [fixture.line("熟成紅茶", [.size(.large), .sugar(.free), .ice(.iceFree)], quantity: 3)])
        let ticket = try await fixture.shop.counter.placeOnline(draft, member: mobile, within: .init(orders: 20))
        // The ticket tells the stamps the order earns once paid at the counter; the card has none of them yet.
        #expect(ticket.stamps == 3)
        #expect(try await fixture.shop.members.member(mobile).card.stamps == 0)
        // The bill is the order's own: no pass discount from the page.
        let stored = try await fixture.shop.orders.find(.pickup(ticket.number))
        #expect(try await fixture.shop.extras.charges(of: stored).total == stored.order.total)
        // Without a number, no member is touched.
        let plain = try await fixture.shop.counter.placeOnline(OrderDraft(lines: draft.lines), within: .init(orders: 20))
        #expect(plain.stamps == nil)
    }
}
