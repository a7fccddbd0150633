/// How much one client network may do of one kind (start groups, add lines, send orders): a token bucket
/// per network (`ClientNetwork`'s key: the socket peer's /24 or /64, so one machine's many addresses share
/// one bucket), full at `burst`, refilled by one every `every` seconds. A pure ledger: the time comes in
/// with each call. Networks whose bucket is full again are forgotten once many are held, so a street of
/// passing phones does not grow it without bound.
///
/// Behind a proxy every customer would share the proxy's network; the page does not trust `X-Forwarded-For`
/// (anyone can send one), so put it before no proxy, or size `burst` for the proxy.
public struct NetworkQuota: Sendable {
    public struct Rate: Sendable, Equatable {
        /// Actions allowed at once from a fresh network.
        public var burst: Int
        /// Seconds until one more is allowed.
        public var every: Double

        public init(burst: Int, every: Double) {
            self.burst = burst
            self.every = every
        }
    }

    public enum Decision: Sendable, Equatable {
        case allowed
        /// Refused; one more is allowed in this many whole seconds.
        case wait(seconds: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updated: Double
    }

    public let rate: Rate
    /// Networks held before full buckets are dropped.
    let pruneAbove: Int
    private var buckets: [String: Bucket] = [:]

    public init(_ rate: Rate, pruneAbove: Int = 10_000) {
        self.rate = rate
        self.pruneAbove = pruneAbove
    }

    /// Takes one action's token for `network` at `now` (seconds on any monotonic scale).
    public mutating func take(_ network: String, now: Double) -> Decision {
        let capacity = Double(max(0, rate.burst))
        var bucket = buckets[network] ?? Bucket(tokens: capacity, updated: now)
        if rate.every > 0 {
            bucket.tokens = min(capacity, bucket.tokens + max(0, now - bucket.updated) / rate.every)
        } else {
            bucket.tokens = capacity
        }
        bucket.updated = now
        defer {
            buckets[network] = bucket
            if buckets.count > pruneAbove { prune(now: now) }
        }
        guard bucket.tokens >= 1 else {
            let seconds = (1 - bucket.tokens) * rate.every
            return .wait(seconds: max(1, Int(seconds.rounded(.up))))
        }
        bucket.tokens -= 1
        return .allowed
    }

    /// Networks held now.
    public var count: Int { buckets.count }

    private mutating func prune(now: Double) {
        let capacity = Double(max(0, rate.burst))
        buckets = buckets.filter { _, bucket in
            rate.every > 0 && bucket.tokens + max(0, now - bucket.updated) / rate.every < capacity
        }
    }
}
