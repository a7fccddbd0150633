import Airtable
@testable import DrinkShop
import DrinkShopCore
import Foundation
import LocalBase
import Testing

@Suite struct OrderWorkflowTests {
    @Test func placingStoresOneKEBUKEShapedRecordPerLine() async throws {
        let fixture = try await ShopFixture()
        let draft = OrderDraft(orderName: "Amy", lines: [
            fixture.line("白玉歐蕾", [.size(.large), .sugar(.half), .ice(.less)], quantity: 2),
            fixture.line("熟成紅茶", [.size(.medium), .sugar(.free), .ice(.hot), .addOn(.whiteTapioca)], note: "去冰塊"),
        ])
        let stored = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        #expect(stored.order.pickupNumber == 1)
        #expect(stored.order.subtotal == 70 * 2 + 45)
        let records = try await fixture.records("OrderDrink").sorted { ($0.fields["line"]?.intValue ?? 0) < ($1.fields["line"]?.intValue ?? 0) }
        #expect(records.count == 2)
        let first = records[0].fields
        #expect(first["drinkName"] == "白玉歐蕾" && first["size"] == "大杯" && first["ice"] == "少冰" && first["sugar"] == "半糖")
        #expect(first["price"] == 140 && first["numberOfCups"] == 2 && first["unitPrice"] == 70)
        #expect(first["orderName"] == "Amy" && first["placedBy"] == "Ken" && first["status"] == "placed")
        #expect(first["pickupNumber"] == 1 && first["businessDay"] == "2026-11-29")
        #expect(records[1].fields["addOns"] == ["加白玉"] && records[1].fields["note"] == "去冰塊")
        // The stored discount of each line adds up to the order's discount.
        let discounts = records.compactMap { $0.fields["discount"]?.intValue }.reduce(0, +)
        #expect(discounts == stored.order.discount && stored.order.discount > 0)
        #expect(first["ref"]?.stringValue?.hasPrefix(stored.orderRef) == true)
    }

    @Test func pickupNumbersCountUpAndStayUniqueAcrossCounters() async throws {
        let fixture = try await ShopFixture()
        // On the real clock, as every store is: a claim is decided by which ticket was created first.
        let base = try LocalBase.inMemory()
        let first = Shop(store: base, clock: fixture.clock.shopClock)
        try await first.createMissingSchema()
        _ = try await first.seeder.seed(contentsOf: ShopFixture.seeds + "/menu.json")
        let other = Shop(store: base, clock: fixture.clock.shopClock)
        let draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        let numbers = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                let shop = index.isMultiple(of: 2) ? first : other
                group.addTask { try await shop.orders.place(draft, placedBy: "Ken").order.pickupNumber }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        // Claims made in the same instant may both give way and leave a number unused: gaps, never duplicates.
        #expect(Set(numbers).count == 20)
    }

    @Test func aNewBusinessDayStartsAgainAtOne() async throws {
        let fixture = try await ShopFixture()
        let draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        _ = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        _ = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        fixture.clock.advance(by: 86_400)
        let tomorrow = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        #expect(tomorrow.order.pickupNumber == 1)
        // Today's first; yesterday's, still open, after it with their day.
        let (orders, _) = try await fixture.shop.orders.today()
        #expect(orders.map(\.order.pickupNumber) == [1, 1, 2])
        #expect(orders.map(\.businessDay) == ["2026-11-30", "2026-11-29", "2026-11-29"])
    }

