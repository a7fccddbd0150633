#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a member pass gives on each order while it is active.
public enum PassBenefit: Sendable, Hashable, CustomStringConvertible {
    /// A percentage (1–100) off the order after promotions.
    case percentOff(Int)
    /// NT$ off every cup (never more than the cup costs).
    case perCupOff(Int)

    public var description: String {
        switch self {
        case .percentOff(let percent): "\(percent)% off"
        case .perCupOff(let amount): "\(amount) off a cup"
        }
    }
}

/// A pass a member bought (e.g. a monthly pass), active until `expiresAt` (exclusive). Its status
/// is worked out from the clock each time it is asked, never stored (reference/domain.md §10).
public struct MemberPass: Sendable, Hashable {
    public let name: String
    public let expiresAt: Date
    public let benefit: PassBenefit

    /// - Throws: `MemberError.invalidPass` for an empty name or a benefit out of range.
    public init(name: String, expiresAt: Date, benefit: PassBenefit) throws(MemberError) {
        let name = name.trimmed
        guard !name.isEmpty else { throw .invalidPass("a pass needs a name") }
        switch benefit {
        case .percentOff(let percent) where !(1...100).contains(percent):
            throw .invalidPass("a pass's percentage must be from 1 to 100, not \(percent)")
        case .perCupOff(let amount) where amount < 1:
            throw .invalidPass("a pass's discount per cup must be at least NT$1, not \(amount)")
        default: break
        }
        self.name = name
        self.expiresAt = expiresAt
        self.benefit = benefit
    }

    /// Active before `expiresAt`, expired from then on.
    public func status(at date: Date) -> PassStatus {
        date < expiresAt ? .active(pass: name, until: expiresAt) : .expired(pass: name, at: expiresAt)
    }

    /// The pass's benefit, if it may be used at `date`.
    /// - Throws: `MemberError.passExpired` once the pass has expired (a pass that ran out
    ///   yesterday is refused, saying when on the shop's `calendar`).
    public func usableBenefit(at date: Date, calendar: ShopCalendar) throws(MemberError) -> PassBenefit {
        guard date < expiresAt else { throw .passExpired(pass: name, expiredAt: expiresAt, calendar: calendar) }
        return benefit
    }

    /// The pass renewed for `days` more days: from its expiry while active, from `date` once expired.
    public func renewed(days: Int, at date: Date) throws(MemberError) -> MemberPass {
        guard days >= 1 else { throw .invalidPass("a pass is renewed for at least 1 day, not \(days)") }
        let start = max(expiresAt, date)
        return try MemberPass(name: name, expiresAt: start.addingTimeInterval(Double(days) * 86_400), benefit: benefit)
    }
}

/// A member's standing for one pass: active until a date, expired at a date, or never bought.
public enum PassStatus: Sendable, Hashable {
    case active(pass: String, until: Date)
    case expired(pass: String, at: Date)
    case notPurchased(pass: String)

    /// Whether a new purchase should be refused (the pass is still running; renew instead).
    public var blocksPurchase: Bool {
        if case .active = self { return true }
        return false
    }

    /// "active: 月卡 until 2026-12-31", "expired: 月卡 at 2026-11-30", "not purchased: 月卡", with
    /// dates on the shop's calendar.
    public func sentence(calendar: ShopCalendar) -> String {
        switch self {
        case .active(let pass, let until): "active: \(pass) until \(calendar.dayText(until))"
        case .expired(let pass, let at): "expired: \(pass) at \(calendar.dayText(at))"
        case .notPurchased(let pass): "not purchased: \(pass)"
        }
    }
}
