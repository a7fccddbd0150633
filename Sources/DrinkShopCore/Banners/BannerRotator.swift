/// Which banner shows when: a pure rotation driven by the instants it is given.
///
/// The banner shown advances every `interval` (3 s by default) and wraps from the last to the
/// first. `next`/`previous` move by hand and restart the interval from the chosen banner. When
/// the list changes, the banner on screen stays if it is still listed (keeping its remaining
/// time); otherwise the one that followed it in the old list (the first of its followers still
/// listed) takes over. An empty list shows nothing. The rotator never reads a clock.
public struct BannerRotator: Sendable {
    /// The instants the rotator is driven by; the caller reads the clock, the rotator never does.
    public typealias Instant = ContinuousClock.Instant

    /// The default time each banner stays on screen.
    public static let defaultInterval: Duration = .seconds(3)

    /// The banners in rotation order.
    public private(set) var banners: [Banner]
    /// The time each banner stays on screen; zero or negative means it only moves by hand.
    public let interval: Duration
    /// The banner on screen at `anchor`.
    private var anchorIndex: Int
    /// When `anchorIndex` came on screen.
    private var anchor: Instant

    /// Starts showing the first banner at `now`.
    public init(banners: [Banner], interval: Duration = defaultInterval, startingAt now: Instant) {
        self.banners = banners
        self.interval = interval
        self.anchorIndex = 0
        self.anchor = now
    }

    /// The banner on screen at `now`; nil when there are none.
    public func current(at now: Instant) -> Banner? {
        currentIndex(at: now).map { banners[$0] }
    }

    /// The position of the banner on screen at `now`; nil when there are none.
    public func currentIndex(at now: Instant) -> Int? {
        guard !banners.isEmpty else { return nil }
        return (anchorIndex + completedIntervals(at: now) % banners.count) % banners.count
    }

    /// How long until the banner changes by itself; nil when it never will (no banners, one
    /// banner, or a manual-only rotator).
    public func timeUntilNextChange(at now: Instant) -> Duration? {
        guard banners.count > 1, interval > .zero else { return nil }
        let shownSince = anchor + interval * completedIntervals(at: now)
        return max(.zero, shownSince + interval - now)
    }

    /// Moves to the banner after the one on screen (the first after the last) and restarts the
    /// interval; returns it.
    @discardableResult
    public mutating func next(at now: Instant) -> Banner? {
        step(by: 1, at: now)
    }

    /// Moves to the banner before the one on screen (the last before the first) and restarts
    /// the interval; returns it.
    @discardableResult
    public mutating func previous(at now: Instant) -> Banner? {
        step(by: -1, at: now)
    }

    /// Replaces the list (a promotion started or ended) without skipping or repeating a banner.
    public mutating func update(banners newBanners: [Banner], at now: Instant) {
        defer { banners = newBanners }
        guard let shown = currentIndex(at: now), !newBanners.isEmpty else {
            anchorIndex = 0
            anchor = now
            return
        }
        if let kept = newBanners.firstIndex(where: { $0.id == banners[shown].id }) {
            // Same banner, same phase: it keeps the time it has left.
            anchor = anchor + interval * completedIntervals(at: now)
            anchorIndex = kept
            return
        }
        anchor = now
        anchorIndex = 0
        for offset in 1..<max(banners.count, 1) {
            let follower = banners[(shown + offset) % banners.count]
            if let position = newBanners.firstIndex(where: { $0.id == follower.id }) {
                anchorIndex = position
                return
            }
        }
    }

    private mutating func step(by offset: Int, at now: Instant) -> Banner? {
        guard let shown = currentIndex(at: now) else { return nil }
        let count = banners.count
        anchorIndex = ((shown + offset) % count + count) % count
        anchor = now
        return banners[anchorIndex]
    }

    /// How many whole intervals have passed since `anchor`; 0 for an instant before it.
    private func completedIntervals(at now: Instant) -> Int {
        guard interval > .zero, now > anchor else { return 0 }
        // A sub-nanosecond interval counts as one nanosecond rather than dividing by zero.
        return Int((now - anchor).nanoseconds / max(1, interval.nanoseconds))
    }
}

extension Duration {
    /// The duration in whole nanoseconds, saturating instead of overflowing.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowSum) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowSum ? .max : sum
    }
}
