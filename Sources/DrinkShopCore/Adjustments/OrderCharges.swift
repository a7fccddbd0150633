#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the member is owed on an order: free cups for stamps and the benefit of an active pass.
public struct MemberBenefits: Sendable, Hashable {
    /// Free cups redeemed with stamps (0 for none), of `stampPolicy.rewardSize`.
    public let freeCups: Int
    public let stampPolicy: StampPolicy?
    /// The pass used, with its benefit (checked for expiry by `MemberPass.usableBenefit(at:calendar:)`).
    public let passName: String?
    public let passBenefit: PassBenefit?

    /// - Parameters:
    ///   - freeCups: free cups redeemed; needs `stampPolicy`.
    ///   - pass: the member's pass, used when active at `date`.
    ///   - usePass: false leaves a pass unused; true with an expired pass throws.
    /// - Throws: `MemberError.passExpired` when told to use an expired pass.
    public init(freeCups: Int = 0, stampPolicy: StampPolicy? = nil, pass: MemberPass? = nil, usePass: Bool = true,
                at date: Date, calendar: ShopCalendar) throws(MemberError)
    {
        self.freeCups = max(0, freeCups)
        self.stampPolicy = stampPolicy
        if let pass, usePass {
            passBenefit = try pass.usableBenefit(at: date, calendar: calendar)
            passName = pass.name
        } else {
            passBenefit = nil
            passName = nil
        }
    }

    /// Benefits already checked: the bill of an order priced again later uses the pass it was given
    /// then, whatever the pass's state now.
    public init(freeCups: Int = 0, stampPolicy: StampPolicy? = nil, passUsed: (name: String, benefit: PassBenefit)?) {
        self.freeCups = max(0, freeCups)
        self.stampPolicy = stampPolicy
        passName = passUsed?.name
        passBenefit = passUsed?.benefit
    }
}

/// One member discount on an order, shown apart from promotions and adjustments.
public enum MemberDiscount: Sendable, Hashable {
    /// Free cups for stamps: the line they came off (0-based), how many, and the NT$ saved.
    case freeCup(line: Int, cups: Int, amount: Int)
    /// The pass's discount.
    case pass(name: String, amount: Int)

    public var amount: Int {
        switch self {
        case .freeCup(_, _, let amount), .pass(_, let amount): amount
        }
    }
}

/// An order's bill: subtotal, then the promotion, member discounts and adjustments, each shown on
/// its own line, then the total. Pure: the same order and requests always give the same bill.
public struct OrderCharges: Sendable, Hashable {
    public let subtotal: Int
    public let promotion: AppliedPromotion?
    public let memberDiscounts: [MemberDiscount]
    public let adjustments: [AppliedAdjustment]

    /// What the customer pays.
    public var total: Int {
        subtotal - (promotion?.totalDiscount ?? 0) - memberDiscounts.reduce(0) { $0 + $1.amount }
            + adjustments.reduce(0) { $0 + $1.amount }
    }

