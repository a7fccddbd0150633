import Testing
@testable import DrinkShopCore

@Suite struct OrderLineTests {
    @Test func unitPriceIsTheSizePricePlusTenPerAddOn() throws {
        let line = try Fixtures.line("白玉歐蕾", .large, addOns: [.whiteTapioca, .agarPearl], quantity: 2)
        #expect(line.unitPrice == 90)
        #expect(line.cupPrice == 70)
        #expect(line.lineTotal == 180)
        #expect(line.category == .milkTea)
        #expect(line.optionSummary == "大杯•少冰•半糖•加白玉•加水玉")
        #expect(try Fixtures.line("熟成紅茶").lineTotal == 35)
    }

    @Test func aBrokenRuleRefusesTheLine() throws {
        let drink = try Fixtures.drink("白玉歐蕾")
        #expect(throws: OrderRuleViolation.missingRequired([.sugar])) {
            try OrderLine(drink: drink, choices: DrinkChoices(size: .medium, ice: .less))
        }
    }

    @Test func theNoteIsTrimmedAndAnEmptyNoteIsNone() throws {
        let drink = try Fixtures.drink("白玉歐蕾")
        let noted = try OrderLine(drink: drink, choices: DrinkChoices(size: .medium, ice: .less, sugar: .half,
                                                                     note: "  少少冰 "))
        #expect(noted.note == "少少冰")
        let blank = try OrderLine(drink: drink, choices: DrinkChoices(size: .medium, ice: .less, sugar: .half,
                                                                     note: " "))
        #expect(blank.note == nil)
    }

    @Test func editingRevalidatesAndReprices() throws {
        let drink = try Fixtures.drink("白玉歐蕾")
        let line = try Fixtures.line("白玉歐蕾")
        let edited = try line.editing(LineEdit(size: .large, addOns: [.whiteTapioca], quantity: 3, note: "分開裝"),
                                      drink: drink)
        #expect(edited.size == .large)
        #expect(edited.ice == .less)
        #expect(edited.sugar == .half)
        #expect(edited.unitPrice == 80)
        #expect(edited.lineTotal == 240)
        #expect(edited.note == "分開裝")
        #expect(try edited.editing(LineEdit(note: ""), drink: drink).note == nil)
        #expect(throws: OrderRuleViolation.addOnNotServedHot(.fruitJelly, ice: .hot)) {
            try line.editing(LineEdit(ice: .hot, addOns: [.fruitJelly]), drink: drink)
        }
    }

    @Test func editingRepricesAtTheMenusCurrentPrice() throws {
        let line = try Fixtures.line("白玉歐蕾", quantity: 2)
        let dearer = try Drink(name: "白玉歐蕾", category: .milkTea, mediumPrice: 65, largePrice: 75, hotAvailable: true)
        #expect(try line.editing(LineEdit(sugar: .free), drink: dearer).lineTotal == 130)
    }

    @Test func editingCannotSwapTheDrink() throws {
        let line = try Fixtures.line("白玉歐蕾")
        #expect(throws: OrderError.wrongDrink(line: "白玉歐蕾", given: "熟成紅茶")) {
            try line.editing(LineEdit(sugar: .free), drink: try Fixtures.drink("熟成紅茶"))
        }
    }

    @Test func aDrinkThatSoldOutCanBeEditedButNotGrown() throws {
        let line = try Fixtures.line("白玉歐蕾", quantity: 2)
        var soldOut = try Fixtures.drink("白玉歐蕾")
        soldOut.available = false
        #expect(try line.editing(LineEdit(sugar: .free, quantity: 1), drink: soldOut).quantity == 1)
        #expect(throws: OrderRuleViolation.soldOut(drink: "白玉歐蕾")) {
            try line.editing(LineEdit(quantity: 3), drink: soldOut)
        }
    }
}
