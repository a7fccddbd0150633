import Foundation
import Testing
@testable import DrinkShopCore

@Suite("Till: members, stamps and passes")
struct TillMemberTests {
    let now = Fixtures.noon
    let day: TimeInterval = 86_400

    @Test("mobile numbers are normalised from the ways staff type them",
          arguments: ["0912345678", "0912-345-678", "0912 345 678", " 0912.345.678 ", "+886 912 345 678", "886912345678"])
    func normalises(text: String) throws {
        let number = try MobileNumber(parsing: text)
        #expect(number.digits == "0912345678")
        #expect(number.formatted == "0912-345-678")
        #expect(number.masked == "0912-***-678")
    }

    @Test("numbers that are not Taiwanese mobiles say what is wrong")
    func badNumbers() {
        #expect(throws: MemberError.invalidMobileNumber("0212345678", problem: "does not start with 09")) {
            try MobileNumber(parsing: "0212345678")
        }
        #expect(throws: MemberError.invalidMobileNumber("091234567", problem: "has 9 digits, not 10")) {
            try MobileNumber(parsing: "091234567")
        }
        #expect(throws: MemberError.invalidMobileNumber("09123x5678", problem: "has characters other than digits")) {
            try MobileNumber(parsing: "09123x5678")
        }
    }

    @Test("a stamp per cup; N stamps redeem a free drink; too few stamps are refused")
    func stamps() throws {
        let policy = try StampPolicy(stampsPerReward: 10, rewardSize: .medium)
        var card = StampCard().adding(policy.stampsEarned(cups: 9))
        #expect(card.rewardsAvailable(policy) == 0)
        #expect(throws: MemberError.notEnoughStamps(have: 9, need: 10)) { try card.redeeming(policy: policy) }
        #expect(MemberError.notEnoughStamps(have: 9, need: 10).description.contains("1 more"))
        card = card.adding(policy.stampsEarned(cups: 12, freeCups: 1))
        #expect(card.stamps == 20)
        #expect(card.rewardsAvailable(policy) == 2)
        #expect(try card.redeeming(2, policy: policy).stamps == 0)
        #expect(throws: MemberError.invalidStampPolicy(1)) { try StampPolicy(stampsPerReward: 1, rewardSize: .medium) }
    }

    @Test("a pass is active until its expiry, expired from then, and not purchased without one")
    func passStatus() throws {
        let product = try PassProduct(name: "月卡", days: 30, price: 299, benefit: .percentOff(10))
        #expect(product.status(held: nil, at: now) == .notPurchased(pass: "月卡"))
        let pass = try product.purchase(held: nil, at: now, calendar: .taiwan)
        #expect(pass.expiresAt == now.addingTimeInterval(30 * day))
        let status = product.status(held: pass, at: now.addingTimeInterval(29 * day))
        #expect(status == .active(pass: "月卡", until: pass.expiresAt))
        #expect(status.blocksPurchase)
        #expect(status.sentence(calendar: .taiwan) == "active: 月卡 until \(ShopCalendar.taiwan.dayText(pass.expiresAt))")
        let after = product.status(held: pass, at: pass.expiresAt)
        #expect(after == .expired(pass: "月卡", at: pass.expiresAt))
        #expect(!after.blocksPurchase)
        #expect(PassStatus.notPurchased(pass: "月卡").sentence(calendar: .taiwan) == "not purchased: 月卡")
    }

    @Test("buying a pass while it is active is refused; once expired it can be bought again")
    func purchaseWhileActive() throws {
        let product = try PassProduct(name: "月卡", days: 30, price: 299, benefit: .percentOff(10))
        let pass = try product.purchase(held: nil, at: now, calendar: .taiwan)
        #expect(throws: MemberError.passStillActive(pass: "月卡", until: pass.expiresAt, calendar: .taiwan)) {
            try product.purchase(held: pass, at: now.addingTimeInterval(day), calendar: .taiwan)
        }
        let later = pass.expiresAt.addingTimeInterval(day)
        #expect(try product.purchase(held: pass, at: later, calendar: .taiwan).expiresAt == later.addingTimeInterval(30 * day))
        #expect(try pass.renewed(days: 30, at: now).expiresAt == pass.expiresAt.addingTimeInterval(30 * day))
    }

    @Test("a pass that expired yesterday is refused, saying the day")
    func expiredYesterday() throws {
        let expiry = now.addingTimeInterval(-day)
        let pass = try MemberPass(name: "月卡", expiresAt: expiry, benefit: .percentOff(10))
        #expect(throws: MemberError.passExpired(pass: "月卡", expiredAt: expiry, calendar: .taiwan)) { try pass.usableBenefit(at: now, calendar: .taiwan) }
        let message = MemberError.passExpired(pass: "月卡", expiredAt: expiry, calendar: .taiwan).description
        #expect(message.contains("expired on \(ShopCalendar.taiwan.dayText(expiry))"))
        #expect(try pass.usableBenefit(at: expiry.addingTimeInterval(-1), calendar: .taiwan) == .percentOff(10))
    }

    @Test("pass configuration is checked")
    func passValidation() {
        #expect(throws: MemberError.self) { try MemberPass(name: " ", expiresAt: now, benefit: .percentOff(10)) }
        #expect(throws: MemberError.self) { try MemberPass(name: "月卡", expiresAt: now, benefit: .percentOff(0)) }
        #expect(throws: MemberError.self) { try MemberPass(name: "月卡", expiresAt: now, benefit: .perCupOff(0)) }
        #expect(throws: MemberError.self) { try PassProduct(name: "月卡", days: 0, price: 1, benefit: .perCupOff(5)) }
        #expect(throws: MemberError.self) { try PassProduct(name: "月卡", days: 30, price: -1, benefit: .perCupOff(5)) }
    }

    @Test("the shop calendar names Taiwan's day and hour")
    func calendar() {
        // 2026-12-01T16:30:00Z is 2026-12-02 00:30 in Taiwan.
        let date = Date(timeIntervalSince1970: 1_796_142_600)
        #expect(ShopCalendar.taiwan.dayText(date) == "2026-12-02")
        #expect(ShopCalendar.taiwan.hour(of: date) == 0)
        #expect(ShopCalendar(utcOffsetSeconds: 0).minuteText(date) == "2026-12-01 16:30")
        #expect(ShopCalendar(utcOffsetSeconds: 0).dayText(Date(timeIntervalSince1970: 951_782_400)) == "2000-02-29")
    }
}

