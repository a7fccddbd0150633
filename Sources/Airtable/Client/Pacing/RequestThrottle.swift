import Synchronization

/// Paces requests to one base so that the server's rate limit is never hit: the generic cell rate
/// algorithm, allowing a burst of `burst` requests and then one every `1/requestsPerSecond` seconds.
/// It hands out send times; callers wait for theirs. One throttle per base is shared by every task of
/// the process (`shared(for:…)`).
///
/// Why this stays within Airtable's limit, and `drinkshop serve --rate-limit N` (a token bucket of N
/// tokens refilled at N per second, which refuses a request finding it empty):
/// - The send times `s_i` satisfy, for every `i < j`, `j - i + 1 <= burst + rate * (s_j - s_i)`: each
///   send is at least `1/rate` after the previous theoretical arrival, less the burst tolerance.
/// - A bucket of `N` starting full admits every request exactly when each window of arrivals of length
///   `L` holds at most `N + rate * L` of them.
/// - Arrival times are send times plus a network delay between `d` and `d + jitter`, so a window of
///   arrivals of length `L` spans sends of at most `L + jitter`, and holds at most
///   `burst + rate * (L + jitter)` requests. That is within `N + rate * L` whenever
///   `jitter <= (N - burst) / rate`.
///
/// With the defaults (5 per second, burst 3) that tolerates 0.4 s of jitter; `burst` equal to `N`
/// tolerates none.
public final class RequestThrottle: Sendable {
    /// The sustained rate.
    public let requestsPerSecond: Double
    /// Requests allowed back to back.
    public let burst: Int

    private struct State {
        /// When the next request would be due if requests came exactly at the rate (GCRA's TAT).
        var theoreticalArrival = -Double.infinity
        /// Nobody sends before this (set after a 429, for every task).
        var heldUntil = -Double.infinity
    }

    private let state = Mutex(State())

    /// - Parameters:
    ///   - requestsPerSecond: the sustained rate; must be positive.
    ///   - burst: requests allowed back to back before the rate applies; at least 1.
    public init(requestsPerSecond: Double, burst: Int) {
        self.requestsPerSecond = requestsPerSecond > 0 ? requestsPerSecond : 1
        self.burst = max(1, burst)
    }

    /// The default burst for a rate: two below the rate (so 0.4 s of jitter at 5 per second), at least 1.
    public static func defaultBurst(for requestsPerSecond: Double) -> Int {
        max(1, Int(requestsPerSecond.rounded(.down)) - 2)
    }

    /// Reserves the next send time for a request that is ready at `now`; the caller waits until then.
    public func reserve(at now: Double) -> Double {
        let interval = 1 / requestsPerSecond
        let tolerance = Double(burst - 1) * interval
        return state.withLock { state in
            let send = max(now, state.heldUntil, state.theoreticalArrival - tolerance)
            state.theoreticalArrival = max(state.theoreticalArrival, send) + interval
            return send
        }
    }

    /// Holds every request of this base until `moment` (the server refused one: it will refuse the rest
    /// until then).
    public func hold(until moment: Double) {
        state.withLock { state in
            state.heldUntil = max(state.heldUntil, moment)
            state.theoreticalArrival = max(state.theoreticalArrival, moment)
        }
    }

    private static let registry = Mutex<[String: RequestThrottle]>([:])

    /// The process's throttle for `key` (an endpoint and base id), made on first use.
    public static func shared(for key: String, requestsPerSecond: Double, burst: Int) -> RequestThrottle {
        registry.withLock { registry in
            if let existing = registry[key] { return existing }
            let throttle = RequestThrottle(requestsPerSecond: requestsPerSecond, burst: burst)
            registry[key] = throttle
            return throttle
        }
    }
}
