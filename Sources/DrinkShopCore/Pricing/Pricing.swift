#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Choosing the promotion for an order.
public enum Pricing {
    /// The single promotion that saves the customer most on `lines` among those active at `date`.
    ///
    /// Only one promotion applies to an order. The largest total discount wins; on a tie the
    /// promotion whose name sorts first wins, so the choice does not depend on the order the
    /// promotions were loaded in. Nil when none is active or none takes anything off.
    public static func bestPromotion(
        for lines: [OrderLine], among promotions: [Promotion], at date: Date
    ) -> AppliedPromotion? {
        var best: AppliedPromotion?
        for promotion in promotions where promotion.isActive(at: date) {
            let candidate = AppliedPromotion(name: promotion.name, lineDiscounts: promotion.lineDiscounts(for: lines))
            guard candidate.totalDiscount > 0 else { continue }
            if let current = best {
                let better = candidate.totalDiscount > current.totalDiscount
                    || (candidate.totalDiscount == current.totalDiscount && candidate.name < current.name)
                if better { best = candidate }
            } else {
                best = candidate
            }
        }
        return best
    }
}
