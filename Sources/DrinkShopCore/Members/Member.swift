#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A member as the counter sees them: their number, their stamps and the pass they hold.
public struct Member: Sendable, Hashable {
    public let mobile: MobileNumber
    public let card: StampCard
    /// The pass bought last (active or expired); nil if never bought.
    public let pass: MemberPass?

    public init(mobile: MobileNumber, card: StampCard = StampCard(), pass: MemberPass? = nil) {
        self.mobile = mobile
        self.card = card
        self.pass = pass
    }

    /// The pass's benefit for an order at `date`.
    /// - Throws: `MemberError.noPass`, or `.passExpired` for a pass that has run out.
    public func passBenefit(at date: Date, calendar: ShopCalendar) throws(MemberError) -> PassBenefit {
        guard let pass else { throw .noPass }
        return try pass.usableBenefit(at: date, calendar: calendar)
    }

    /// The member once an order redeems `freeCups`: their stamps are spent at once (so two orders cannot spend
    /// the same ones); the stamps the order earns come only once it is paid (`StampRule`).
    /// - Throws: `MemberError.notEnoughStamps` when the card cannot pay for the free cups.
    public func redeeming(freeCups: Int, policy: StampPolicy) throws(MemberError) -> Member {
        guard freeCups > 0 else { return self }
        return Member(mobile: mobile, card: try card.redeeming(freeCups, policy: policy), pass: pass)
    }

    /// What `member 0912345678` and `for 0912345678` show: "0912-***-678 · 集點 7/10 · active: 月卡 until 2026-12-31".
    /// Without a stamp card it says so (with any stamps the card still holds), and a member who never bought a
    /// pass has "no pass"; `showingStamps` false leaves the stamps out (a pass sale's line).
    public func summary(at date: Date, policy: StampPolicy?, calendar: ShopCalendar, showingStamps: Bool = true) -> String {
        var parts = [mobile.masked]
        if let policy {
            let free = card.rewardsAvailable(policy)
            parts.append("集點 \(card.stamps)/\(policy.stampsPerReward)" + (free > 0 ? " (\(free) free)" : ""))
        } else if showingStamps {
            parts.append(card.stamps == 0 ? "no stamp card is set up (未設定集點卡)"
                                          : "集點 \(card.stamps), no stamp card is set up (未設定集點卡)")
        }
        parts.append(pass.map { $0.status(at: date).sentence(calendar: calendar) } ?? "no pass (無月票)")
        return parts.joined(separator: " · ")
    }
}