    /// Prices `order` (its promotion already chosen) with the member's benefits and the counter's
    /// adjustments, in this order: promotion, free cups, the pass, percentage adjustments, then
    /// per-cup and per-item adjustments.
    /// - Throws: `ChargeError` for an adjustment used twice, a count below 1, more own cups than cups,
    ///   a free cup with no cup of the reward size, or a total below zero.
    public static func price(_ order: Order, adjustments uses: [AdjustmentUse] = [],
                             member: MemberBenefits? = nil) throws(ChargeError) -> OrderCharges
    {
        let lines = order.lines
        var codes: Set<String> = []
        for use in uses {
            guard codes.insert(use.adjustment.code).inserted else { throw .usedTwice(use.adjustment.name) }
            guard use.count >= 1 else { throw .countBelowOne(use.adjustment.name, use.count) }
        }
        // What each line still costs after the promotion.
        var remaining = lines.indices.map { lines[$0].lineTotal - order.discount(forLine: $0) }
        var memberDiscounts: [MemberDiscount] = []
        var freeCups = 0
        if let member, member.freeCups > 0 {
            guard let policy = member.stampPolicy else { throw .noStampPolicy }
            // The dearest cups of the reward size go free, each worth at most what its line still costs.
            let candidates = lines.indices.filter { lines[$0].size == policy.rewardSize }
                .sorted { (lines[$1].cupPrice, $0) < (lines[$0].cupPrice, $1) }
            let cupsAvailable = candidates.reduce(0) { $0 + lines[$1].quantity }
            guard cupsAvailable >= member.freeCups else {
                throw .notEnoughRewardCups(size: policy.rewardSize, wanted: member.freeCups, available: cupsAvailable)
            }
            var left = member.freeCups
            for index in candidates where left > 0 {
                let cups = min(left, lines[index].quantity)
                let amount = min(cups * lines[index].cupPrice, remaining[index])
                remaining[index] -= amount
                left -= cups
                memberDiscounts.append(.freeCup(line: index, cups: cups, amount: amount))
            }
            freeCups = member.freeCups
        }
        var running = remaining.reduce(0, +)
        if let member, let benefit = member.passBenefit, let name = member.passName {
            let amount: Int
            switch benefit {
            case .percentOff(let percent): amount = running * percent / 100
            case .perCupOff(let perCup): amount = min(running, perCup * max(0, order.cupCount - freeCups))
            }
            if amount > 0 { memberDiscounts.append(.pass(name: name, amount: amount)) }
            running -= amount
        }
        var applied: [AppliedAdjustment] = []
        for use in uses {
            guard case .percentOff(let percent) = use.adjustment.kind else { continue }
            let amount = running * percent / 100
            running -= amount
            applied.append(AppliedAdjustment(name: use.adjustment.name, code: use.adjustment.code, count: 1,
                                             amount: -amount))
        }
        for use in uses {
            let adjustment = use.adjustment
            switch adjustment.kind {
            case .percentOff:
                continue
            case .perCup(let perCup):
                guard use.count <= order.cupCount else {
                    throw .moreThanCups(adjustment.name, count: use.count, cups: order.cupCount)
                }
                applied.append(AppliedAdjustment(name: adjustment.name, code: adjustment.code, count: use.count,
                                                 amount: perCup * use.count))
            case .perItem(let perItem):
                applied.append(AppliedAdjustment(name: adjustment.name, code: adjustment.code, count: use.count,
                                                 amount: perItem * use.count))
            }
            running += perCupOrItem(adjustment.kind) * use.count
        }
        let charges = OrderCharges(subtotal: order.subtotal, promotion: order.promotion,
                                   memberDiscounts: memberDiscounts, adjustments: applied)
        guard charges.total >= 0 else { throw .totalBelowZero(charges.total) }
        return charges
    }

    private static func perCupOrItem(_ kind: AdjustmentKind) -> Int {
        switch kind {
        case .perCup(let amount), .perItem(let amount): amount
        case .percentOff: 0
        }
    }
}

/// Why an order could not be priced with the adjustments and member benefits asked for.
public enum ChargeError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    case usedTwice(String)
    case countBelowOne(String, Int)
    case moreThanCups(String, count: Int, cups: Int)
    case noStampPolicy
    case notEnoughRewardCups(size: CupSize, wanted: Int, available: Int)
    case totalBelowZero(Int)

    public var description: String {
        switch self {
        case .usedTwice(let name):
            return "\(name) is applied once per order (每張訂單限用一次); give the number of cups or items instead"
        case .countBelowOne(let name, let count):
            return "\(name) needs a count of at least 1, not \(count) (數量至少為 1)"
        case .moreThanCups(let name, let count, let cups):
            return "\(name) for \(count) cups, but the order has \(cups) (超過訂單杯數)"
        case .noStampPolicy:
            return "the shop has no stamp card configured (未設定集點卡)"
        case .notEnoughRewardCups(let size, let wanted, let available):
            return "\(wanted) free \(size.rawValue) cup(s) asked, but the order has \(available) \(size.rawValue) cup(s) "
                + "(\(size.rawValue)杯數不足)"
        case .totalBelowZero(let total):
            return "these discounts bring the total to \(total); a price cannot go below zero (折扣後金額不可低於 0)"
        }
    }

    public var errorDescription: String? { description }
}
