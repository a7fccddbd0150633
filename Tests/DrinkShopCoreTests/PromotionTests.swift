import Foundation
import Testing
import TestSupport
@testable import DrinkShopCore

@Suite struct PromotionTests {
    private let noon = Fixtures.noon
    private let hour: TimeInterval = 3600

    @Test func secondCupHalfPriceDiscountsTheCheaperCupOfEachPairWithoutAddOns() throws {
        let promotion = try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice)
        let lines = [
            try Fixtures.line("白玉歐蕾", .large, addOns: [.whiteTapioca]),  // cup 70 (+10)
            try Fixtures.line("熟成歐蕾"),  // cup 55
            try Fixtures.line("熟成紅茶", quantity: 2),  // cups 35, 35
        ]
        // Ranked 70, 55, 35, 35: pairs (70, 55) and (35, 35); 55/2 = 27, 35/2 = 17.
        #expect(promotion.lineDiscounts(for: lines) == [0, 27, 17])
    }

    @Test func halfPriceRoundsDownToWholeDollars() throws {
        let promotion = try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice)
        #expect(promotion.lineDiscounts(for: [try Fixtures.line("熟成歐蕾", quantity: 2)]) == [27])
    }

    @Test func cupsCountByQuantityAndAnOddCupPaysFull() throws {
        let promotion = try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice)
        #expect(promotion.lineDiscounts(for: [try Fixtures.line("白玉歐蕾", quantity: 3)]) == [30])
        #expect(promotion.lineDiscounts(for: [try Fixtures.line("白玉歐蕾", quantity: 4)]) == [60])
        #expect(promotion.lineDiscounts(for: [try Fixtures.line("白玉歐蕾")]) == [0])
    }

    @Test func buyOneGetOneMakesTheCheaperCupOfEachPairFree() throws {
        let promotion = try Promotion(name: "買一送一", kind: .buyOneGetOne)
        let lines = [
            try Fixtures.line("白玉歐蕾", addOns: [.agarPearl]),  // cup 60 (+10)
            try Fixtures.line("熟成紅茶", addOns: [.whiteTapioca]),  // cup 35 (+10)
        ]
        #expect(promotion.lineDiscounts(for: lines) == [0, 35])
    }

    @Test func equalPricedCupsCreditTheLaterLine() throws {
        let promotion = try Promotion(name: "買一送一", kind: .buyOneGetOne)
        let lines = [try Fixtures.line("熟成歐蕾"), try Fixtures.line("冷露歐蕾")]
        #expect(promotion.lineDiscounts(for: lines) == [0, 55])
    }

    @Test func aScopedPairPromotionOnlyPairsCoveredCups() throws {
        let promotion = try Promotion(name: "歐蕾第二杯半價", kind: .secondCupHalfPrice, scope: .category(.milkTea))
        let lines = [try Fixtures.line("白玉歐蕾"), try Fixtures.line("熟成紅茶"), try Fixtures.line("熟成歐蕾")]
        #expect(promotion.lineDiscounts(for: lines) == [0, 0, 27])
        let oneDrink = try Promotion(name: "白玉買一送一", kind: .buyOneGetOne, scope: .drink("白玉歐蕾"))
        #expect(oneDrink.lineDiscounts(for: lines) == [0, 0, 0])
        #expect(oneDrink.lineDiscounts(for: [try Fixtures.line("白玉歐蕾", quantity: 2)]) == [60])
    }

    @Test func percentOffACategoryOrADrinkIncludesAddOnsAndRoundsDown() throws {
        let category = try Promotion(name: "紅茶85折", kind: .percentOff(15), scope: .category(.classicTea))
        let lines = [try Fixtures.line("熟成紅茶", addOns: [.whiteTapioca], quantity: 3), try Fixtures.line("白玉歐蕾")]
        // 熟成紅茶: (35 + 10) × 3 = 135; 15% = 20.25 → 20.
        #expect(category.lineDiscounts(for: lines) == [20, 0])
        let drink = try Promotion(name: "白玉歐蕾8折", kind: .percentOff(20), scope: .drink("白玉歐蕾"))
        #expect(drink.lineDiscounts(for: lines) == [0, 12])
        let everything = try Promotion(name: "全單9折", kind: .percentOff(10))
        #expect(everything.lineDiscounts(for: lines) == [13, 6])
    }

    @Test func activeFromStartUntilJustBeforeEnd() throws {
        let promotion = try Promotion(name: "午茶", kind: .buyOneGetOne, startsAt: noon, endsAt: noon + hour)
        #expect(!promotion.isActive(at: noon - 1))
        #expect(promotion.isActive(at: noon))
        #expect(promotion.isActive(at: noon + hour - 1))
        #expect(!promotion.isActive(at: noon + hour))
        #expect(try Promotion(name: "開幕", kind: .buyOneGetOne, endsAt: noon).isActive(at: .distantPast))
        #expect(try Promotion(name: "新品", kind: .buyOneGetOne, startsAt: noon).isActive(at: .distantFuture))
        #expect(try Promotion(name: "常態", kind: .buyOneGetOne).isActive(at: noon))
    }

    @Test func rejectsBadPromotionsNamingTheField() {
        #expect(throws: PromotionValidationError.emptyName) { try Promotion(name: " ", kind: .buyOneGetOne) }
        #expect(throws: PromotionValidationError.percentOutOfRange(0)) {
            try Promotion(name: "x", kind: .percentOff(0))
        }
        #expect(throws: PromotionValidationError.percentOutOfRange(101)) {
            try Promotion(name: "x", kind: .percentOff(101))
        }
        #expect(throws: PromotionValidationError.emptyDrinkScope) {
            try Promotion(name: "x", kind: .buyOneGetOne, scope: .drink(" "))
        }
        #expect(throws: PromotionValidationError.windowEndsBeforeStart) {
            try Promotion(name: "x", kind: .buyOneGetOne, startsAt: noon, endsAt: noon)
        }
        #expect(PromotionValidationError.windowEndsBeforeStart.field == "endsAt")
    }

    @Test func kindsReadFromStoredCodesAndCommonSpellings() throws {
        #expect(try PromotionKind(code: "secondCupHalfPrice") == .secondCupHalfPrice)
        #expect(try PromotionKind(code: "第二杯半價") == .secondCupHalfPrice)
        #expect(try PromotionKind(code: "BOGO") == .buyOneGetOne)
        #expect(try PromotionKind(code: "percentOff", percent: 20) == .percentOff(20))
        #expect(throws: PromotionValidationError.missingPercent) { try PromotionKind(code: "percentOff") }
        #expect(throws: PromotionValidationError.unknownKind("free refill")) { try PromotionKind(code: "free refill") }
        for kind in [PromotionKind.secondCupHalfPrice, .buyOneGetOne, .percentOff(15)] {
            #expect(try PromotionKind(code: kind.code, percent: kind.percent) == kind)
        }
    }

    @Test func summariesSayWhatAndOnWhat() throws {
        #expect(try Promotion(name: "a", kind: .secondCupHalfPrice, scope: .category(.milkTea)).summary
            == "second cup half price on 歐蕾 Milk Tea")
        #expect(try Promotion(name: "b", kind: .percentOff(20), scope: .drink("白玉歐蕾")).summary == "20% off 白玉歐蕾")
        #expect(try Promotion(name: "c", kind: .buyOneGetOne).summary == "buy one, get one free")
    }
}

