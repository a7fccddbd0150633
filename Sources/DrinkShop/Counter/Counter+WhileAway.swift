import DrinkShopCore
import Foundation

/// The orders a counter kept while the store could not be reached: sending them (with what was kept beside them: the
/// invoice details, the member, a payment), and paying for them. When the store answers again the kept orders are
/// sent first and the order is paid as any other. While it is away the whole bill is taken here: the payment and its
/// invoice (numbered from this counter's own book, as the kept invoice details say) are kept in the outbox with the
/// order, and recorded in the store's ledger and `EInvoice` (its files written) when the order is sent.
extension Counter {
    /// Sends the orders this counter kept while the store could not be reached (`OrderDesk.sendUnsent`); an
    /// order kept for a member is made theirs (stamps when paid, their pass, the bill) before it leaves the
    /// outbox, as `applyMember` does at once for an order the store took; one paid while away without the pass
    /// (`applyKeptMember`), then its payment recorded (`recordKeptPayment`).
    @discardableResult
    public func sendKept(force: Bool) async throws(ShopError) -> OutboxReport {
        let (drawer, clock) = (drawer, clock)
        return try await orders.sendUnsent(force: force, settle: { [self] (sent) throws(ShopError) in
            // Its invoice details first, as `invoice #N` records them, so its invoice (issued while it was kept, or
            // when it is paid now) and the books agree with the order.
            if let details = sent.keptInvoiceDetails {
                do throws(TillError) { try await extras.setInvoice(details, of: sent) } catch {
                    if case .shop(let cause) = error { throw cause }
                    throw .storedData("the invoice details kept with this order: \(error)")
                }
            }
            // Its member before its kept payment, so the payment earns the stamps as any member's payment does.
            try await recordKeptPayment(of: try await applyKeptMember(to: sent))
        }, isClosed: { (day) throws(ShopError) in
            // A day is closed once its drawer is counted (`close`); an archived day was closed first.
            let bounds = clock.bounds(of: day)
            do throws(TillError) { return try await !drawer.counts(from: bounds.start, to: bounds.end).isEmpty } catch {
                if case .shop(let cause) = error { throw cause }
                throw .storedData("the drawer counts of \(day): \(error)")
            }
        })
    }

    /// `pay` for a kept order (`stored.isUnsent`).
    func payKept(_ stored: StoredOrder, as number: OrderNumber, method: PaymentMethod, tendered: Int?, acting: Acting,
                 who: String) async throws(TillError) -> Till.PaymentReceipt {
        guard let outbox = delivery.outbox else { throw .unsentOrder(number) }
        if let kept = try await keptPayment(of: stored) {
            throw .keptOrder(.alreadyPaid(number, total: kept.payment.amount))
        }
        // The store may answer again: the kept orders go (this one among them), and it is paid as any order. Tried at
        // most once per probe interval (2 s), as every command does, so a payment never waits out an outage's timeouts.
        let queuedAs = stored.keptNumber ?? stored.number
        let report: OutboxReport
        do { report = try await sendKept(force: false) } catch { throw .shop(error) }
        if let sent = report.sent.first(where: { $0.queuedAs == queuedAs }) {
            return try await pay(sent.number(today: clock.today), method: method, tendered: tendered, by: acting)
        }
        // Refused by the store (it answered no): it waits in the outbox for staff, unpaid.
        guard delivery.isOffline else { throw .unsentOrder(number) }
        // A member's order is paid at its price without member benefits (the card and the pass are the store's): its
        // stamps are added when it is sent, its pass not used for it.
        guard stored.order.status != .cancelled else { throw .keptOrder(.cancelled(number)) }
        let charges = try OrderExtras.price(stored.order, extra: OrderExtra(), adjustments: [])
        let money = try Till.money(of: stored, total: charges.total, records: [])
        let (after, payment) = try till.paying(money, stored: stored, method: method, tendered: tendered, by: who)
        guard after.due == 0 else { throw .keptOrder(.partPayment(number, due: money.due, tendered: payment.tendered)) }
        if method == .cash, await outbox.keptShiftOpen() != true { throw .keptOrder(.cashWithoutKnownShift(number)) }
        let setup: InvoiceSetup?
        do { setup = try await invoices.setup() } catch {
            guard case .shop = error else { throw error }
            throw .keptOrder(.invoiceSetupUnknown(number))
        }
        let issuing = setup == nil ? nil : try await invoices.issuingWhileAway(for: stored, charges: charges,
                                                                               details: stored.keptInvoiceDetails, by: who)
        // The check that it is not paid yet, the invoice's number and the payment: one commit of the outbox.
        let outcome: Outbox.KeptPaymentOutcome
        do { outcome = try await outbox.keepPayment(payment, of: stored, issuing: issuing) } catch { throw .shop(error) }
        switch outcome {
        case .kept(let invoice):
            return Till.PaymentReceipt(order: stored, payment: payment, money: after, invoice: invoice)
        case .paidAlready:
            throw .keptOrder(.alreadyPaid(number, total: try await keptPayment(of: stored)?.payment.amount ?? payment.amount))
        case .cancelled:
            throw .keptOrder(.cancelled(number))
        case .changed:
            throw .keptOrder(.changedMeanwhile(number))
        case .noNumbers:
            // The book is used up (the next one is claimed from the store, which is away), or this counter holds none.
            throw .einvoice(.noNumbersWhileAway(period: try invoices.currentPeriod().code))
        }
    }

