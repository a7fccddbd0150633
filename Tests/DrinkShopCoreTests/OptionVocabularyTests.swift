import Testing
@testable import DrinkShopCore

@Suite struct OptionValuesTests {
    @Test func storedValuesAreTheKebukeAppsStrings() {
        #expect(CupSize.allCases.map(\.rawValue) == ["中杯", "大杯"])
        #expect(IceLevel.allCases.map(\.rawValue) == ["正常冰", "少冰", "微冰", "去冰", "完全去冰", "常溫", "溫", "熱"])
        #expect(SugarLevel.allCases.map(\.rawValue) == ["正常糖", "少糖", "半糖", "微糖", "二分糖", "一分糖", "無糖"])
        #expect(AddOn.allCases.map(\.rawValue) == ["加白玉", "加水玉", "加菓玉"])
    }

    @Test func englishLabelsAreTheKebukeAppsLabels() {
        #expect(IceLevel.allCases.map(\.englishLabel) == [
            "Regular Ice", "Less Ice", "Half Ice", "Ice-Free", "Without Ice", "Room Temperature", "Warm", "Hot",
        ])
        #expect(SugarLevel.allCases.map(\.englishLabel) == [
            "100% Sugar", "70% Sugar", "50% Sugar", "30% Sugar", "20% Sugar", "10% Sugar", "Sugar-Free",
        ])
        #expect(AddOn.allCases.map(\.englishLabel) == ["White Tapioca", "Agar Pearl", "Confectionery"])
        #expect(AddOn.allCases.map(\.shortName) == ["白玉", "水玉", "菓玉"])
    }

    @Test func onlyWarmAndHotAreHotAndOnlyFruitJellyMelts() {
        #expect(IceLevel.allCases.filter(\.isHot) == [.warm, .hot])
        #expect(AddOn.allCases.filter { !$0.canBeServedHot } == [.fruitJelly])
        #expect(AddOn.price == 10)
    }
}

@Suite struct OptionVocabularyTests {
    private func option(_ phrase: String) -> DrinkOption? {
        let tokens = phrase.split(separator: " ").map(String.init)
        guard let match = OptionVocabulary.match(tokens, at: 0), match.tokenCount == tokens.count else { return nil }
        return match.option
    }

    @Test(arguments: [
        ("中杯", CupSize.medium), ("中", .medium), ("M", .medium), ("m", .medium), ("medium", .medium),
        ("Medium", .medium), ("大杯", .large), ("大", .large), ("L", .large), ("large", .large), ("LARGE", .large),
    ])
    func sizes(phrase: String, size: CupSize) {
        #expect(option(phrase) == .size(size))
    }

    @Test(arguments: [
        ("正常冰", IceLevel.regular), ("regular ice", .regular), ("normal ice", .regular),
        ("少冰", .less), ("less ice", .less), ("Less Ice", .less),
        ("微冰", .half), ("half ice", .half), ("light ice", .half),
        ("去冰", .iceFree), ("no ice", .iceFree), ("ice-free", .iceFree), ("ice free", .iceFree),
        ("完全去冰", .noIce), ("without ice", .noIce), ("zero ice", .noIce),
        ("常溫", .roomTemperature), ("room temp", .roomTemperature), ("room temperature", .roomTemperature),
        ("溫", .warm), ("warm", .warm), ("熱", .hot), ("hot", .hot), ("HOT", .hot),
    ])
    func iceAndTemperature(phrase: String, ice: IceLevel) {
        #expect(option(phrase) == .ice(ice))
    }

    @Test(arguments: [
        ("正常糖", SugarLevel.full), ("100%", .full), ("full sugar", .full), ("regular sugar", .full),
        ("100% sugar", .full), ("少糖", .less), ("70%", .less), ("less sugar", .less),
        ("半糖", .half), ("50%", .half), ("half", .half), ("half sugar", .half),
        ("微糖", .light), ("30%", .light), ("light sugar", .light), ("二分糖", .twenty), ("20%", .twenty),
        ("一分糖", .ten), ("10%", .ten), ("無糖", .free), ("0%", .free), ("no sugar", .free),
        ("sugar-free", .free), ("Sugar-Free", .free),
    ])
    func sugar(phrase: String, sugar: SugarLevel) {
        #expect(option(phrase) == .sugar(sugar))
    }

