import Airtable
@testable import DrinkShop
import DrinkShopCore
import Testing

/// Add-ons, ingredients and sizes sold out and restocked at the counter: one manager's action, seen by every counter
/// and the customers' front, audited; never made on a guessed name; and a placed line's drink swapped.
@Suite struct SoldOutItemsShopTests {
    let mia = Acting("Mia", role: .manager)

    private func draft(_ fixture: ShopFixture, _ drink: String, _ options: [DrinkOption] = []) -> OrderDraft {
        OrderDraft(orderName: "Amy", lines: [fixture.line(drink, [.size(.medium), .sugar(.half), .ice(.less)] + options)])
    }

    @Test func anIngredientSoldOutTakesItsAddOnAndDrinksEverywhereAndIsAudited() async throws {
        let fixture = try await ShopFixture()
        let other = fixture.secondCounter()
        _ = try await other.catalog.menu()   // the other counter's copy, read before
        let made = try await fixture.shop.counter.changeMenu("白玉", .soldOut, by: mia)
        #expect(made.change == .item(.ingredient("白玉"), soldOut: true))
        #expect(made.along == ["加白玉", "白玉歐蕾"])
        for shop in [fixture.shop, other] {
            _ = await shop.counter.followSharedSettings()
            await #expect(throws: ShopError.self) { try await shop.orders.place(draft(fixture, "白玉歐蕾"), placedBy: "Ken") }
            await #expect(throws: ShopError.self) {
                try await shop.orders.place(draft(fixture, "熟成紅茶", [.addOn(.whiteTapioca)]), placedBy: "Ken")
            }
            _ = try await shop.orders.place(draft(fixture, "熟成紅茶", [.addOn(.agarPearl)]), placedBy: "Ken")
        }
        do {
            _ = try await other.orders.place(draft(fixture, "白玉歐蕾"), placedBy: "Ken")
        } catch {
            #expect(error.description.contains("白玉歐蕾 售完（白玉已售完）"))
        }
        let audit = try await fixture.shop.audit.entries(in: DayRange(fixture.shop.clock.today))
        #expect(audit.contains { $0.action == .soldOut && $0.subject == "白玉" && $0.by == "Mia" })
        // Restocking the add-on alone is refused with the reason; restocking the ingredient brings both back.
        await #expect(throws: TillError.self) { try await fixture.shop.counter.changeMenu("加白玉", .restock, by: mia) }
        let back = try await fixture.shop.counter.changeMenu("白玉", .restock, by: mia)
        #expect(back.along == ["加白玉", "白玉歐蕾"])
        _ = try await fixture.shop.orders.place(draft(fixture, "白玉歐蕾", [.addOn(.whiteTapioca)]), placedBy: "Ken")
    }

    @Test func aSizeAndAnAddOnSellOutOnTheirOwn() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        _ = try await counter.changeMenu("熟成紅茶 大杯", .soldOut, by: mia)
        _ = try await counter.changeMenu("加白玉", .soldOut, by: mia)
        let large = OrderDraft(lines: [fixture.line("熟成紅茶", [.size(.large), .sugar(.half), .ice(.less)])])
        await #expect(throws: ShopError.self) { try await fixture.shop.orders.place(large, placedBy: "K") }
        let otherLarge = OrderDraft(lines: [fixture.line("麗春紅茶", [.size(.large), .sugar(.half), .ice(.less)])])
        _ = try await fixture.shop.orders.place(otherLarge, placedBy: "K")
        let menu = try await fixture.shop.catalog.menu(refresh: true)
        #expect(menu.soldOut.items == [.drinkSize("熟成紅茶", .large), .addOn(.whiteTapioca)])
        #expect(menu.drink(named: "白玉歐蕾")?.isOnSale == true, "the add-on alone leaves the drink made with 白玉 on sale")
    }

    @Test func aNameThatSaysMoreThanOneThingOrOnlyPartOfOneChangesNothing() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        for (name, request) in [("白", MenuControl.Request.soldOut), ("白玉", .price(.medium, 61)), ("熟成", .restock), ("熟成紅", .soldOut)] {
            do {
                _ = try await counter.changeMenu(name, request, by: mia)
                Issue.record("\(name) was acted on")
            } catch {
                guard case .stock(.notOneThing(_, let choices, exact: false)) = error else { throw error }
                #expect(!choices.isEmpty)
                #expect(error.description.contains("nothing was changed"))
            }
        }
        let menu = try await fixture.shop.catalog.menu(refresh: true)
        #expect(menu.soldOut.isEmpty && menu.drinks.allSatisfy { $0.name == "草莓檸果" || $0.available })
        #expect(menu.drink(named: "白玉歐蕾")?.mediumPrice == 60)
        #expect(try await fixture.shop.audit.entries(in: DayRange(fixture.shop.clock.today)).isEmpty)
    }

    /// Issue 33, item 8: a group order sent from the page 2 s after `soldout` was accepted (the page's copy of the
    /// menu was younger than its 30 s).
    @Test func thePageRefusesWhatWasSoldOutAMomentAgoAtAnotherCounter() async throws {
        let fixture = try await ShopFixture()
        let page = fixture.secondCounter()
        try await fixture.shop.counter.setOnlineOrdering(true, by: mia)
        _ = try await page.catalog.menu(refresh: true)
        fixture.clock.advance(by: 2)
        _ = try await fixture.shop.counter.changeMenu("熟成紅茶", .soldOut, by: mia)
        _ = try await fixture.shop.counter.changeMenu("加水玉", .soldOut, by: mia)
        fixture.clock.advance(by: 2)
        for drink in [draft(fixture, "熟成紅茶"), draft(fixture, "麗春紅茶", [.addOn(.agarPearl)])] {
            do {
                _ = try await page.counter.placeOnline(drink, within: .init(orders: 5))
                Issue.record("a sold-out drink or add-on was placed from the page")
            } catch {
                guard case .refused(.rule) = error else { throw error }
            }
        }
        _ = try await page.counter.placeOnline(draft(fixture, "麗春紅茶"), within: .init(orders: 5))
    }

    /// On Airtable itself a running counter keeps its menu copy 10 minutes (`Catalog.airtableLifetime`: each reading
    /// is three calls against the plan): a change made through DrinkShop reaches it with its next reading of the
    /// settings (their `menuChangedAt`), one made elsewhere (a price typed in Airtable's grid) within 10 minutes.
    @Test func onAirtableTheMenuIsReadAgainWhenTheSettingsSaySoOrAfterTenMinutes() async throws {
        let fixture = try await ShopFixture()
        let far = Shop(store: fixture.base, clock: fixture.clock.shopClock, sharedSettingsAge: Counter.airtableSharedReadingAge,
                       menuLifetime: Catalog.airtableLifetime)
        _ = await far.counter.followSharedSettings()
        #expect(try await far.catalog.menu().drink(named: "白玉歐蕾")?.mediumPrice == 60)
        // Repriced in the grid: no signal, so the copy stands for 10 minutes.
        let record = try #require(try await fixture.records(ShopSchema.drinkTable)
            .first { $0.fields[DrinkField.name]?.stringValue == "白玉歐蕾" })
        _ = try await fixture.base.updateRecords(in: ShopSchema.drinkTable, [RecordUpdate(id: record.id, fields: ["medium": 65])],
                                                 replace: false, options: WriteOptions())
        fixture.clock.advance(by: 300)
        _ = await far.counter.followSharedSettings()
        #expect(try await far.catalog.menu().drink(named: "白玉歐蕾")?.mediumPrice == 60)
        fixture.clock.advance(by: 301)
        _ = await far.counter.followSharedSettings()
        #expect(try await far.catalog.menu().drink(named: "白玉歐蕾")?.mediumPrice == 65)
        // Sold out at another counter: seen once this counter reads the settings again (a minute on Airtable).
        _ = try await fixture.shop.counter.changeMenu("熟成紅茶", .soldOut, by: mia)
        _ = await far.counter.followSharedSettings()
        #expect(try await far.catalog.menu().drink(named: "熟成紅茶")?.available == true)
        fixture.clock.advance(by: Counter.airtableSharedReadingAge)
        _ = await far.counter.followSharedSettings()
        #expect(try await far.catalog.menu().drink(named: "熟成紅茶")?.available == false)
    }

    @Test func staffSwapALinesDrinkWhileTheMoneyAllowsAnEdit() async throws {
        let fixture = try await ShopFixture()
        let counter = fixture.shop.counter
        let placed = try await counter.place(draft(fixture, "白玉歐蕾", [.addOn(.agarPearl)]), by: mia)
        let number = OrderNumber.pickup(placed.order.order.pickupNumber)
        let swapped = try await counter.edit(number, line: 1, change: LineChangeDraft(drink: "熟成紅茶", options: [.size(.large)]), by: mia)
        let line = try #require(swapped.order.lines.first)
        #expect(line.drinkName == "熟成紅茶" && line.size == .large && line.sugar == .half && line.addOns == [.agarPearl])
        #expect(line.unitPrice == 40 + AddOn.price)
        // A sold-out drink is no swap; once money is taken, nothing is.
        _ = try await counter.changeMenu("麗春紅茶", .soldOut, by: mia)
        await #expect(throws: TillError.self) {
            try await counter.edit(number, line: 1, change: LineChangeDraft(drink: "麗春紅茶"), by: mia)
        }
        _ = try await counter.pay(number, method: .card, tendered: nil, by: mia)
        do {
            _ = try await counter.edit(number, line: 1, change: LineChangeDraft(drink: "熟成歐蕾"), by: mia)
            Issue.record("a paid order's drink was swapped")
        } catch {
            guard case .order = error else { throw error }
        }
        #expect(try await fixture.shop.orders.find(number).order.lines.first?.drinkName == "熟成紅茶")
    }
}