    /// Keeps (or with nil clears) the invoice details of a kept order with it in the outbox: its invoice, issued
    /// when it is paid (here while the store is away, or in the store once it is sent), follows them; they are
    /// recorded on the order when it is sent. Refused once it was paid while away: its invoice is issued.
    func keepInvoiceDetails(_ details: InvoiceDetails?, of stored: StoredOrder, as number: OrderNumber) async throws(TillError) {
        if let kept = try await keptPayment(of: stored) {
            guard let invoice = kept.invoice else { throw .keptOrder(.paidWhileAway(number)) }
            throw .einvoice(.detailsAfterInvoice(order: number.description, number: invoice.number.printed))
        }
        var kept = stored
        kept.keptInvoiceDetails = details
        do {
            try await orders.save(kept, menu: try await orders.catalog.snapshot(refresh: false).menu)
        } catch {
            throw .shop(error)
        }
    }

    /// Refuses to cancel or void a kept order paid while the store was away: the refund and the invoice's void are
    /// written to the store, so it is done once the order is sent.
    func refusingIfPaidWhileAway(_ stored: StoredOrder, as number: OrderNumber) async throws(TillError) {
        if try await keptPayment(of: stored) != nil { throw .keptOrder(.paidWhileAway(number)) }
    }

    /// A kept order's money as its kept payment left it (nil: none kept): for `MoneyGuard` (no edit, no delete) and
    /// the order list.
    public func keptMoney(of stored: StoredOrder) async throws(TillError) -> OrderPayments? {
        guard let kept = try await keptPayment(of: stored) else { return nil }
        do {
            return try OrderPayments(pickupNumber: stored.order.pickupNumber, total: kept.payment.amount, payments: [kept.payment])
        } catch {
            throw .shop(.storedData("the payment kept with \(stored.number?.description ?? stored.orderRef): \(error)"))
        }
    }

    /// The kept invoice of a kept order (nil: none), for the receipt and its proof.
    public func keptInvoice(of stored: StoredOrder) async throws(TillError) -> IssuedInvoice? {
        try await keptPayment(of: stored)?.invoice
    }

    /// The invoices issued while the store was away whose orders are still in this counter's outbox (sent at every
    /// command once the store answers; one the store refused stays until staff put it right), oldest first.
    func invoicesKeptHere() async throws(TillError) -> [InvoiceDesk.KeptInvoice] {
        guard let outbox = delivery.outbox else { return [] }
        do throws(ShopError) {
            guard try await !outbox.ordersWithKeptPayments().isEmpty else { return [] }
            let kept = try await outbox.unsentOrders(menu: try await orders.catalog.snapshot(refresh: false).menu, clock: clock)
            var found: [InvoiceDesk.KeptInvoice] = []
            for stored in kept {
                guard let invoice = try await outbox.keptPayment(of: stored.orderRef)?.invoice else { continue }
                found.append(InvoiceDesk.KeptInvoice(number: invoice.number.printed, order: (stored.keptNumber ?? stored.number)?.description
                                                         ?? stored.orderRef, issuedAt: invoice.issuedAt))
            }
            return found.sorted { $0.issuedAt < $1.issuedAt }
        } catch {
            throw .shop(error)
        }
    }

