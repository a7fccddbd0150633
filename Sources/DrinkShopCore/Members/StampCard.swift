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

/// A member's stamps.
public struct StampCard: Sendable, Hashable {
    public let stamps: Int

    public init(stamps: Int = 0) { self.stamps = max(0, stamps) }

    /// How many free cups the stamps buy now.
    public func rewardsAvailable(_ policy: StampPolicy) -> Int { stamps / policy.stampsPerReward }

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
