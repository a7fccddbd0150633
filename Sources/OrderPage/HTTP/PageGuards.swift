import Synchronization

/// What keeps the page safe on a street, apart from the group rules: how much each address may do of each
/// kind, and one send at a time.
final class PageGuards: Sendable {
    private let quotas: Mutex<[OrderPageRefusal.QuotaKind: AddressQuota]>
    /// Monotonic seconds.
    private let seconds: @Sendable () -> Double
    let sends = OneAtATime()

    init(limits: OrderPageLimits, seconds: @escaping @Sendable () -> Double) {
        quotas = Mutex([
            .groups: AddressQuota(limits.groupsPerAddress),
            .lines: AddressQuota(limits.linesPerAddress),
            .sends: AddressQuota(limits.sendsPerAddress),
        ])
        self.seconds = seconds
    }

    /// Takes one `kind` action for `address`.
    /// - Throws: `OrderPageRefusal.quota` with how long to wait.
    func take(_ kind: OrderPageRefusal.QuotaKind, for address: String) throws(OrderPageRefusal) {
        let now = seconds()
        let decision = quotas.withLock { quotas in quotas[kind]?.take(address, now: now) ?? .allowed }
        if case .wait(let wait) = decision { throw .quota(kind, retryAfterSeconds: wait) }
    }

    /// Monotonic seconds since the first call, from the system's continuous clock.
    static let systemSeconds: @Sendable () -> Double = {
        let origin = ContinuousClock.now
        return {
            let elapsed = origin.duration(to: .now).components
            return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        }
    }()

    /// The client part of an address as the socket layer writes it (`127.0.0.1:51234`, `[::1]:51234`).
    static func client(of remoteAddress: String?) -> String {
        guard let remoteAddress, let colon = remoteAddress.lastIndex(of: ":") else { return remoteAddress ?? "" }
        return String(remoteAddress[..<colon])
    }
}
