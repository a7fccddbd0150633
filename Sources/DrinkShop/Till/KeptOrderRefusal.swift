import DrinkShopCore

/// What a counter refuses for an order it kept while the store could not be reached: a payment it cannot take
/// without the store, or a change to an order paid so. Nothing was written or charged.
public enum KeptOrderRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Only the whole bill is taken while the store is away.
    case partPayment(OrderNumber, due: Int, tendered: Int)
    /// Cash while the store is away needs a shift this counter saw open.
    case cashWithoutKnownShift(OrderNumber)
    /// Cancelled while kept: it takes no money.
    case cancelled(OrderNumber)
    /// Paid already while the store was away.
    case alreadyPaid(OrderNumber, total: Int)
    /// Paid while the store was away: cancelling or voiding it (a refund, the invoice's void) needs the store.
    case paidWhileAway(OrderNumber)
    /// The shop's e-invoice settings were never read by this counter, so it cannot invoice the sale.
    case invoiceSetupUnknown(OrderNumber)
    /// Sent, deleted, edited or given other invoice details at another counter of this machine while this one took the
    /// payment.
    case changedMeanwhile(OrderNumber)

    public var description: String {
        switch self {
        case .partPayment(let number, let due, let tendered):
            return "order \(number) is $\(due) and $\(tendered) was given: while the store cannot be reached only the whole bill "
                + "is taken (離線只收全額); nothing was charged"
        case .cashWithoutKnownShift(let number):
            return "order \(number): cash needs an open shift (未開班) and this counter has not seen one open while the store "
                + "answered; take it by card or another method, or once the store is back; nothing was charged"
        case .cancelled(let number):
            return "order \(number) is cancelled (已取消); it takes no money, nothing was charged"
        case .alreadyPaid(let number, let total):
            return "order \(number) was paid already ($\(total), 已付款) while the store could not be reached; nothing was charged"
        case .paidWhileAway(let number):
            return "order \(number) was paid while the store could not be reached (離線已付款): cancel or void it once it is "
                + "sent (the refund and its invoice's void need the store); nothing changed"
        case .changedMeanwhile(let number):
            return "order \(number) changed at another counter of this machine a moment ago (sent, deleted, edited or its "
                + "invoice details) (訂單已變更); nothing was charged: look at it and take the payment again"
        case .invoiceSetupUnknown(let number):
            return "order \(number): this counter has not read the shop's e-invoice settings (未讀取發票設定) and the store cannot be reached, "
                + "so the sale cannot be invoiced; take the payment once the store is back; nothing was charged"
        }
    }
}
