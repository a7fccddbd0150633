import DrinkShop
import HTTPServer
import Synchronization

/// What keeps the page safe on a street, apart from the group rules: how much each client network
/// (`ClientNetwork`: one machine's many addresses are one network) may do of each kind, the orders each network
/// placed (its share of the open online orders), and one send at a time.
final class PageGuards: Sendable {
    private struct State {
        var quotas: [OrderPageRefusal.QuotaKind: NetworkQuota]
        /// The orders the page placed, newest last, with the network that sent each: enough to count a network's
        /// open ones (the open orders in all are the store's to say).
        var placed: [(orderRef: String, network: String)] = []
    }

    /// Placed orders remembered, at most: far more than can be open at once (`OrderPageLimits.openOnlineOrders`).
    static let placedKept = 1_000

    private let state: Mutex<State>
    /// Monotonic seconds.
    private let seconds: @Sendable () -> Double
    let sends = OneAtATime()

    init(limits: OrderPageLimits, seconds: @escaping @Sendable () -> Double) {
        state = Mutex(State(quotas: [
            .groups: NetworkQuota(limits.groupsPerNetwork),
            .lines: NetworkQuota(limits.linesPerNetwork),
            .sends: NetworkQuota(limits.sendsPerNetwork),
        ]))
        self.seconds = seconds
    }

    /// Takes one `kind` action for `network`.
    /// - Throws: `OrderPageRefusal.quota` with how long to wait.
    func take(_ kind: OrderPageRefusal.QuotaKind, for network: ClientNetwork) throws(OrderPageRefusal) {
        let now = seconds()
        let decision = state.withLock { state in state.quotas[kind]?.take(network.key, now: now) ?? .allowed }
        if case .wait(let wait) = decision { throw .quota(kind, retryAfterSeconds: wait) }
    }

    /// `network` as a sender of online orders: the orders it placed, and its fair share of each bound.
    func sender(_ network: ClientNetwork) -> OnlineOrderBounds.Sender {
        let refs = state.withLock { state in Set(state.placed.lazy.filter { $0.network == network.key }.map(\.orderRef)) }
        return OnlineOrderBounds.Sender(orderRefs: refs) { cap, heldByOthers in FairShare.limit(cap: cap, heldByOthers: heldByOthers) }
    }

    /// `network` placed the order `orderRef`.
    func placed(_ orderRef: String, by network: ClientNetwork) {
        state.withLock { state in
            state.placed.append((orderRef, network.key))
            if state.placed.count > Self.placedKept { state.placed.removeFirst(state.placed.count - Self.placedKept) }
        }
    }

    /// Monotonic seconds since the first call, from the system's continuous clock.
    static let systemSeconds: @Sendable () -> Double = {
        let origin = ContinuousClock.now
        return {
            let elapsed = origin.duration(to: .now).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
    }()
}