    private func keptPayment(of stored: StoredOrder) async throws(TillError) -> Outbox.KeptPayment? {
        stored.isUnsent ? try await keptPayment(ofOrder: stored.orderRef) : nil
    }

    /// The payment kept in the outbox for order `orderRef` (also for an order just sent, before it is recorded).
    private func keptPayment(ofOrder orderRef: String) async throws(TillError) -> Outbox.KeptPayment? {
        guard let outbox = delivery.outbox else { return nil }
        do { return try await outbox.keptPayment(of: orderRef) } catch { throw .shop(error) }
    }

    /// Makes a kept order its member's once it is sent, before its kept payment is recorded (so the payment earns the
    /// stamps): applied once (an order already theirs, by an earlier send cut short, is left as it is, its earned
    /// stamps with it); a kept payment's order without the pass, since it was paid at the price without it.
    /// - Returns: `sent` with the bill its copy now carries (a member's order always carries one).
    func applyKeptMember(to sent: StoredOrder) async throws(ShopError) -> StoredOrder {
        guard let mobile = sent.keptMember, sent.order.status != .cancelled else { return sent }
        var applied = sent
        do throws(TillError) {
            let paidWhileAway = try await keptPayment(ofOrder: sent.orderRef) != nil
            if try await extras.extra(of: sent.orderRef).member != mobile {
                _ = try await members.apply(to: sent, mobile: mobile, freeCups: 0, money: nil, usePass: !paidWhileAway)
            }
            var copy = sent.till ?? TillCopy()
            copy.bill = try await extras.billed(sent).bill
            applied.till = copy
        } catch {
            if case .shop(let cause) = error { throw cause }
            throw .storedData("the member \(mobile.masked) kept with this order: \(error)")
        }
        return applied
    }

    /// Records the payment kept with `sent` (just written to the store), then its invoice and files, then the audit
    /// entry saying when it was really taken, and only then forgets it: a send cut short anywhere is repeated whole
    /// (a payment the ledger already holds is refused as paid, the invoice is written once by its number).
    func recordKeptPayment(of sent: StoredOrder) async throws(ShopError) {
        guard let outbox = delivery.outbox, let kept = try await outbox.keptPayment(of: sent.orderRef) else { return }
        let payment = kept.payment
        let number = sent.number ?? .pickup(sent.order.pickupNumber)
        do throws(TillError) {
            // The bill the store has is the one the payment was taken for (a kept paid order cannot be changed); checked
            // all the same, so a payment never lands on another bill.
            let bill = sent.till?.bill ?? sent.order.total
            guard bill == payment.amount else {
                throw .shop(.keptPaymentRefused("\(number): its bill is $\(bill) in the store, the payment kept was $\(payment.amount)"))
            }
            do {
                _ = try await till.recordTakenWhileAway(sent, as: number, payment: payment)
            } catch .payment(.alreadyPaid) {
                // Recorded by an earlier send whose end was lost (the outbox still held the payment).
            }
            var invoice: IssuedInvoice?
            if let issued = kept.invoice { invoice = try await invoices.recordKept(issued, of: sent) }
            let at = invoices.moment(of: payment.takenAt).printed
            do {
                try await audit.record(AuditEntry(
                    at: clock.now(), by: payment.takenBy, action: .takePayment, subject: "#\(sent.order.pickupNumber)",
                    detail: "paid $\(payment.amount) by \(payment.method.label) at \(at) while the store was away"
                        + (invoice.map { ", invoice \($0.number.printed)" } ?? "") + "; recorded when the order was sent"))
            } catch {
                throw .shop(error)
            }
        } catch {
            if case .shop(let cause) = error { throw cause }
            throw .keptPaymentRefused("\(number): \(error)")
        }
        try await outbox.forgetPayment(of: sent.orderRef)
    }
}
