import Foundation
import Glibc
import Synchronization

/// Emulates Airtable's per-base rate limit: a token bucket of `requestsPerSecond` (burst of the same
/// size). A request that finds the bucket empty is refused, and, as Airtable does, the base then refuses
/// everything for `penalty` seconds. Refused requests are never performed.
public final class RateLimiter: Sendable {
    public struct Decision: Equatable, Sendable {
        public var allowed: Bool
        /// Whole seconds to wait, for `Retry-After`.
        public var retryAfter: Int
    }

    private struct Bucket {
        var tokens: Double
        var updated: Double
        var blockedUntil: Double
    }

    public let requestsPerSecond: Double
    public let penalty: Double
    private let clock: @Sendable () -> Double
    private let buckets = Mutex<[String: Bucket]>([:])

    /// - Parameters:
    ///   - clock: monotonic seconds (injected in tests).
    public init(requestsPerSecond: Double, penalty: Double = 30,
                clock: @escaping @Sendable () -> Double = RateLimiter.monotonicSeconds) {
        self.requestsPerSecond = requestsPerSecond
        self.penalty = penalty
        self.clock = clock
    }

    /// Takes one request's token for `base`, or says how long to wait.
    public func admit(base: String) -> Decision {
        let now = clock()
        return buckets.withLock { buckets in
            var bucket = buckets[base] ?? Bucket(tokens: requestsPerSecond, updated: now, blockedUntil: 0)
            defer { buckets[base] = bucket }
            if now < bucket.blockedUntil {
                return Decision(allowed: false, retryAfter: Int((bucket.blockedUntil - now).rounded(.up)))
            }
            bucket.tokens = min(requestsPerSecond, bucket.tokens + (now - bucket.updated) * requestsPerSecond)
            bucket.updated = now
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return Decision(allowed: true, retryAfter: 0)
            }
            bucket.blockedUntil = now + penalty
            return Decision(allowed: false, retryAfter: Int(penalty.rounded(.up)))
        }
    }

    public static let monotonicSeconds: @Sendable () -> Double = {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
