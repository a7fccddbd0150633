import Airtable
import DrinkShopCore
import Foundation

/// Payments and refunds (the till's money), over the `TillPayment` table. An order's total is its bill
/// (`OrderCharges`: promotion, member benefits, adjustments); what was paid is read back from the store,
/// so every counter sees the same state.
public final class Till: Sendable {
    let payments: PaymentRecords
    let orders: OrderDesk
    let extras: OrderExtras
    let clock: ShopClock

    init(store: any RecordStore, orders: OrderDesk, extras: OrderExtras, clock: ShopClock) {
        payments = PaymentRecords(store: store)
        self.orders = orders
        self.extras = extras
        self.clock = clock
    }

    /// What became of a payment: the order, the payment (its `change` is what to hand back) and the order's money after it.
    public struct PaymentReceipt: Sendable {
        public let order: StoredOrder
        public let payment: Payment
        public let money: OrderPayments
    }

    /// Takes `tendered` NT$ by `method` for order `number`. A refused payment writes nothing.
    public func pay(_ number: OrderNumber, method: PaymentMethod, tendered: Int, by staff: String)
        async throws(TillError) -> PaymentReceipt
    {
        let stored: StoredOrder
        do { stored = try await orders.find(number) } catch { throw .shop(error) }
        guard !stored.isUnsent, stored.order.pickupNumber > 0 else { throw .unsentOrder(number) }
        let money = try await self.money(of: stored)
        let result: (OrderPayments, Payment)
        do {
            result = try money.paying(method, tendered: tendered, voided: stored.order.status == .cancelled, by: staff,
                                      at: clock.now())
        } catch {
            throw .payment(error)
        }
        do {
            try await payments.add([MoneyRecord(orderRef: stored.orderRef, pickupNumber: stored.order.pickupNumber,
                                                businessDay: stored.businessDay, entry: .payment(result.1))])
        } catch {
            throw .shop(error)
        }
        return PaymentReceipt(order: stored, payment: result.1, money: result.0)
    }

    /// The refund side of a void: everything paid for `stored` goes back by the method it came by, recorded
    /// with the void's reason. The void path calls this once the order is cancelled; an unpaid order gives
    /// no refunds and writes nothing.
    @discardableResult
    public func refundOnVoid(_ stored: StoredOrder, reason: String, by staff: String) async throws(TillError) -> [Refund] {
        guard !stored.isUnsent else { return [] }
        let money = try await self.money(of: stored)
        let (_, refunds) = money.refundingAll(reason: reason, by: staff, at: clock.now())
        do {
            try await payments.add(refunds.map {
                MoneyRecord(orderRef: stored.orderRef, pickupNumber: stored.order.pickupNumber,
                            businessDay: stored.businessDay, entry: .refund($0))
            })
        } catch {
            throw .shop(error)
        }
        return refunds
    }

    /// The order's money: its bill's total, with the payments and refunds recorded so far.
    public func money(of stored: StoredOrder) async throws(TillError) -> OrderPayments {
        let records: [MoneyRecord]
        do { records = try await payments.forOrder(stored.orderRef) } catch { throw .shop(error) }
        let charges = try await extras.charges(of: stored)
        return try Self.money(of: stored, total: charges.total, records: records)
    }

    /// The money of many orders of `days` at once (one read), by orderRef.
    public func money(of stored: [StoredOrder], days: [String]) async throws(TillError) -> [String: OrderPayments] {
        let records: [MoneyRecord]
        do { records = try await payments.forDays(days) } catch { throw .shop(error) }
        let byOrder = Dictionary(grouping: records, by: \.orderRef)
        let bills = try await extras.charges(of: stored)
        var result: [String: OrderPayments] = [:]
        for order in stored {
            let total = bills[order.orderRef]?.total ?? order.order.total
            result[order.orderRef] = try Self.money(of: order, total: total, records: byOrder[order.orderRef] ?? [])
        }
        return result
    }

    static func money(of stored: StoredOrder, total: Int, records: [MoneyRecord]) throws(TillError) -> OrderPayments {
        do {
            return try OrderPayments(pickupNumber: stored.order.pickupNumber, total: total,
                                     payments: records.payments.sorted { $0.takenAt < $1.takenAt },
                                     refunds: records.refunds.sorted { $0.refundedAt < $1.refundedAt })
        } catch {
            throw .shop(.storedData("order #\(stored.order.pickupNumber) in table TillPayment: \(error)"))
        }
    }
}
