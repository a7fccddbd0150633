import DrinkShopCore

/// What may happen to an order once money is involved, decided in one place from the order's state and
/// what its ledger holds. Every front goes through it (by way of `Counter`); a refusal names the next
/// step, chosen by the order's state, so staff are never sent to a command that refuses them too.
public enum MoneyGuard {
    /// What staff want to do to an order.
    public enum Change: Sendable, Hashable {
        case edit, adjust, member, delete, cancel
    }

    /// How a cancel goes through: a plain cancel, or a void (refunding what was paid, a manager's action).
    public enum CancelKind: Sendable, Hashable {
        case cancel, void

        /// The action it needs.
        public var action: ShopAction { self == .void ? .void : .cancelOrder }
    }

    /// Succeeds when `change` may be made to the order in `status` holding `money` (nil: an order kept on
    /// this counter, which has none).
    /// - Throws: `OrderRefusal` naming what stops it and what to do instead.
    public static func check(_ change: Change, _ number: OrderNumber, status: OrderStatus, money: OrderPayments?)
        throws(OrderRefusal)
    {
        let paid = money?.paid ?? 0
        let held = paid - (money?.refunded ?? 0)
        switch change {
        case .edit:
            guard paid == 0 else { throw .paidOrderChange(number, status: status, paid: paid) }
        case .adjust:
            guard paid == 0 else { throw .adjustAfterPayment(number, paid: paid) }
        case .member:
            guard status != .cancelled else { throw .cancelled(number) }
            guard paid == 0 else { throw .memberAfterPayment(number, paid: paid) }
        case .delete:
            guard held <= 0 else { throw .deleteHoldsMoney(number, held: held) }
            guard money?.payments.isEmpty ?? true else { throw .deleteHasLedger(number) }
        case .cancel:
            break
        }
    }

    /// Whether cancelling the order is a plain cancel or a void: an order with money paid is voided (what
    /// was paid goes back by the method it came by).
    public static func cancelKind(money: OrderPayments?) -> CancelKind {
        (money?.paid ?? 0) > 0 ? .void : .cancel
    }
}

/// Why an order cannot be changed now, in the words staff use, with the command that does what they want.
public enum OrderRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// Money was taken: its total would no longer match what was paid.
    case paidOrderChange(OrderNumber, status: OrderStatus, paid: Int)
    /// Adjustments change the bill, so they come before any payment.
    case adjustAfterPayment(OrderNumber, paid: Int)
    /// Member benefits change the bill, so they come before any payment.
    case memberAfterPayment(OrderNumber, paid: Int)
    /// Deleting an order that holds money would lose it from the till.
    case deleteHoldsMoney(OrderNumber, held: Int)
    /// Its payments and refunds stay for the report.
    case deleteHasLedger(OrderNumber)
    case cancelled(OrderNumber)
    /// Redeeming needs the order to be a member's.
    case notAMembersOrder(OrderNumber)
    /// The order is already another member's.
    case anotherMembers(OrderNumber, masked: String)

    public var description: String {
        switch self {
        case .paidOrderChange(let number, let status, let paid):
            switch status {
            case .placed, .preparing:
                return "order \(number) has $\(paid) paid; it cannot change now (cancel \(number) REASON refunds it, then order again) (已付款不可改單)"
            case .ready:
                return "order \(number) is ready and has $\(paid) paid; it cannot change now "
                    + "(a manager can void it: void \(number) REASON refunds it) (已付款不可改單)"
            case .pickedUp:
                return "order \(number) was picked up and has $\(paid) paid; it cannot change now "
                    + "(a manager can void it: void \(number) REASON refunds it) (已付款不可改單)"
            case .cancelled:
                return "order \(number) was cancelled; it cannot change (已取消)"
            }
        case .adjustAfterPayment(let number, let paid):
            return "order \(number) has payments ($\(paid)); adjust before taking payment (付款前才能折讓)"
        case .memberAfterPayment(let number, let paid):
            return "order \(number) has payments ($\(paid)); apply a member before taking payment (付款前才能用會員)"
        case .deleteHoldsMoney(let number, let held):
            return "order \(number) holds $\(held) paid; void it instead (cancel \(number) REASON refunds it) (已付款不可刪單)"
        case .deleteHasLedger(let number):
            return "order \(number) has payments and refunds on record; it stays for the report (有收退款紀錄，不可刪單)"
        case .cancelled(let number):
            return "order \(number) is cancelled (已取消)"
        case .notAMembersOrder(let number):
            return "order \(number) is not a member's; order `for 09XXXXXXXX` to make it one (非會員訂單)"
        case .anotherMembers(let number, let masked):
            return "order \(number) is already \(masked)'s (已是其他會員的訂單)"
        }
    }
}