@Suite struct PairingPropertyTests {
    /// The pair rule spelled out the slow way: list every cup, rank dearest first (ties by line
    /// order), discount every second one.
    private func expectedDiscounts(_ lines: [OrderLine], _ promotion: Promotion) -> [Int] {
        var cups: [(line: Int, price: Int)] = []
        for (index, line) in lines.enumerated() where promotion.covers(line) {
            cups += Array(repeating: (index, line.cupPrice), count: line.quantity)
        }
        let ranked = cups.enumerated()
            .sorted { ($0.element.price, $1.offset) > ($1.element.price, $0.offset) }
            .map(\.element)
        var discounts = [Int](repeating: 0, count: lines.count)
        for rank in stride(from: 1, to: ranked.count, by: 2) {
            let cup = ranked[rank]
            discounts[cup.line] += promotion.kind == .buyOneGetOne ? cup.price : cup.price / 2
        }
        return discounts
    }

    @Test func countingRanksAgreesWithListingEveryCup() throws {
        var generator = SplitMix64(seed: 7)
        let drinks = try Fixtures.menu().drinks.filter(\.available)
        let promotions = [
            try Promotion(name: "half", kind: .secondCupHalfPrice),
            try Promotion(name: "bogo", kind: .buyOneGetOne),
            try Promotion(name: "milk half", kind: .secondCupHalfPrice, scope: .category(.milkTea)),
        ]
        for _ in 0..<300 {
            let lines = try (0..<Int(generator.next() % 5 + 1)).map { _ in
                let drink = drinks[Int(generator.next() % UInt64(drinks.count))]
                let size: CupSize = drink.largePrice != nil && generator.next() % 2 == 0 ? .large : .medium
                let addOns = Array(AddOn.allCases.prefix(Int(generator.next() % 3)))
                return try OrderLine(drink: drink, choices: DrinkChoices(
                    size: size, ice: .less, sugar: .half, addOns: addOns, quantity: Int(generator.next() % 4 + 1)))
            }
            for promotion in promotions {
                #expect(promotion.lineDiscounts(for: lines) == expectedDiscounts(lines, promotion))
            }
        }
    }
}

