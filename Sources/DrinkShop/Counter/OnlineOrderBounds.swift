/// How much the customers' page may have open at once: orders, their cups, and what is still to be paid for
/// them, in all and for one sender (the page's client network) within its share of each. A pure rule: the open
/// orders and the sender's part come in; ``Counter/placeOnline(_:member:within:from:)`` asks it before placing.
public struct OnlineOrderBounds: Sendable, Equatable {
    /// Orders from the page still open (placed, being made, ready).
    public var orders: Int
    /// Cups in them.
    public var cups: Int
    /// NT$ of them not yet paid.
    public var unpaid: Int

    public init(orders: Int, cups: Int = .max, unpaid: Int = .max) {
        self.orders = orders
        self.cups = cups
        self.unpaid = unpaid
    }

    /// One sender: the orders it placed that may still be open, and the most of a bound it may hold while the
    /// other senders hold the rest (the page gives its fair-share rule).
    public struct Sender: Sendable {
        public var orderRefs: Set<String>
        public var share: @Sendable (_ cap: Int, _ heldByOthers: Int) -> Int

        public init(orderRefs: Set<String>, share: @escaping @Sendable (_ cap: Int, _ heldByOthers: Int) -> Int) {
            self.orderRefs = orderRefs
            self.share = share
        }
    }

    /// Why an order of `cups` cups and `amount` NT$ may not join `open` (from `sender`), or nil when it may.
    public func refusal(cups: Int, amount: Int, open: [OpenOnlineOrder], from sender: Sender?) -> OnlineRefusal? {
        let all = Tally(open)
        if all.orders + 1 > orders { return .tooManyOpen(.orders(orders), yourShare: false) }
        if all.cups + cups > self.cups { return .tooManyOpen(.cups(self.cups), yourShare: false) }
        if all.unpaid + amount > unpaid { return .tooManyOpen(.unpaid(unpaid), yourShare: false) }
        guard let sender else { return nil }
        let mine = Tally(open.filter { sender.orderRefs.contains($0.orderRef) })
        let share = (orders: sender.share(orders, all.orders - mine.orders), cups: sender.share(self.cups, all.cups - mine.cups),
                     unpaid: sender.share(unpaid, all.unpaid - mine.unpaid))
        if mine.orders + 1 > share.orders { return .tooManyOpen(.orders(share.orders), yourShare: true) }
        if mine.cups + cups > share.cups { return .tooManyOpen(.cups(share.cups), yourShare: true) }
        if mine.unpaid + amount > share.unpaid { return .tooManyOpen(.unpaid(share.unpaid), yourShare: true) }
        return nil
    }

    private struct Tally {
        var orders = 0, cups = 0, unpaid = 0

        init(_ open: [OpenOnlineOrder]) {
            for order in open {
                orders += 1
                cups += order.cups
                unpaid += order.unpaid
            }
        }
    }
}

/// An order from the page still open, as ``OnlineOrderBounds`` counts it.
public struct OpenOnlineOrder: Sendable, Equatable {
    /// The key its line records share (what the page remembers of the orders it placed).
    public let orderRef: String
    public let cups: Int
    /// What is due and not yet paid, NT$.
    public let unpaid: Int

    public init(orderRef: String, cups: Int, unpaid: Int) {
        self.orderRef = orderRef
        self.cups = cups
        self.unpaid = unpaid
    }
}

/// Which bound of the page's open orders, with its limit.
public enum OnlineBound: Sendable, Equatable {
    case orders(Int), cups(Int), unpaid(Int)
}
