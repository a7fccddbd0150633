import Testing
@testable import DrinkShopCore

/// What runs out besides whole drinks (add-ons, ingredients, sizes), and names that a manager's command may act on
/// only when they say one thing.
@Suite struct SoldOutItemsTests {
    /// The fixture's drinks, 白玉歐蕾 made with 白玉, with `out` sold out.
    static func menu(_ out: Set<StockItem> = []) throws -> Menu {
        let drinks = try Fixtures.drinks().map { drink in
            drink.name == "白玉歐蕾"
                ? try Drink(name: drink.name, englishName: drink.englishName, category: drink.category, mediumPrice: 60,
                            largePrice: 70, hotAvailable: true, contains: ["白玉"])
                : drink
        }
        return Menu(drinks: drinks, soldOut: SoldOutItems(out))
    }

    static let usual = DrinkChoices(size: .medium, ice: .less, sugar: .half)

    @Test func aNameThatSaysOneThingIsFoundWhateverItsKind() throws {
        let menu = try Self.menu()
        #expect(menu.stockLookup("白玉") == .found(.ingredient("白玉")), "the ingredient, which takes its add-on along")
        #expect(menu.stockLookup("加白玉") == .found(.addOn(.whiteTapioca)))
        #expect(menu.stockLookup("大杯") == .found(.size(.large)))
        #expect(menu.stockLookup("熟成紅茶 大杯") == .found(.drinkSize("熟成紅茶", .large)))
        #expect(menu.stockLookup("L 熟成紅茶") == .found(.drinkSize("熟成紅茶", .large)))
        #expect(menu.stockLookup("白玉歐蕾") == .found(.drink("白玉歐蕾")))
        #expect(menu.stockLookup("aged black tea") == .found(.drink("熟成紅茶")))
    }

    @Test func partOfANameIsAskedAboutNeverTaken() throws {
        let menu = try Self.menu()
        // What `price 白玉 M 61` changed before: 白玉歐蕾, by prefix. Now it is a question, even with one candidate.
        let onlyDrinks: @Sendable (StockItem) -> Bool = { if case .drink = $0 { true } else { false } }
        #expect(menu.stockLookup("白玉", allowed: onlyDrinks) == .choose([.drink("白玉歐蕾")], exact: false))
        guard case .choose(let choices, exact: false) = menu.stockLookup("白") else {
            Issue.record("白 was taken as one thing")
            return
        }
        #expect(Set(choices) == [.drink("白玉歐蕾"), .ingredient("白玉"), .addOn(.whiteTapioca)])
        #expect(menu.stockLookup("熟成紅 大杯") == .choose([.drinkSize("熟成紅茶", .large)], exact: false))
        #expect(throws: StockLookupError.self) { try menu.resolveStock("熟成") }
        // A drink called exactly like an ingredient: two things, asked.
        let clash = Menu(drinks: try Fixtures.drinks() + [try Drink(name: "白玉", category: .milkTea, mediumPrice: 50)])
        #expect(clash.stockLookup("白玉") == .choose([.drink("白玉"), .ingredient("白玉")], exact: true))
        let message = (try? clash.resolveStock("白玉")).map { _ in "" } ?? "\(StockLookupError.notOneThing("白玉", choices: [.drink("白玉"), .ingredient("白玉")], exact: true))"
        #expect(message.contains("白玉 (drink 飲品); 白玉 (ingredient 原料)") && message.contains("nothing was changed"))
    }

    @Test func anIngredientOutTakesItsDrinksAndItsAddOnWithIt() throws {
        let menu = try Self.menu([.ingredient("白玉")])
        let latte = try #require(menu.drink(named: "白玉歐蕾"))
        #expect(!latte.isOnSale && latte.available, "its own mark is untouched; restocking 白玉 brings it back")
        #expect(latte.missingIngredient == "白玉")
        let refusal = OrderRules.violations(of: Self.usual, for: latte).first
        #expect(refusal == .ingredientSoldOut(drink: "白玉歐蕾", ingredient: "白玉"))
        #expect(refusal?.description.contains("白玉歐蕾 售完（白玉已售完）") == true)
        let tea = try #require(menu.drink(named: "熟成紅茶"))
        var withTapioca = Self.usual
        withTapioca.addOns = [.whiteTapioca]
        #expect(OrderRules.violations(of: withTapioca, for: tea) == [.addOnSoldOut(.whiteTapioca)])
        #expect(OrderRules.violations(of: Self.usual, for: tea).isEmpty)
        #expect(!menu.availableSeasonalDrinks.isEmpty)
    }

