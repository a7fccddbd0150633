import Airtable
import Foundation
import Synchronization

/// Paces requests to one base so that the server's rate limit is never hit: the generic cell rate
/// algorithm, allowing a burst of `burst` requests and then one every `1/requestsPerSecond` seconds.
/// It hands out send times; callers wait for theirs. One throttle per base is shared by every task of
/// the process (`shared(for:…)`); with a `PacingFile`, every process of the machine shares the same
/// pacing (and the count of calls) through that file, and `reserveSlot`/`holdEveryone` go through it.
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
    /// The machine-wide pacing of this base, when there is one.
    public let pacingFile: PacingFile?
    private let wallClock: @Sendable () -> Double
    private let onFileError: @Sendable (PacingFileError) -> Void
    private let fileFailed = Mutex(false)

    /// - Parameters:
    ///   - requestsPerSecond: the sustained rate; must be positive.
    ///   - burst: requests allowed back to back before the rate applies; at least 1.
    ///   - pacingFile: the state shared with the other processes of the machine; nil paces this process
    ///     alone.
    ///   - wallClock: seconds since 1970 (the file's time scale); injected by tests.
    ///   - onFileError: told once when the file cannot be used (the throttle then paces this process
    ///     alone).
    public init(requestsPerSecond: Double, burst: Int, pacingFile: PacingFile? = nil,
                wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                onFileError: @escaping @Sendable (PacingFileError) -> Void = { _ in }) {
        self.requestsPerSecond = requestsPerSecond > 0 ? requestsPerSecond : 1
        self.burst = max(1, burst)
        self.pacingFile = pacingFile
        self.wallClock = wallClock
        self.onFileError = onFileError
    }

    /// Reserves the next send time, on the client's clock, for a request ready at `now`: through the
    /// pacing file when there is one (off the cooperative pool), else in this process.
    public func reserveSlot(at now: Double) async -> Double {
        guard let pacingFile, !fileFailed.withLock({ $0 }) else { return reserve(at: now) }
        let wall = wallClock()
        let rate = requestsPerSecond
        let burst = burst
        do {
            let send = try await pacingFile.update { $0.reserve(at: wall, requestsPerSecond: rate, burst: burst) }
            return now + max(0, send - wall)
        } catch {
            fail(error)
            return reserve(at: now)
        }
    }

    /// Reserves a send time within `wait` seconds of `now`, or nothing (nil) when the queue is longer:
    /// for a gateway, which would rather answer "busy" than keep a counter waiting past its timeout.
    public func reserveSlot(at now: Double, within wait: Double) async -> Double? {
        let rate = requestsPerSecond
        let burst = burst
        if let pacingFile, !fileFailed.withLock({ $0 }) {
            let wall = wallClock()
            do {
                let send = try await pacingFile.update {
                    $0.reserve(at: wall, requestsPerSecond: rate, burst: burst, latest: wall + wait)
                }
                return send.map { now + max(0, $0 - wall) }
            } catch {
                fail(error)
            }
        }
        let interval = 1 / rate
        let tolerance = Double(burst - 1) * interval
        return state.withLock { state -> Double? in
            let send = max(now, state.heldUntil, state.theoreticalArrival - tolerance)
            guard send <= now + wait else { return nil }
            state.theoreticalArrival = max(state.theoreticalArrival, send) + interval
            return send
        }
    }

    /// Holds every request of this base, in every process sharing the pacing file, until `moment` on the
    /// client's clock (`now` is that clock's present).
    public func holdEveryone(until moment: Double, now: Double) async {
        hold(until: moment)
        guard let pacingFile, !fileFailed.withLock({ $0 }) else { return }
        let wall = wallClock()
        let until = wall + (moment - now)
        do { try await pacingFile.update { $0.hold(until: until, at: wall) } } catch { fail(error) }
    }

    private func fail(_ error: PacingFileError) {
        let first = fileFailed.withLock { failed in
            defer { failed = true }
            return !failed
        }
        if first { onFileError(error) }
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
    public static func shared(for key: String, requestsPerSecond: Double, burst: Int,
                              pacingFile: PacingFile? = nil,
                              onFileError: @escaping @Sendable (PacingFileError) -> Void = { _ in }) -> RequestThrottle {
        registry.withLock { registry in
            let key = key + (pacingFile.map { " " + $0.path } ?? "")
            if let existing = registry[key] { return existing }
            let throttle = RequestThrottle(requestsPerSecond: requestsPerSecond, burst: burst, pacingFile: pacingFile,
                                           onFileError: onFileError)
            registry[key] = throttle
            return throttle
        }
    }
}
