import Foundation

/// The one place that decides "write to the store now, or keep it in this counter's outbox".
///
/// With no outbox (the store is a file on this machine) everything goes to the store and every failure
/// is the caller's. With an outbox, a failure that means the remote base could not be reached
/// (`ShopError.isUnreachable`: a lost connection, a deadline, a failing gateway) marks it offline and
/// sends the work to the outbox; so does a base refusing for its rate limit or monthly quota
/// (`isRateLimited`: it takes nothing for a while, and the order must not be lost or its pickup number
/// burned); any other failure (the base refused, or the outbox's own file failed)
/// is passed on and never marks the remote base offline. While offline the store is tried again at most
/// once per probe interval, so orders do not each wait out the client's retries.
public final class DeliveryPolicy: Sendable {
    /// Where unsent orders wait; nil when the store is local.
    public let outbox: Outbox?
    private let connection: ConnectionState

    public init(outbox: Outbox?, probeInterval: TimeInterval = 2) {
        self.outbox = outbox
        connection = ConnectionState(probeInterval: probeInterval)
    }

    /// Whether the store failed to answer lately (orders are being kept in the outbox).
    public var isOffline: Bool { connection.offlineSince != nil }
    /// Why orders are kept on this counter (unreachable, rate limited, over the monthly quota); nil online.
    public var offlineReason: OfflineReason? { connection.reason }

    /// Whether to try the store now: always without an outbox or while online; offline, once per probe
    /// interval.
    func shouldTryStore(at date: Date) -> Bool {
        outbox == nil || connection.shouldTry(at: date)
    }

    /// The outbox, when the store is offline and not due to be tried again: the work goes straight there
    /// instead of waiting out the client's retries. Nil means "try the store".
    func outboxWithoutTrying(at date: Date) -> Outbox? {
        shouldTryStore(at: date) ? nil : outbox
    }

    /// The outbox to keep the work in after `error`, or nil when the error is the caller's to report.
    /// Marks the store offline when the error says it could not be reached or will not take work for now.
    func outbox(after error: ShopError, at date: Date) -> Outbox? {
        guard let outbox, let reason = OfflineReason(error) else { return nil }
        connection.markOffline(at: date, reason: reason)
        return outbox
    }

    /// The store answered: back online.
    func storeAnswered() {
        connection.markOnline()
    }
}