    @Test func aSizeOutInEveryDrinkOrInOne() throws {
        let everywhere = try Self.menu([.size(.large)])
        var large = Self.usual
        large.size = .large
        for name in ["熟成紅茶", "白玉歐蕾"] {
            #expect(OrderRules.violations(of: large, for: try #require(everywhere.drink(named: name))) == [.sizeSoldOut(drink: name, size: .large)])
        }
        let one = try Self.menu([.drinkSize("熟成紅茶", .large)])
        #expect(OrderRules.violations(of: large, for: try #require(one.drink(named: "熟成紅茶"))) == [.sizeSoldOut(drink: "熟成紅茶", size: .large)])
        #expect(OrderRules.violations(of: large, for: try #require(one.drink(named: "麗春紅茶"))).isEmpty)
        #expect(try #require(one.drink(named: "熟成紅茶")).sizesOnSale == [.medium])
    }

    @Test func aLineAlreadyOrderedIsEditedFreelyUnlessItAsksForMoreOfWhatIsOut() throws {
        let menu = try Self.menu([.addOn(.whiteTapioca), .size(.large)])
        let tea = try #require(menu.drink(named: "熟成紅茶"))
        let ordered = DrinkChoices(size: .large, ice: .less, sugar: .half, addOns: [.whiteTapioca])
        var lessSugar = ordered
        lessSugar.sugar = .free
        #expect(OrderRules.violations(of: lessSugar, for: tea, ordered: ordered).isEmpty)
        var moreCups = ordered
        moreCups.quantity = 2
        #expect(OrderRules.violations(of: moreCups, for: tea, ordered: ordered) == [.sizeSoldOut(drink: "熟成紅茶", size: .large), .addOnSoldOut(.whiteTapioca)])
        let medium = DrinkChoices(size: .medium, ice: .less, sugar: .half)
        var toLarge = medium
        toLarge.size = .large
        #expect(OrderRules.violations(of: toLarge, for: tea, ordered: medium) == [.sizeSoldOut(drink: "熟成紅茶", size: .large)])
        var addTapioca = medium
        addTapioca.addOns = [.whiteTapioca]
        #expect(OrderRules.violations(of: addTapioca, for: tea, ordered: medium) == [.addOnSoldOut(.whiteTapioca)])
    }

    @Test func theMakeLineIsToldWhatOfAPlacedLineIsOutNow() throws {
        let line = try OrderLine(drink: try #require(try Self.menu().drink(named: "熟成紅茶")),
                                 choices: DrinkChoices(size: .large, ice: .less, sugar: .half, addOns: [.whiteTapioca, .agarPearl]))
        #expect(try Self.menu().soldOutNow(in: line).isEmpty)
        #expect(try Self.menu([.ingredient("白玉")]).soldOutNow(in: line) == ["加白玉"])
        #expect(try Self.menu([.drinkSize("熟成紅茶", .large), .addOn(.agarPearl)]).soldOutNow(in: line) == ["大杯", "加水玉"])
    }

    @Test func theSettingKeysRoundTripAndUnknownOnesAreLeftOut() {
        let items: [StockItem] = [.addOn(.fruitJelly), .ingredient("珍珠: 大顆"), .size(.medium), .drinkSize("A:B", .large)]
        var settings: [String: String] = ["soldOut:addOn:加珍珠": "out", "soldOut:size:特大杯": "out", "timeZone": "Asia/Taipei",
                                          "soldOut:size:中杯:熟成紅茶": "in"]
        for item in items { settings[SoldOutItems.settingKey(for: item) ?? ""] = SoldOutItems.outValue }
        #expect(SoldOutItems(settings: settings).items == Set(items))
        #expect(SoldOutItems.settingKey(for: .drink("熟成紅茶")) == nil)
    }
}
