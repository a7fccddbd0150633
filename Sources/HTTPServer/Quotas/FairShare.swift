/// How much of a shared cap one network may hold: at most half of what the other networks leave of it
/// (rounded up, so a cap of one can still be taken), and never more than its own fixed cap. One network
/// therefore never fills a cap: after it takes its part at least as much stays free for the next network,
/// and a client on a network of its own finds room until the cap is split among many networks (the free
/// part halves with each new network that takes its whole share). Counts are whatever the cap is of:
/// connections, groups, cups, NT$.
public enum FairShare {
    /// The most one network may hold of `cap` while the other networks hold `heldByOthers`, never above `perNetwork`.
    public static func limit(cap: Int, heldByOthers: Int, perNetwork: Int = .max) -> Int {
        let free = max(0, cap - max(0, heldByOthers))
        return min(perNetwork, free / 2 + free % 2)
    }

    /// Whether a network holding `holding` may take `amount` more, while every network together holds `total`.
    public static func allows(_ amount: Int = 1, holding: Int, total: Int, cap: Int, perNetwork: Int = .max) -> Bool {
        holding + amount <= limit(cap: cap, heldByOthers: total - holding, perNetwork: perNetwork)
    }
}