    @Test(arguments: [
        ("加白玉", AddOn.whiteTapioca), ("白玉", .whiteTapioca), ("+白玉", .whiteTapioca),
        ("white tapioca", .whiteTapioca), ("加水玉", .agarPearl), ("水玉", .agarPearl), ("agar pearl", .agarPearl),
        ("加菓玉", .fruitJelly), ("菓玉", .fruitJelly), ("konjac", .fruitJelly), ("fruit jelly", .fruitJelly),
    ])
    func addOns(phrase: String, addOn: AddOn) {
        #expect(option(phrase) == .addOn(addOn))
    }

    @Test func longestSpellingWinsAndReportsTokensUsed() {
        #expect(OptionVocabulary.match(["half", "ice"], at: 0) == OptionMatch(option: .ice(.half), tokenCount: 2))
        #expect(OptionVocabulary.match(["half", "x2"], at: 0) == OptionMatch(option: .sugar(.half), tokenCount: 1))
        #expect(OptionVocabulary.match(["room", "temperature"], at: 0)?.tokenCount == 2)
    }

    @Test func parsesAWholeOrderLineTokenByToken() {
        let tokens = ["白玉歐蕾", "L", "less", "ice", "half", "+白玉", "x2"]
        var index = 1
        var found: [DrinkOption] = []
        while let match = OptionVocabulary.match(tokens, at: index) {
            found.append(match.option)
            index += match.tokenCount
        }
        #expect(found == [.size(.large), .ice(.less), .sugar(.half), .addOn(.whiteTapioca)])
        #expect(tokens[index] == "x2")
    }

    @Test func wordsThatAreNotOptionsDoNotMatch() {
        #expect(OptionVocabulary.match(["less"], at: 0) == nil)
        #expect(OptionVocabulary.match(["regular"], at: 0) == nil)
        #expect(OptionVocabulary.match(["白玉歐蕾"], at: 0) == nil)
        #expect(OptionVocabulary.match(["x2"], at: 0) == nil)
        #expect(OptionVocabulary.match(["L"], at: 1) == nil)
        #expect(OptionVocabulary.match(["L"], at: -1) == nil)
        #expect(OptionVocabulary.match([], at: 0) == nil)
    }

    @Test func noSpellingMeansTwoOptions() {
        var owner: [String: DrinkOption] = [:]
        for entry in OptionVocabulary.entries {
            for spelling in entry.spellings {
                let key = spelling.matchingKey
                if let other = owner[key], other != entry.option {
                    Issue.record("\"\(spelling)\" means both \(other) and \(entry.option)")
                }
                owner[key] = entry.option
            }
        }
        #expect(owner.count == OptionVocabulary.allSpellings.count)
    }

    @Test func everyOptionIsSpelledByItsStoredValueAndEnglishLabel() {
        for option in DrinkOption.allCases {
            #expect(OptionVocabulary.option(for: option.storedValue) == option)
            #expect(OptionVocabulary.option(for: option.englishLabel) == option)
            #expect(OptionVocabulary.spellings(of: option).first == option.storedValue)
        }
    }

    @Test func completionsOfferEverySpellingWithThePrefix() {
        #expect(OptionVocabulary.completions(for: "less").sorted() == ["less ice", "less sugar"])
        #expect(OptionVocabulary.completions(for: "加").sorted() == ["加水玉", "加果玉", "加白玉", "加菓玉"].sorted())
        #expect(OptionVocabulary.completions(for: "").count == OptionVocabulary.allSpellings.count)
        #expect(OptionVocabulary.allSpellings.contains("room temperature"))
    }
}
