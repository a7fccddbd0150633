import Airtable
import Foundation
import Synchronization

/// Whether the store answered lately. After a failure to reach it, orders go straight to the outbox
/// instead of each waiting out the client's retries, and the store is tried again at most every
/// `probeInterval` seconds.
final class ConnectionState: Sendable {
    private struct State {
        var offlineSince: Date?
        var lastProbe: Date?
    }

    private let state = Mutex(State())
    let probeInterval: TimeInterval

    init(probeInterval: TimeInterval = 2) {
        self.probeInterval = probeInterval
    }

    var offlineSince: Date? { state.withLock { $0.offlineSince } }

    func markOffline(at date: Date) {
        state.withLock {
            if $0.offlineSince == nil { $0.offlineSince = date }
            $0.lastProbe = date
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

    /// Whether an error means the store could not be reached (as opposed to refusing the request).
    static func isUnreachable(_ error: ShopError) -> Bool {
        guard case .store(let storeError) = error else { return false }
        switch storeError {
        // A base refusing for its rate limit (or the plan's monthly quota, also a 429) answers nothing else
        // for a while: the order waits in the outbox, with the pickup number it may already hold.
        case .transport, .timedOut, .rateLimited: return true
        case .api(let api): return [429, 502, 503, 504].contains(api.status)
        case .decoding: return false
        }
    }
}