    @Test func unknownAndAmbiguousDrinksAreExplained() async throws {
        let fixture = try await ShopFixture()
        let typo = OrderDraft(lines: [fixture.line("白玉歐雷", [.size(.large), .sugar(.half), .ice(.less)])])
        // The staff's words (what was typed, what it may be) are compared whole: they are the explanation.
        await #expect { try await fixture.shop.orders.place(typo, placedBy: "Ken") } throws: { error in
            guard case ShopError.drink(.unknownDrink("白玉歐雷", let suggestions), line: nil) = error else { return false }
            return suggestions.contains("白玉歐蕾")
                && "\(error)" == "no drink called \"白玉歐雷\" on the menu (菜單上沒有這個飲品); did you mean \(suggestions.joined(separator: " or "))?"
        }
        let vague = OrderDraft(lines: [fixture.line("熟成", [.size(.large), .sugar(.half), .ice(.less)])])
        await #expect { try await fixture.shop.orders.place(vague, placedBy: "Ken") } throws: { error in
            guard case ShopError.drink(.ambiguousDrink("熟成", let candidates), line: nil) = error else { return false }
            return candidates.contains("熟成紅茶") && candidates.contains("熟成歐蕾")
                && "\(error)" == "\"熟成\" matches several drinks: \(candidates.joined(separator: ", ")) (符合的飲品不只一個); type more of the name"
        }
        #expect(try await fixture.records("OrderDrink").isEmpty)
    }

    @Test(arguments: [
        ([DrinkOption.size(.large), .sugar(.half)], OrderRuleViolation.missingRequired([.ice])),
        ([.size(.large), .sugar(.half), .ice(.hot), .addOn(.fruitJelly)], .addOnNotServedHot(.fruitJelly, ice: .hot)),
        ([.size(.large), .sugar(.half), .ice(.less), .addOn(.whiteTapioca), .addOn(.agarPearl), .addOn(.fruitJelly)],
         .tooManyAddOns(count: 3)),
    ])
    func ruleViolationsNameTheRuleAndWriteNothing(options: [DrinkOption], broken: OrderRuleViolation) async throws {
        let fixture = try await ShopFixture()
        let draft = OrderDraft(lines: [fixture.line("白玉歐蕾", options)])
        await #expect { try await fixture.shop.orders.place(draft, placedBy: "Ken") } throws: { error in
            guard case ShopError.rule(let violation, drink: "白玉歐蕾", line: nil) = error else { return false }
            return violation == broken
        }
        #expect(try await fixture.records("OrderDrink").isEmpty)
        #expect(try await fixture.records("PickupTicket").isEmpty)
    }

    @Test func soldOutAndColdOnlyDrinksAreRefused() async throws {
        let fixture = try await ShopFixture()
        let soldOut = OrderDraft(lines: [fixture.line("草莓檸果", [.size(.large), .sugar(.half), .ice(.less)])])
        await #expect { try await fixture.shop.orders.place(soldOut, placedBy: "Ken") } throws: { error in
            guard case ShopError.rule(.soldOut(drink: "草莓檸果"), drink: "草莓檸果", line: nil) = error else { return false }
            return true
        }
        let hot = OrderDraft(lines: [fixture.line("雲蓋熟成", [.size(.large), .sugar(.half), .ice(.hot)])])
        await #expect { try await fixture.shop.orders.place(hot, placedBy: "Ken") } throws: { error in
            guard case ShopError.rule(.notServedHot(drink: "雲蓋熟成", ice: .hot), drink: "雲蓋熟成", line: nil) = error else { return false }
            return true
        }
        // A one-size drink (the real menu has some; the seeds do not, as the KEBUKE app needs a large price).
        let directory = try TemporaryDirectory()
        let oneSize = try directory.file("one-size.json", contents: """
            [{"name": "雪藏奶茶", "category": "調茶", "medium": 69, "description": "冰淇淋奶茶"}]
            """)
        _ = try await fixture.shop.seeder.seed(contentsOf: oneSize)
        let large = OrderDraft(lines: [fixture.line("雪藏奶茶", [.size(.large), .sugar(.half), .ice(.less)])])
        await #expect { try await fixture.shop.orders.place(large, placedBy: "Ken") } throws: { error in
            guard case ShopError.rule(.sizeUnavailable(drink: "雪藏奶茶", size: .large), drink: "雪藏奶茶", line: nil) = error
            else { return false }
            return true
        }
        let medium = OrderDraft(lines: [fixture.line("雪藏奶茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        #expect(try await fixture.shop.orders.place(medium, placedBy: "Ken").order.total == 69)
    }

    @Test func editingRepricesAndIsOnlyAllowedWhilePlaced() async throws {
        let fixture = try await ShopFixture()
        let draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        let placed = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        #expect(placed.order.total == 35)
        let edited = try await fixture.shop.orders.edit(.pickup(1), line: nil,
                                                      change: LineChangeDraft(options: [.size(.large), .addOn(.whiteTapioca)], quantity: 2))
        // Two large cups with 白玉 (50 each); second cup half price takes 20 off the cup, not the add-on.
        #expect(edited.order.subtotal == 100)
        #expect(edited.order.discount == 20)
        let reread = try await fixture.shop.orders.find(.pickup(1))
        #expect(reread.order.total == 80)
        #expect(try await fixture.records("OrderDrink").count == 1)

        _ = try await fixture.shop.orders.advance(.pickup(1))
        await #expect { try await fixture.shop.orders.edit(.pickup(1), line: nil, change: LineChangeDraft(quantity: 3)) }
            throws: { error in
                guard case ShopError.status(.notEditable(order: 1, status: .preparing)) = error else { return false }
                return true
            }
    }

    @Test func statusMovesOnThenStopsAndCancelKeepsTheReason() async throws {
        let fixture = try await ShopFixture()
        let draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)])])
        _ = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        _ = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        #expect(try await fixture.shop.orders.advance(.pickup(1)).order.status == .preparing)
        #expect(try await fixture.shop.orders.advance(.pickup(1)).order.status == .ready)
        await #expect(throws: ShopError.self) { try await fixture.shop.orders.cancel(.pickup(1), reason: nil) }
        #expect(try await fixture.shop.orders.advance(.pickup(1)).order.status == .pickedUp)
        await #expect(throws: ShopError.self) { try await fixture.shop.orders.advance(.pickup(1)) }

        let cancelled = try await fixture.shop.orders.cancel(.pickup(2), reason: "customer left")
        #expect(cancelled.order.status == .cancelled)
        let record = try #require(try await fixture.records("OrderDrink").first { $0.fields["pickupNumber"] == 2 })
        #expect(record.fields["status"] == "cancelled" && record.fields["cancelReason"] == "customer left")
    }

    @Test func deleteRemovesEveryLineAndUnknownNumbersAreReported() async throws {
        let fixture = try await ShopFixture()
        let draft = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)]),
                                       fixture.line("冷露歐蕾", [.size(.large), .sugar(.half), .ice(.less)])])
        _ = try await fixture.shop.orders.place(draft, placedBy: "Ken")
        _ = try await fixture.shop.orders.delete(.pickup(1))
        #expect(try await fixture.records("OrderDrink").isEmpty)
        await #expect { try await fixture.shop.orders.delete(.pickup(1)) } throws: { error in
            guard case ShopError.noSuchOrder(.pickup(1)) = error else { return false }
            return true
        }
    }

    @Test func ordersTheKEBUKEAppWroteShowUp() async throws {
        let fixture = try await ShopFixture()
        _ = try await fixture.base.createRecord(in: "OrderDrink", [
            "drinkName": "白玉歐蕾", "size": "大杯", "ice": "少冰", "sugar": "半糖", "addOns": ["加白玉"], "price": 150,
            "orderName": "Joanna", "numberOfCups": 2, "imageUrl": "https://example.com/a.jpg",
        ])
        let (orders, problems) = try await fixture.shop.orders.today()
        #expect(problems.isEmpty)
        let order = try #require(orders.first)
        #expect(order.isForeign && order.order.orderName == "Joanna" && order.order.total == 150)
        #expect(order.order.lines.first?.unitPrice == 75)
    }

    @Test func staffLogInOnceAndCustomersCannot() async throws {
        let fixture = try await ShopFixture()
        #expect(try await fixture.shop.staff.logIn(name: "Ken").isNew)
        #expect(try await fixture.shop.staff.logIn(name: " Ken ").isNew == false)
        _ = try await fixture.base.createRecord(in: "User", ["name": "Amy", "role": "customer"])
        await #expect(throws: TillError.self) { try await fixture.shop.staff.logIn(name: "Amy") }
        await #expect(throws: TillError.self) { try await fixture.shop.staff.logIn(name: "   ") }
        // As staff write it: the one account, spelt as on the staff list.
        let again = try await fixture.shop.staff.logIn(name: "ＫＥＮ")
        #expect(again.isNew == false && again.user.name == "Ken")
    }

    @Test func theDailyReportAddsUp() async throws {
        let fixture = try await ShopFixture()
        let two = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.medium), .sugar(.half), .ice(.less)], quantity: 2)])
        let one = OrderDraft(lines: [fixture.line("白玉歐蕾", [.size(.large), .sugar(.half), .ice(.less), .addOn(.whiteTapioca)])])
        _ = try await fixture.shop.orders.place(two, placedBy: "Ken")
        _ = try await fixture.shop.orders.place(one, placedBy: "Ken")
        _ = try await fixture.shop.orders.place(one, placedBy: "Ken")
        _ = try await fixture.shop.orders.cancel(.pickup(3), reason: "changed mind")
        let (orders, _) = try await fixture.shop.orders.today()
        let report = DailyReport(days: DayRange("2026-11-29"), orders: orders.map(\.order))
        #expect(report.orders == 2 && report.cancelledOrders == 1)
        #expect(report.cups == 3)
        // 2 x 35 with the second cup half price (17 off); 80 less 20% of the 歐蕾 line (16 off).
        #expect(report.subtotal == 150 && report.discounts == 17 + 16 && report.revenue == 117)
        #expect(report.addOns.first?.name == "加白玉" && report.addOns.first?.cups == 1)
        #expect(report.openOrders == 2)
    }
}