@Suite("Till: a member at the counter")
struct TillMemberAtCounterTests {
    let now = Fixtures.noon

    @Test("an order spends its free cups' stamps at once; it earns a stamp per cup only once paid, and nothing once cancelled")
    func stampRule() throws {
        let policy = try StampPolicy(stampsPerReward: 10, rewardSize: .medium)
        let member = Member(mobile: try MobileNumber(parsing: "0912-345-678"), card: StampCard(stamps: 12))
        #expect(try member.redeeming(freeCups: 1, policy: policy).card.stamps == 2)
        #expect(throws: MemberError.notEnoughStamps(have: 12, need: 20)) { try member.redeeming(freeCups: 2, policy: policy) }
        let spent = OrderStamps(redeemed: 10)
        // Unpaid, partly paid: nothing earned. Paid in full: a stamp per cup not given free.
        #expect(StampRule.due(held: spent, cups: 3, freeCups: 1, standing: true, paidInFull: false, policy: policy) == spent)
        let paid = StampRule.due(held: spent, cups: 3, freeCups: 1, standing: true, paidInFull: true, policy: policy)
        #expect(paid == OrderStamps(redeemed: 10, earned: 2))
        #expect(spent.change(to: paid) == 2)
        // Cancelled or voided: what it earned goes back, what it spent is given back.
        let gone = StampRule.due(held: paid, cups: 3, freeCups: 1, standing: false, paidInFull: true, policy: policy)
        #expect(gone == OrderStamps() && paid.change(to: gone) == 8)
        // A card that gave back stamps it had already spent owes them, and redeems nothing until it earns them back.
        let owing = StampCard(stamps: -8)
        #expect(owing.rewardsAvailable(policy) == 0)
        #expect(throws: MemberError.notEnoughStamps(have: -8, need: 10)) { try owing.redeeming(policy: policy) }
        let money = try OrderPayments(pickupNumber: 1, total: 100, payments: [try Payment(method: .cash, amount: 60, takenBy: "Amy", takenAt: now)])
        #expect(!StampRule.isPaidInFull(money))
        let (whole, _) = try money.paying(.card, tendered: 40, voided: false, by: "Ben", at: now)
        #expect(StampRule.isPaidInFull(whole))
        #expect(!StampRule.isPaidInFull(whole.refundingAll(reason: "void", by: "Boss", at: now).0))
        #expect(throws: MemberError.noPass) { try member.passBenefit(at: now, calendar: .taiwan) }
    }

    @Test("the member's line shows stamps and the pass's status, with the number masked")
    func summary() throws {
        let policy = try StampPolicy(stampsPerReward: 10, rewardSize: .medium)
        let expiry = now.addingTimeInterval(86_400)
        let pass = try MemberPass(name: "月卡", expiresAt: expiry, benefit: .percentOff(10))
        let member = Member(mobile: try MobileNumber(parsing: "0912345678"), card: StampCard(stamps: 13), pass: pass)
        let day = ShopCalendar.taiwan.dayText(expiry)
        #expect(member.summary(at: now, policy: policy, calendar: .taiwan) == "0912-***-678 · 集點 13/10 (1 free) · active: 月卡 until \(day)")
        #expect(member.summary(at: expiry, policy: nil, calendar: .taiwan, showingStamps: false) == "0912-***-678 · expired: 月卡 at \(day)")
    }

    @Test("without a stamp card or a pass the member's line says so, not only the masked number")
    func summaryWithoutStampCardOrPass() throws {
        let member = Member(mobile: try MobileNumber(parsing: "0912345678"))
        #expect(member.summary(at: now, policy: nil, calendar: .taiwan) == "0912-***-678 · no stamp card is set up (未設定集點卡) · no pass (無月票)")
        let stamped = Member(mobile: try MobileNumber(parsing: "0912345678"), card: StampCard(stamps: 3))
        #expect(stamped.summary(at: now, policy: nil, calendar: .taiwan).contains("集點 3, no stamp card is set up"))
    }
}
