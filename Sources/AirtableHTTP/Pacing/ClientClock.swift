import Airtable
/// The client's sense of time: monotonic seconds and a way to wait for a moment. Injected so tests can
/// check pacing, backoff and deadlines without waiting.
public protocol ClientClock: Sendable {
    /// Seconds on a monotonic scale shared by every user of the clock.
    func now() -> Double
    /// Returns at `moment` (at once when it has passed); throws when the task is cancelled.
    func sleep(until moment: Double) async throws(CancellationError)
}

/// The real clock: `ContinuousClock`, counted from one origin for the whole process, so the shared
/// request throttle sees the same time from every client.
public struct MonotonicClock: ClientClock {
    private static let origin = ContinuousClock.now

    /// The process's monotonic clock.
    public init() {}

    public func now() -> Double {
        let elapsed = ContinuousClock.now - MonotonicClock.origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    public func sleep(until moment: Double) async throws(CancellationError) {
        let wait = moment - now()
        do {
            if wait > 0 { try await Task.sleep(for: .nanoseconds(Int64((wait * 1e9).rounded(.up)))) }
            try Task.checkCancellation()
        } catch {
            throw CancellationError()
        }
    }
}