@Suite struct BestPromotionTests {
    private let noon = Fixtures.noon

    @Test func theLargestDiscountWins() throws {
        let lines = [try Fixtures.line("白玉歐蕾", quantity: 2)]
        let promotions = [
            try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice),
            try Promotion(name: "買一送一", kind: .buyOneGetOne),
            try Promotion(name: "全單9折", kind: .percentOff(10)),
        ]
        #expect(Pricing.bestPromotion(for: lines, among: promotions, at: noon)
            == AppliedPromotion(name: "買一送一", lineDiscounts: [60]))
    }

    @Test func promotionsOutsideTheirWindowAreIgnored() throws {
        let lines = [try Fixtures.line("白玉歐蕾", quantity: 2)]
        let expired = try Promotion(name: "買一送一", kind: .buyOneGetOne, endsAt: noon)
        let future = try Promotion(name: "明日買一送一", kind: .buyOneGetOne, startsAt: noon + 86_400)
        let running = try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice, startsAt: noon - 60)
        #expect(Pricing.bestPromotion(for: lines, among: [expired, future, running], at: noon)?.name == "第二杯半價")
        #expect(Pricing.bestPromotion(for: lines, among: [expired, future], at: noon) == nil)
    }

    @Test func aPromotionThatTakesNothingOffDoesNotApply() throws {
        let lines = [try Fixtures.line("熟成紅茶")]
        let promotions = [try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice)]
        #expect(Pricing.bestPromotion(for: lines, among: promotions, at: noon) == nil)
        #expect(Pricing.bestPromotion(for: lines, among: [], at: noon) == nil)
    }

    @Test func tiesGoToTheNameThatSortsFirstWhateverTheOrderGiven() throws {
        let lines = [try Fixtures.line("白玉歐蕾", quantity: 2)]
        let a = try Promotion(name: "A 五折", kind: .percentOff(50))
        let b = try Promotion(name: "B 買一送一", kind: .buyOneGetOne)
        #expect(Pricing.bestPromotion(for: lines, among: [a, b], at: noon)?.name == "A 五折")
        #expect(Pricing.bestPromotion(for: lines, among: [b, a], at: noon)?.name == "A 五折")
    }
}
