import DrinkShop
import DrinkShopCore

/// Refusals that point to the next step, chosen by the order's state, so staff are never sent to a
/// command that will refuse them too.
enum OrderSuggestions {
    /// `edit` of an order with money taken: a placed or preparing order is cancelled (which refunds it)
    /// and ordered again; a ready or picked-up one cannot be cancelled, only voided by a manager.
    static func paidEditRefusal(_ number: OrderNumber, status: OrderStatus, paid: Int) -> String {
        switch status {
        case .placed, .preparing:
            return "order \(number) has $\(paid) paid; it cannot change now (cancel \(number) REASON refunds it, then order again)"
        case .ready:
            return "order \(number) is ready and has $\(paid) paid; it cannot change now "
                + "(a manager can void it: void \(number) REASON refunds it)"
        case .pickedUp:
            return "order \(number) was picked up and has $\(paid) paid; it cannot change now "
                + "(a manager can void it: void \(number) REASON refunds it)"
        case .cancelled:
            return "order \(number) was cancelled; it cannot change"
        }
    }
}
