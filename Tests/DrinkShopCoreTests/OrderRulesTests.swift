import Testing
@testable import DrinkShopCore

@Suite struct OrderRulesTests {
    private func choices(
        _ size: CupSize? = .medium, _ ice: IceLevel? = .less, _ sugar: SugarLevel? = .half,
        addOns: [AddOn] = [], quantity: Int = 1, note: String? = nil
    ) -> DrinkChoices {
        DrinkChoices(size: size, ice: ice, sugar: sugar, addOns: addOns, quantity: quantity, note: note)
    }

    private func violations(_ drinkName: String, _ choices: DrinkChoices) throws -> [OrderRuleViolation] {
        OrderRules.violations(of: choices, for: try Fixtures.drink(drinkName))
    }

    @Test func aCompleteLineBreaksNoRule() throws {
        #expect(try violations("白玉歐蕾", choices(.large, .hot, .free, addOns: [.whiteTapioca, .agarPearl])) == [])
    }

    @Test func sizeIceAndSugarAreRequired() throws {
        #expect(try violations("白玉歐蕾", choices(nil, .less, .half)) == [.missingRequired([.size])])
        #expect(try violations("白玉歐蕾", choices(.medium, nil, .half)) == [.missingRequired([.ice])])
        #expect(try violations("白玉歐蕾", choices(nil, nil, nil)) == [.missingRequired([.size, .ice, .sugar])])
        #expect(OrderRuleViolation.missingRequired([.ice]).description == "ice/temperature is required (溫度為必填)")
        #expect(OrderRuleViolation.missingRequired([.size, .ice, .sugar]).description
            == "size, ice/temperature and sugar are required (尺寸、溫度、甜度為必填)")
    }

    @Test func atMostTwoAddOns() throws {
        let three: [AddOn] = [.whiteTapioca, .agarPearl, .fruitJelly]
        #expect(try violations("白玉歐蕾", choices(addOns: three)) == [.tooManyAddOns(count: 3)])
        #expect(OrderRuleViolation.tooManyAddOns(count: 3).description.hasPrefix("at most 2 add-ons per cup, not 3"))
    }

    @Test func noDuplicateAddOn() throws {
        #expect(try violations("白玉歐蕾", choices(addOns: [.agarPearl, .agarPearl]))
            == [.duplicateAddOn(.agarPearl)])
        #expect(OrderRuleViolation.duplicateAddOn(.agarPearl).description.hasPrefix("水玉 is chosen twice"))
    }

    @Test(arguments: [IceLevel.warm, .hot])
    func fruitJellyCannotBeServedWarmOrHot(ice: IceLevel) throws {
        #expect(try violations("白玉歐蕾", choices(.medium, ice, .half, addOns: [.fruitJelly]))
            == [.addOnNotServedHot(.fruitJelly, ice: ice)])
        #expect(OrderRuleViolation.addOnNotServedHot(.fruitJelly, ice: ice).description
            == "菓玉 cannot be served warm or hot (菓玉不可做溫熱飲)")
    }

    @Test func fruitJellyIsFineCold() throws {
        #expect(try violations("白玉歐蕾", choices(.medium, .roomTemperature, .half, addOns: [.fruitJelly])) == [])
    }

    @Test(arguments: [IceLevel.warm, .hot])
    func warmAndHotOnlyForDrinksServedHot(ice: IceLevel) throws {
        #expect(try violations("雲蓋熟成", choices(.medium, ice, .half)) == [.notServedHot(drink: "雲蓋熟成", ice: ice)])
        #expect(try violations("熟成紅茶", choices(.medium, ice, .half)) == [])
    }

    @Test func roomTemperatureIsAllowedForEveryDrink() throws {
        for drink in try Fixtures.menu().drinks where drink.available {
            #expect(OrderRules.violations(of: choices(.medium, .roomTemperature, .half), for: drink) == [])
        }
    }

    @Test func largeOnlyWhereThereIsALargePrice() throws {
        #expect(try violations("熟成檸果", choices(.large)) == [.sizeUnavailable(drink: "熟成檸果", size: .large)])
        #expect(OrderRuleViolation.sizeUnavailable(drink: "熟成檸果", size: .large).description
            .hasPrefix("熟成檸果 does not come in 大杯 Large"))
    }

    @Test func soldOutDrinksCannotBeOrdered() throws {
        #expect(try violations("草莓檸果", choices()) == [.soldOut(drink: "草莓檸果")])
        #expect(OrderRuleViolation.soldOut(drink: "草莓檸果").description == "草莓檸果 is sold out (草莓檸果已售完)")
    }

    @Test(arguments: [0, -1, 100])
    func quantityFromOneToNinetyNine(quantity: Int) throws {
        #expect(try violations("白玉歐蕾", choices(quantity: quantity)) == [.quantityOutOfRange(quantity)])
        #expect(try violations("白玉歐蕾", choices(quantity: 99)) == [])
    }

    @Test func noteAtMostThreeHundredUTF8BytesOnOneLine() throws {
        let hundred = String(repeating: "好", count: 100)
        #expect(try violations("白玉歐蕾", choices(note: hundred)) == [])
        #expect(try violations("白玉歐蕾", choices(note: hundred + "!")) == [.noteTooLong(length: 301)])
        // A "short" note of stacked combining marks is counted by its bytes.
        #expect(try violations("白玉歐蕾", choices(note: "a" + String(repeating: "\u{301}", count: 150))) == [.noteTooLong(length: 301)])
        #expect(try violations("白玉歐蕾", choices(note: "less\nsweet")) == [.noteHasControlCharacters])
        #expect(try violations("白玉歐蕾", choices(note: "less\u{202E}teews")) == [.noteHasControlCharacters])
        #expect(try violations("白玉歐蕾", choices(note: "   ")) == [])
    }

    @Test func everyRuleBrokenIsListedInAFixedOrder() throws {
        let broken = choices(.large, .hot, nil, addOns: [.fruitJelly, .fruitJelly, .agarPearl], quantity: 0)
        let found = try violations("熟成檸果", broken)
        #expect(found.map(\.rule) == [
            "required-options", "size-available", "hot-available", "add-on-limit", "no-duplicate-add-on",
            "add-on-not-hot", "quantity-range",
        ])
        #expect(throws: OrderRuleViolation.missingRequired([.sugar])) {
            try OrderRules.check(broken, for: try Fixtures.drink("熟成檸果"))
        }
    }

    @Test func choosingTheSameGroupTwiceMustAgree() throws {
        var picked = DrinkChoices()
        try picked.choose(.size(.large))
        try picked.choose(.size(.large))
        try picked.choose(.addOn(.whiteTapioca))
        try picked.choose(.addOn(.agarPearl))
        #expect(throws: OrderRuleViolation.conflictingChoice(.size, first: "大杯", second: "中杯")) {
            try picked.choose(.size(.medium))
        }
        try picked.choose(.ice(.less))
        #expect(throws: OrderRuleViolation.self) { try picked.choose(.ice(.hot)) }
        try picked.choose(.sugar(.free))
        #expect(throws: OrderRuleViolation.self) { try picked.choose(.sugar(.full)) }
        #expect(picked == DrinkChoices(size: .large, ice: .less, sugar: .free, addOns: [.whiteTapioca, .agarPearl]))
        #expect(OrderRuleViolation.conflictingChoice(.size, first: "大杯", second: "中杯").description
            == "size given twice: 大杯 and 中杯 (尺寸只能選一個); choose one")
    }
}
