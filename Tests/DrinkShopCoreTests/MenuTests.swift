import Testing
@testable import DrinkShopCore

@Suite struct DrinkCategoryTests {
    @Test func displayOrderIsTheShopsTabOrder() {
        #expect(DrinkCategory.allCases.map(\.rawValue) == ["季節限定", "單品茶", "調茶", "雲蓋", "歐蕾"])
        #expect(DrinkCategory.allCases.map(\.englishName)
            == ["Seasonal", "Classic Tea", "Mixed Tea", "Cream Cap", "Milk Tea"])
        #expect(DrinkCategory.seasonal < .milkTea)
    }

    @Test(arguments: [
        ("季節限定", DrinkCategory.seasonal), ("seasonal", .seasonal), ("SEASONAL", .seasonal),
        ("單品茶", .classicTea), ("Classic Tea", .classicTea), ("classic", .classicTea),
        ("調茶", .mixedTea), ("  mixed tea ", .mixedTea), ("雲蓋", .creamCap), ("cream cap", .creamCap),
        ("歐蕾", .milkTea), ("Milk Tea", .milkTea), ("au lait", .milkTea), ("欧蕾", .milkTea),
    ])
    func parsesChineseEnglishAndAliases(text: String, category: DrinkCategory) {
        #expect(DrinkCategory(parsing: text) == category)
    }

    @Test func unknownCategoryErrorListsTheValidOnes() {
        #expect(DrinkCategory(parsing: "coffee") == nil)
        #expect(throws: DrinkValidationError.unknownCategory("coffee")) { try DrinkCategory.parse("coffee") }
        let message = DrinkValidationError.unknownCategory("coffee").description
        #expect(message.hasPrefix("category: unknown category \"coffee\""))
        #expect(message.contains("季節限定 Seasonal"))
    }
}

@Suite struct DrinkTests {
    @Test func pricesBySize() throws {
        let latte = try Drink(name: "白玉歐蕾", category: .milkTea, mediumPrice: 60, largePrice: 70)
        #expect(latte.price(for: .medium) == 60)
        #expect(latte.price(for: .large) == 70)
        #expect(latte.sizes == [.medium, .large])
        let lemon = try Drink(name: "熟成檸果", category: .mixedTea, mediumPrice: 60)
        #expect(lemon.price(for: .large) == nil)
        #expect(lemon.sizes == [.medium])
    }

    @Test func trimsNamesAndDropsAnEmptyEnglishName() throws {
        let drink = try Drink(name: "  白玉歐蕾 ", englishName: "  ", category: .milkTea, mediumPrice: 60)
        #expect(drink.name == "白玉歐蕾")
        #expect(drink.englishName == nil)
        #expect(drink.displayName == "白玉歐蕾")
    }

    @Test func rejectsAnEmptyName() {
        #expect(throws: DrinkValidationError.emptyName) {
            try Drink(name: " \t", category: .milkTea, mediumPrice: 60)
        }
        #expect(DrinkValidationError.emptyName.field == "name")
        #expect(throws: DrinkValidationError.nameHasControlCharacters("白玉\n歐蕾")) {
            try Drink(name: "白玉\n歐蕾", category: .milkTea, mediumPrice: 60)
        }
    }

    @Test func rejectsNonPositivePricesNamingTheField() {
        #expect(throws: DrinkValidationError.nonPositivePrice(field: "medium", value: 0)) {
            try Drink(name: "白玉歐蕾", category: .milkTea, mediumPrice: 0)
        }
        #expect(throws: DrinkValidationError.nonPositivePrice(field: "large", value: -5)) {
            try Drink(name: "白玉歐蕾", category: .milkTea, mediumPrice: 60, largePrice: -5)
        }
        #expect(DrinkValidationError.nonPositivePrice(field: "large", value: -5).description
            == "large: the price must be a positive number of NT$, not -5")
    }

    @Test func rejectsALargeCheaperThanTheMedium() {
        let error = DrinkValidationError.largeBelowMedium(medium: 60, large: 50)
        #expect(throws: error) {
            try Drink(name: "白玉歐蕾", category: .milkTea, mediumPrice: 60, largePrice: 50)
        }
        #expect(error.field == "large")
        #expect(error.description == "large: the large price (50) is below the medium price (60)")
    }

    @Test func allowsEqualMediumAndLargePrices() throws {
        #expect(try Drink(name: "雪藏紅茶", category: .classicTea, mediumPrice: 60, largePrice: 60).largePrice == 60)
    }
}

