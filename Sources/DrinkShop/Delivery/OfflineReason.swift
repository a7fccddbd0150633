import Airtable

/// Why orders are being kept on this counter instead of sent: the words staff see.
public enum OfflineReason: Sendable, Equatable {
    /// No answer from the store (a lost connection, a deadline, a failing gateway).
    case unreachable
    /// The base answered 429 for its rate limit (5 requests a second): it takes nothing for about 30 s.
    case rateLimited
    /// The base answered 429 `PUBLIC_API_BILLING_LIMIT_EXCEEDED`: the plan's monthly API calls are spent.
    case quotaExceeded

    /// The reason `error` means, or nil when it is not one that keeps orders on the counter.
    public init?(_ error: ShopError) {
        guard case .store(let storeError) = error else { return nil }
        if storeError.isOverQuota {
            self = .quotaExceeded
        } else if storeError.isRateLimited {
            self = .rateLimited
        } else if storeError.isUnreachable {
            self = .unreachable
        } else {
            return nil
        }
    }

    /// Why the store is not taking orders, in one clause ("not yet sent: …").
    public var clause: String {
        switch self {
        case .unreachable:
            return "the store cannot be reached"
        case .rateLimited:
            return "the store is rate limiting this base (429, too many requests at once, about 30 s); "
                + "kept on this counter and sent once the base takes requests again"
        case .quotaExceeded:
            return "the base's monthly API call quota is used up (429 \(APIError.monthlyQuotaType)); "
                + "orders are kept on this counter until the quota resets or the plan is upgraded"
        }
    }
}
