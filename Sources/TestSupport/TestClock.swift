import Airtable
import AirtableHTTP
import Foundation
import Synchronization

/// The one clock of the test suites: a moment that moves only when the test moves it (or when code
/// waiting on it asks to sleep), safe to read and move from any task.
///
/// It tells the time in both shapes the code under test reads: a wall-clock `Date` (LocalBase's
/// createdTime, the shop's business day, offset expiry) and monotonic seconds (rate limiters, the
/// client's pacing and deadlines). Both move together. Small adapters hand it to each production
/// clock shape: `date` for `() -> Date` (and `ShopClock(now:)`), `monotonic` for `() -> Double`, and
/// `client` for `ClientClock`.
public final class TestClock: Sendable {
    private struct State {
        var elapsed: Double = 0
        var waits: [Double] = []
    }

    /// A fixed moment in November 2026 with milliseconds, so that timestamps show them.
    public static let defaultStart = Date(timeIntervalSince1970: 1_795_000_000.123)
    /// 2026-11-29 12:00 in Asia/Taipei, the shop's usual test noon.
    public static let noon = Date(timeIntervalSince1970: 1_795_924_800)
    /// The shop's time zone in tests.
    public static let taipei = TimeZone(identifier: "Asia/Taipei") ?? .current

    private let start: Date
    private let monotonicStart: Double
    private let state = Mutex(State())

    /// - Parameters:
    ///   - start: the wall-clock moment it starts at.
    ///   - seconds: the monotonic reading it starts at.
    public init(_ start: Date = TestClock.defaultStart, seconds: Double = 0) {
        self.start = start
        monotonicStart = seconds
    }

    /// The wall-clock moment now.
    public var now: Date { start.addingTimeInterval(state.withLock { $0.elapsed }) }

    /// The monotonic reading now.
    public var seconds: Double { monotonicStart + state.withLock { $0.elapsed } }

    /// Moves time on by `seconds`.
    public func advance(by seconds: Double) {
        state.withLock { $0.elapsed += seconds }
    }

    /// Moves time to `date` (the monotonic reading moves by the same amount).
    public func set(_ date: Date) {
        state.withLock { $0.elapsed = date.timeIntervalSince(start) }
    }

    /// The waits asked of `client.sleep(until:)` so far, in order.
    public var waits: [Double] { state.withLock { $0.waits } }

    /// For `() -> Date` clocks (LocalBase, `ShopClock(now:)`).
    public var date: @Sendable () -> Date { { self.now } }

    /// For `() -> Double` monotonic clocks (`RateLimiter`).
    public var monotonic: @Sendable () -> Double { { self.seconds } }

    /// For the client's `ClientClock`: sleeping never really waits, it moves time to the moment asked
    /// for and records the wait.
    public var client: any ClientClock { Client(clock: self, stepping: true) }

    /// For a `ClientClock` whose time stands still: sleeping returns at once without moving time (the
    /// wait is still recorded), so work that would wait piles up as it does while requests queue.
    public var frozenClient: any ClientClock { Client(clock: self, stepping: false) }

    private struct Client: ClientClock {
        let clock: TestClock
        let stepping: Bool

        func now() -> Double { clock.seconds }

        func sleep(until moment: Double) async throws(CancellationError) {
            clock.state.withLock { state in
                let current = clock.monotonicStart + state.elapsed
                if moment > current {
                    state.waits.append(moment - current)
                    if stepping { state.elapsed += moment - current }
                }
            }
        }
    }
}
