import Foundation
import Synchronization

/// Whether the store answered lately. After a failure to reach it, orders go straight to the outbox
/// instead of each waiting out the client's retries, and the store is tried again at most every
/// `probeInterval` seconds.
final class ConnectionState: Sendable {
    private struct State {
        var offlineSince: Date?
        var lastProbe: Date?
        var reason: OfflineReason?
    }

    private let state = Mutex(State())
    let probeInterval: TimeInterval

    init(probeInterval: TimeInterval = 2) {
        self.probeInterval = probeInterval
    }

    var offlineSince: Date? { state.withLock { $0.offlineSince } }
    /// Why, after the latest failure (nil while online).
    var reason: OfflineReason? { state.withLock { $0.reason } }

    func markOffline(at date: Date, reason: OfflineReason = .unreachable) {
        state.withLock {
            if $0.offlineSince == nil { $0.offlineSince = date }
            $0.lastProbe = date
            $0.reason = reason
        }
    }

    func markOnline() {
        state.withLock { $0 = State() }
    }

    /// Whether to try the store now: always when online; when offline, once per probe interval.
    func shouldTry(at date: Date) -> Bool {
        state.withLock { state in
            guard state.offlineSince != nil else { return true }
            guard let last = state.lastProbe, date.timeIntervalSince(last) < probeInterval, date >= last else {
                state.lastProbe = date
                return true
            }
            return false
        }
    }
}
