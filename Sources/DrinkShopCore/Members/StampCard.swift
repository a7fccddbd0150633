/// The shop's 集點 rule: a stamp per cup, and `stampsPerReward` stamps buy one free cup of
/// `rewardSize` (its drink price; add-ons are still paid).
public struct StampPolicy: Sendable, Hashable {
    public let stampsPerReward: Int
    public let rewardSize: CupSize

    /// - Throws: `MemberError.invalidStampPolicy` for fewer than 2 stamps per reward.
    public init(stampsPerReward: Int, rewardSize: CupSize) throws(MemberError) {
        guard stampsPerReward >= 2 else { throw .invalidStampPolicy(stampsPerReward) }
        self.stampsPerReward = stampsPerReward
        self.rewardSize = rewardSize
    }

    /// The stamps an order earns: one a cup, none for cups given free by a redemption.
    public func stampsEarned(cups: Int, freeCups: Int = 0) -> Int { max(0, cups - freeCups) }
}

/// A member's stamps. Below zero when a voided order took back stamps the member had already spent: the
/// card then owes them, and earns its way back before it redeems again.
public struct StampCard: Sendable, Hashable {
    public let stamps: Int

    public init(stamps: Int = 0) { self.stamps = stamps }

    /// How many free cups the stamps buy now.
    public func rewardsAvailable(_ policy: StampPolicy) -> Int { max(0, stamps) / policy.stampsPerReward }

    /// The card after an order earned `count` stamps.
    public func adding(_ count: Int) -> StampCard { StampCard(stamps: stamps + max(0, count)) }

    /// The card after redeeming `rewards` free cups.
    /// - Throws: `MemberError.notEnoughStamps` saying how many are missing.
    public func redeeming(_ rewards: Int = 1, policy: StampPolicy) throws(MemberError) -> StampCard {
        let needed = rewards * policy.stampsPerReward
        guard rewards >= 1 else { throw .nothingToRedeem }
        guard stamps >= needed else { throw .notEnoughStamps(have: stamps, need: needed) }
        return StampCard(stamps: stamps - needed)
    }
}

/// What one order holds on its member's card: the stamps it spent on free cups and the stamps it earned.
/// The card is the sum of these over the member's orders (and what earlier versions gave), so an order's
/// share can be taken back exactly.
public struct OrderStamps: Sendable, Hashable {
    public var redeemed: Int
    public var earned: Int

    public init(redeemed: Int = 0, earned: Int = 0) {
        self.redeemed = redeemed
        self.earned = earned
    }

    /// How the card changes when the order's share goes from `self` to `target`.
    public func change(to target: OrderStamps) -> Int { (target.earned - earned) - (target.redeemed - redeemed) }
}

/// The one rule of when an order's stamps count (集點規則): free cups spend their stamps when they are
/// redeemed (so two orders cannot spend the same stamps), and an order earns a stamp per cup paid for only
/// once the money is in (paid in full, nothing given back). An order cancelled, voided or deleted holds
/// nothing: what it earned is taken back and what it spent is given back.
public enum StampRule {
    /// What an order should hold on the card now.
    /// - Parameters:
    ///   - held: what the order holds now (its spent stamps stay as redeemed while it stands).
    ///   - standing: false once the order is cancelled, voided or deleted.
    ///   - paidInFull: the ledger holds the whole bill and nothing was given back.
    ///   - policy: the stamp card; without one an order that stands keeps what it holds.
    public static func due(held: OrderStamps, cups: Int, freeCups: Int, standing: Bool, paidInFull: Bool,
                           policy: StampPolicy?) -> OrderStamps
    {
        guard standing else { return OrderStamps() }
        guard let policy else { return held }
        return OrderStamps(redeemed: held.redeemed, earned: paidInFull ? policy.stampsEarned(cups: cups, freeCups: freeCups) : 0)
    }

    /// Whether `money` counts as paid for stamps: something was paid, nothing is due, nothing went back.
    public static func isPaidInFull(_ money: OrderPayments) -> Bool {
        money.paid > 0 && money.due == 0 && money.refunded == 0
    }
}
