#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A pass the shop sells (月卡: 30 days, NT$ price, 10% off), configured in the seed file.
public struct PassProduct: Sendable, Hashable {
    public let name: String
    public let days: Int
    /// NT$ the customer pays for it.
    public let price: Int
    public let benefit: PassBenefit

    /// - Throws: `MemberError.invalidPass` for an empty name, days outside 1...366, a negative
    ///   price or a benefit out of range.
    public init(name: String, days: Int, price: Int, benefit: PassBenefit) throws(MemberError) {
        guard (1...366).contains(days) else { throw .invalidPass("a pass lasts 1 to 366 days, not \(days)") }
        guard price >= 0 else { throw .invalidPass("a pass's price cannot be below zero (\(price))") }
        // Checks the name and benefit the same way a held pass does.
        _ = try MemberPass(name: name, expiresAt: Date(timeIntervalSince1970: 0), benefit: benefit)
        self.name = name.trimmed
        self.days = days
        self.price = price
        self.benefit = benefit
    }

    /// The member's status for this pass given what they hold (`held` nil: never bought).
    public func status(held: MemberPass?, at date: Date) -> PassStatus {
        guard let held, held.name == name else { return .notPurchased(pass: name) }
        return held.status(at: date)
    }

    /// The pass after buying at `date`: `days` from now. Refused while the member's pass is
    /// still active, as the purchase button is disabled then (renew it instead).
    /// - Throws: `MemberError.passStillActive`.
    public func purchase(held: MemberPass?, at date: Date, calendar: ShopCalendar) throws(MemberError) -> MemberPass {
        if case .active(_, let until) = status(held: held, at: date) {
            throw .passStillActive(pass: name, until: until, calendar: calendar)
        }
        return try MemberPass(name: name, expiresAt: date.addingTimeInterval(Double(days) * 86_400), benefit: benefit)
    }
}