@Suite struct MenuTests {
    @Test func listsDrinksInCategoryOrderKeepingTheGivenOrderWithin() throws {
        let menu = try Fixtures.menu()
        #expect(menu.drinks.map(\.name) == [
            "金蘋春芽", "草莓檸果", "熟成紅茶", "麗春紅茶", "熟成檸果", "雲蓋熟成", "白玉歐蕾", "熟成歐蕾", "冷露歐蕾",
        ])
        #expect(menu.drinks(in: .milkTea).map(\.name) == ["白玉歐蕾", "熟成歐蕾", "冷露歐蕾"])
        #expect(menu.availableSeasonalDrinks.map(\.name) == ["金蘋春芽"])
    }

    @Test(arguments: [
        ("白玉歐蕾", "白玉歐蕾"), ("white jade latte", "白玉歐蕾"), ("WHITE JADE LATTE", "白玉歐蕾"),
        (" 熟成紅茶 ", "熟成紅茶"), ("白玉", "白玉歐蕾"), ("white", "白玉歐蕾"), ("熟成檸", "熟成檸果"),
        ("金蘋", "金蘋春芽"), ("golden apple", "金蘋春芽"), ("jade", "白玉歐蕾"), ("aged lemon", "熟成檸果"),
    ])
    func findsByExactPrefixOrSubstringInEitherLanguage(text: String, expected: String) throws {
        let menu = try Fixtures.menu()
        #expect(menu.lookup(text) == .found(try Fixtures.drink(expected)))
    }

    @Test func anExactNameWinsOverLongerNamesItPrefixes() throws {
        var drinks = try Fixtures.drinks()
        drinks.append(try Drink(name: "熟成紅茶拿鐵", category: .milkTea, mediumPrice: 70))
        let menu = Menu(drinks: drinks)
        #expect(menu.lookup("熟成紅茶") == .found(try Fixtures.drink("熟成紅茶")))
    }

    @Test func severalMatchesAreAmbiguousInMenuOrder() throws {
        let menu = try Fixtures.menu()
        guard case .ambiguous(let drinks) = menu.lookup("熟成") else {
            Issue.record("expected an ambiguous lookup")
            return
        }
        #expect(drinks.map(\.name) == ["熟成紅茶", "熟成檸果", "熟成歐蕾"])
        guard case .ambiguous(let lattes) = menu.lookup("歐蕾") else {
            Issue.record("expected an ambiguous lookup")
            return
        }
        #expect(lattes.map(\.name) == ["白玉歐蕾", "熟成歐蕾", "冷露歐蕾"])
    }

    @Test func duplicateNamesAreAmbiguousRatherThanSilentlyPicked() throws {
        let one = try Drink(name: "白玉歐蕾", category: .milkTea, mediumPrice: 60)
        let two = try Drink(name: "白玉歐蕾", category: .milkTea, mediumPrice: 65)
        #expect(Menu(drinks: [one, two]).lookup("白玉歐蕾") == .ambiguous([one, two]))
    }

    @Test func aTypoGetsTheClosestNamesAsSuggestions() throws {
        let menu = try Fixtures.menu()
        #expect(menu.lookup("白玉歐雷") == .notFound(suggestions: ["白玉歐蕾"]))
        #expect(menu.lookup("whte jade late") == .notFound(suggestions: ["White Jade Latte"]))
        #expect(menu.lookup("coffee") == .notFound(suggestions: []))
        #expect(menu.lookup("") == .notFound(suggestions: []))
    }

    @Test func resolveTurnsLookupsIntoErrorsStaffCanRead() throws {
        let menu = try Fixtures.menu()
        #expect(try menu.resolve("white jade latte").name == "白玉歐蕾")
        #expect(throws: DrinkLookupError.unknownDrink("白玉歐雷", suggestions: ["白玉歐蕾"])) {
            try menu.resolve("白玉歐雷")
        }
        #expect(DrinkLookupError.unknownDrink("白玉歐雷", suggestions: ["白玉歐蕾"]).description
            == "no drink called \"白玉歐雷\" on the menu (菜單上沒有這個飲品); did you mean 白玉歐蕾?")
        #expect(throws: DrinkLookupError.ambiguousDrink("歐蕾", candidates: ["白玉歐蕾", "熟成歐蕾", "冷露歐蕾"])) {
            try menu.resolve("歐蕾")
        }
    }

    @Test func searchByCategoryOrNameText() throws {
        let menu = try Fixtures.menu()
        #expect(menu.search("").count == menu.count)
        #expect(menu.search("歐蕾").map(\.name) == ["白玉歐蕾", "熟成歐蕾", "冷露歐蕾"])
        #expect(menu.search("cream cap").map(\.name) == ["雲蓋熟成"])
        #expect(menu.search("紅茶").map(\.name) == ["熟成紅茶", "麗春紅茶"])
        #expect(menu.search("au lait").map(\.name) == ["白玉歐蕾", "熟成歐蕾", "冷露歐蕾"])
        #expect(menu.search("LEMON").map(\.name) == ["草莓檸果", "熟成檸果"])
        #expect(menu.search("珍珠").isEmpty)
    }

    @Test func namesForCompletionIncludeBothLanguages() throws {
        let names = try Fixtures.menu().names
        #expect(names.contains("白玉歐蕾"))
        #expect(names.contains("White Jade Latte"))
        #expect(names.count == 18)
    }
}
