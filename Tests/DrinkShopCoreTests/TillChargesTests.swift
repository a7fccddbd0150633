import Foundation
import Testing
@testable import DrinkShopCore

@Suite("Till: adjustments and member benefits on the bill")
struct TillChargesTests {
    let now = Fixtures.noon

    func order(_ lines: [OrderLine], promotions: [Promotion] = []) throws -> Order {
        try Order.place(pickupNumber: 7, orderName: "小美", placedBy: "阿明", createdAt: now, lines: lines,
                        promotions: promotions)
    }

    var ownCup: Adjustment { get throws { try Adjustment(name: "環保杯", code: "cup", kind: .perCup(-5)) } }
    var bag: Adjustment { get throws { try Adjustment(name: "塑膠袋", code: "bag", kind: .perItem(2)) } }
    var staffPrice: Adjustment {
        get throws { try Adjustment(name: "員工價", code: "staff", kind: .percentOff(20), needsManager: true) }
    }

    @Test("own cups take NT$5 a cup and a bag adds its fee, shown apart from the promotion")
    func ownCupAndBag() throws {
        let promotion = try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice)
        let order = try order([Fixtures.line("熟成紅茶", quantity: 2)], promotions: [promotion])
        let charges = try OrderCharges.price(order, adjustments: [AdjustmentUse(ownCup, count: 2), AdjustmentUse(bag)])
        #expect(charges.subtotal == 70)
        #expect(charges.promotion?.totalDiscount == 17)
        #expect(charges.adjustments == [
            AppliedAdjustment(name: "環保杯", code: "cup", count: 2, amount: -10),
            AppliedAdjustment(name: "塑膠袋", code: "bag", count: 1, amount: 2),
        ])
        #expect(charges.total == 70 - 17 - 10 + 2)
    }

    @Test("a staff price takes its percentage of what is left after the promotion")
    func staffPricePercent() throws {
        let order = try order([Fixtures.line("白玉歐蕾")])
        let charges = try OrderCharges.price(order, adjustments: [AdjustmentUse(staffPrice), AdjustmentUse(bag)])
        #expect(charges.adjustments.first == AppliedAdjustment(name: "員工價", code: "staff", count: 1, amount: -12))
        #expect(charges.total == 60 - 12 + 2)
    }

    @Test("more own cups than cups, a count of zero, or one adjustment twice are refused")
    func refusedAdjustments() throws {
        let order = try order([Fixtures.line("熟成紅茶")])
        #expect(throws: ChargeError.moreThanCups("環保杯", count: 2, cups: 1)) {
            try OrderCharges.price(order, adjustments: [AdjustmentUse(ownCup, count: 2)])
        }
        #expect(throws: ChargeError.countBelowOne("塑膠袋", 0)) {
            try OrderCharges.price(order, adjustments: [AdjustmentUse(bag, count: 0)])
        }
        #expect(throws: ChargeError.usedTwice("塑膠袋")) {
            try OrderCharges.price(order, adjustments: [AdjustmentUse(bag), AdjustmentUse(bag)])
        }
    }

    @Test("a discount that would take the total below zero is refused")
    func belowZero() throws {
        let policy = try StampPolicy(stampsPerReward: 10, rewardSize: .medium)
        let order = try order([Fixtures.line("熟成紅茶")])
        let member = try MemberBenefits(freeCups: 1, stampPolicy: policy, at: now, calendar: .taiwan)
        #expect(throws: ChargeError.totalBelowZero(-5)) {
            try OrderCharges.price(order, adjustments: [AdjustmentUse(ownCup)], member: member)
        }
    }

    @Test("a free cup for stamps takes the dearest cup of the reward size; add-ons are still paid")
    func freeCup() throws {
        let policy = try StampPolicy(stampsPerReward: 10, rewardSize: .medium)
        let order = try order([Fixtures.line("熟成紅茶"), Fixtures.line("白玉歐蕾", addOns: [.whiteTapioca]),
                               Fixtures.line("熟成歐蕾", .large)])
        let charges = try OrderCharges.price(order, member: MemberBenefits(freeCups: 1, stampPolicy: policy, at: now, calendar: .taiwan))
        #expect(charges.memberDiscounts == [.freeCup(line: 1, cups: 1, amount: 60)])
        #expect(charges.total == order.subtotal - 60)
    }

    @Test("a free cup needs a cup of the reward size in the order")
    func freeCupWrongSize() throws {
        let policy = try StampPolicy(stampsPerReward: 10, rewardSize: .large)
        let order = try order([Fixtures.line("熟成紅茶")])
        #expect(throws: ChargeError.notEnoughRewardCups(size: .large, wanted: 1, available: 0)) {
            try OrderCharges.price(order, member: MemberBenefits(freeCups: 1, stampPolicy: policy, at: now, calendar: .taiwan))
        }
    }

    @Test("an active pass gives its discount; an expired one is refused before pricing")
    func passDiscount() throws {
        let order = try order([Fixtures.line("熟成紅茶", quantity: 2), Fixtures.line("白玉歐蕾")])
        let monthly = try MemberPass(name: "月卡", expiresAt: now.addingTimeInterval(86_400), benefit: .percentOff(10))
        let charges = try OrderCharges.price(order, member: MemberBenefits(pass: monthly, at: now, calendar: .taiwan))
        #expect(charges.memberDiscounts == [.pass(name: "月卡", amount: 13)])
        #expect(charges.total == 130 - 13)
        let perCup = try MemberPass(name: "茶友卡", expiresAt: now.addingTimeInterval(86_400), benefit: .perCupOff(5))
        #expect(try OrderCharges.price(order, member: MemberBenefits(pass: perCup, at: now, calendar: .taiwan)).total == 130 - 15)
        let expired = try MemberPass(name: "月卡", expiresAt: now.addingTimeInterval(-86_400), benefit: .percentOff(10))
        #expect(throws: MemberError.passExpired(pass: "月卡", expiredAt: expired.expiresAt, calendar: .taiwan)) {
            try MemberBenefits(pass: expired, at: now, calendar: .taiwan)
        }
        #expect(try MemberBenefits(pass: expired, usePass: false, at: now, calendar: .taiwan).passBenefit == nil)
    }

    @Test("adjustment configuration is checked field by field")
    func adjustmentValidation() throws {
        #expect(throws: AdjustmentValidationError.emptyName) { try Adjustment(name: " ", code: "cup", kind: .perCup(-5)) }
        #expect(throws: AdjustmentValidationError.badCode("Cup!")) { try Adjustment(name: "環保杯", code: "Cup!", kind: .perCup(-5)) }
        #expect(throws: AdjustmentValidationError.amountOutOfRange(0)) { try Adjustment(name: "袋", code: "bag", kind: .perItem(0)) }
        #expect(throws: AdjustmentValidationError.percentOutOfRange(120)) {
            try Adjustment(name: "員工價", code: "staff", kind: .percentOff(120))
        }
        #expect(AdjustmentValidationError.percentOutOfRange(120).field == "percent")
        #expect(try AdjustmentValidationError.kind(code: "perCup", amount: -5, percent: nil) == .perCup(-5))
        #expect(throws: AdjustmentValidationError.missingAmount) {
            try AdjustmentValidationError.kind(code: "perItem", amount: nil, percent: nil)
        }
        #expect(throws: AdjustmentValidationError.unknownKind("perBag")) {
            try AdjustmentValidationError.kind(code: "perBag", amount: 1, percent: nil)
        }
        #expect(try ownCup.summary == "-5 a cup")
        #expect(try bag.summary == "+2 each")
    }
}

