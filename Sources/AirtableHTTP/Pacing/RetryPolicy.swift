import Airtable
import Foundation

/// How the client retries: how many attempts, how it backs off after transient failures, and how long
/// it waits after a 429 that does not say.
public struct RetryPolicy: Sendable, Hashable {
    /// Attempts per request, the first included (429s count too).
    public var maximumAttempts: Int
    /// The backoff ceiling after the first failure; it doubles after each further one.
    public var initialBackoff: Double
    /// The largest backoff ceiling.
    public var maximumBackoff: Double
    /// The wait after a 429 without `Retry-After` (Airtable documents 30 seconds).
    public var rateLimitWait: Double
    /// The longest a request waits for its turn (the base held after a 429, this process's or another's
    /// through the pacing file; or this machine's requests queued that far ahead) before the client gives
    /// up with `rateLimited`, reserving no turn. Nil waits as long as it takes, as a batch job should; a
    /// counter that can keep an order in its outbox sets a few seconds, so a 429 hands the order back at
    /// once instead of holding the counter for the base's 30 s. A 429 whose wait is longer is not retried.
    public var longestHeldWait: Double?

    public init(maximumAttempts: Int = 5, initialBackoff: Double = 0.5, maximumBackoff: Double = 8,
                rateLimitWait: Double = 30, longestHeldWait: Double? = nil) {
        self.maximumAttempts = max(1, maximumAttempts)
        self.initialBackoff = max(0, initialBackoff)
        self.maximumBackoff = max(0, maximumBackoff)
        self.rateLimitWait = max(0, rateLimitWait)
        self.longestHeldWait = longestHeldWait.map { max(0, $0) }
    }

    /// The wait after failed attempt `attempt` (1-based): a ceiling that doubles each time, jittered
    /// into its upper half so that clients failing together do not retry together.
    /// - Parameter unit: a random number in `0..<1`.
    public func backoff(afterAttempt attempt: Int, unit: Double) -> Double {
        let doublings = min(max(attempt - 1, 0), 30)
        let ceiling = min(maximumBackoff, initialBackoff * Double(1 << doublings))
        return ceiling / 2 + ceiling / 2 * min(max(unit, 0), 1)
    }

    /// Seconds from a `Retry-After` value, when it is a number of seconds (HTTP dates are not used by
    /// Airtable and are ignored).
    public static func retryAfterSeconds(_ value: String?) -> Double? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), let seconds = Double(text),
              seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }
}