@Suite("Till: bill lines and menu control")
struct TillBillAndMenuTests {
    @Test("the bill lists promotion, member benefits and adjustments apart, summing to the total")
    func billLines() throws {
        let promotion = try Promotion(name: "第二杯半價", kind: .secondCupHalfPrice)
        let order = try Order.place(pickupNumber: 3, orderName: "小美", placedBy: "阿明", createdAt: Fixtures.noon,
                                    lines: [Fixtures.line("熟成紅茶", quantity: 2)], promotions: [promotion])
        let pass = try MemberPass(name: "月卡", expiresAt: Fixtures.noon.addingTimeInterval(60), benefit: .percentOff(10))
        let cup = try Adjustment(name: "環保杯", code: "cup", kind: .perCup(-5))
        let charges = try OrderCharges.price(order, adjustments: [AdjustmentUse(cup, count: 2)],
                                             member: MemberBenefits(pass: pass, at: Fixtures.noon, calendar: .taiwan))
        #expect(charges.billLines.map(\.label) == ["小計", "第二杯半價", "月卡", "環保杯 ×2", "合計"])
        #expect(charges.billLines.map(\.amount) == [70, -17, -5, -10, 38])
        #expect(charges.billLines.dropLast().reduce(0) { $0 + $1.amount } == charges.total)
    }

    @Test("a price change is checked and described for the audit trail")
    func priceChange() throws {
        let drink = try Fixtures.drink("熟成紅茶")
        let (change, changed) = try MenuChange.price(of: drink, size: .medium, to: 38)
        #expect(changed.price(for: .medium) == 38)
        #expect(change.detail == "中杯 35 -> 38")
        #expect(change.auditEntry(by: "店長", at: Fixtures.noon).action == .changePrice)
        #expect(throws: MenuChangeError.priceNotPositive(-1)) { try MenuChange.price(of: drink, size: .medium, to: -1) }
        #expect(throws: MenuChangeError.priceNotPositive(0)) { try MenuChange.price(of: drink, size: .medium, to: 0) }
        #expect(throws: MenuChangeError.self) { try MenuChange.price(of: drink, size: .medium, to: 45) }
        let lemon = try Fixtures.drink("熟成檸果")
        #expect(throws: MenuChangeError.sizeNotSold(drink: "熟成檸果", size: .large)) {
            try MenuChange.price(of: lemon, size: .large, to: 70)
        }
    }

    @Test("sold out and restock flip availability, and repeating one is refused")
    func soldOut() throws {
        let drink = try Fixtures.drink("熟成紅茶")
        let (change, soldOut) = try MenuChange.availability(of: drink, available: false)
        #expect(change == .soldOut(drink: "熟成紅茶"))
        #expect(!soldOut.available)
        #expect(throws: MenuChangeError.nothingToChange(drink: "熟成紅茶", state: "sold out")) {
            try MenuChange.availability(of: soldOut, available: false)
        }
        #expect(try MenuChange.availability(of: soldOut, available: true).0 == .restock(drink: "熟成紅茶"))
    }
}
