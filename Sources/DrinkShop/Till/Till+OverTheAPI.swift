import Airtable
import AirtableFormula
import DrinkShopCore
import Foundation

/// Paying over the API, where nothing is atomic: the ledger's claim rule.
extension Till {
    /// `pay` over the API (Airtable, `drinkshop serve`), where nothing is atomic: a claim rule instead.
    /// The payment is worked out from the ledger (never the copy), the copy on the order written (ahead of
    /// the ledger: it only ever says more was paid, so a copy that says nothing was paid can be trusted, and
    /// then no ledger is read), then the payment. On a server that keeps payments' keys unique (`drinkshop serve`)
    /// the payment is created under a key naming the ledger state it was worked out from, and holds when the server
    /// takes it. Elsewhere (Airtable, the gateway) the order's ledger is read back in its own order (creation time,
    /// then record id): the payment holds when the payments before it are those it was worked out from;
    /// otherwise another counter's payment came first: it is taken back and worked out again, so of two
    /// counters paying at the same instant one pays and the other is told `already paid`, with nothing
    /// recorded. Where creation times are whole seconds, a payment written later can sort before one
    /// written earlier: a payment tied with another payment it was not worked out from gives way too, as tied
    /// pickup tickets do. Refunds and cancel marks never make a payment give way, and a payment that finds a cancel
    /// mark stands: a cancel's settling may already count it, so it is given back, never taken back. A crash between the writes leaves the copy ahead: paying again works (it goes by
    /// the ledger) and `check --books` names the difference. A payment the ledger refuses (already paid) puts
    /// the copy right from the ledger first: the copy a counter wrote before giving way never stands.
    ///
    /// The order may come from this counter's copy of the day (no read): the copy's write leaves the bill's cell as
    /// it is and answers every cell of the order, so an order changed since it was read (edited, moved on,
    /// cancelled, adjusted, at this counter or another) is paid again from the store's answer and the ledger
    /// (`restarts` counts those), before any payment is written.
    func payOverTheAPI(_ stored: StoredOrder, method: PaymentMethod, tendered: Int?, by staff: String, restarts: Int = 0)
        async throws(TillError) -> PaymentReceipt
    {
        // The bill: the copy carries it when adjustments or a member changed it, or the order is a member's
        // (written before any payment).
        let (total, bill): (Int, Int?)
        if let copy = stored.till {
            (total, bill) = (copy.bill ?? stored.order.total, copy.bill)
        } else {
            let (charges, billed) = try await extras.billed(stored)
            (total, bill) = (charges.total, billed)
        }
        // The copy on the order as this counter last knew or wrote it.
        var copyOnOrder = stored.till
        for attempt in 0..<12 {
            let ledger: [LedgerEntry]
            if attempt == 0, let copy = stored.till, copy.paidBy.isEmpty, copy.refundedBy.isEmpty {
                // The copy is written ahead of the ledger, so one that says nothing was paid or refunded means the
                // ledger holds nothing for the order: the first try reads nothing. A payment that overtook that
                // copy is caught by the claim below, and the next try reads the ledger.
                ledger = []
            } else {
                do { ledger = try await payments.entries(ofOrder: stored.orderRef) } catch { throw .shop(error) }
            }
            let money = try Self.money(of: stored, total: total, records: ledger.compactMap(\.money))
            let (after, payment): (OrderPayments, Payment)
            do {
                (after, payment) = try paying(money, stored: stored, method: method, tendered: tendered, by: staff)
            } catch {
                // Refused by the ledger: the copy is put right from it. A copy that disagrees was left by a counter
                // that gave way to another's payment (this one, a moment ago, or one that stopped between its
                // writes); the refusal stands either way (best effort: a copy still wrong is put right next time).
                // A ledger holding more than the bill still holds a rival's payment that gives way as soon as its
                // counter reads the ledger back (several counters paying one order at once): a copy written from
                // it would say more was paid than stays paid, so it is left to the payment that holds.
                let ledgerCopy = TillCopy(money, bill: bill)
                if ledgerCopy != copyOnOrder, money.paid - money.refunded <= money.total {
                    _ = try? await orders.records.writeCells(of: stored, [:], extra: OrderRecord.cells(of: ledgerCopy))
                }
                throw error
            }
            var record = MoneyRecord(orderRef: stored.orderRef, pickupNumber: stored.order.pickupNumber,
                                     businessDay: stored.businessDay, entry: .payment(payment))
            let copy = TillCopy(after, bill: bill)
            // The bill's cell is written only where the order carried no copy (its bill was just priced); otherwise
            // the answer shows it as the store has it.
            var cells = OrderRecord.cells(of: copy)
            if stored.till != nil { cells[OrderField.bill] = nil }
            let answered: [Record]
            do {
                let (records, written) = try await orders.records.writeAnswering(cells, of: stored)
                if written { copyOnOrder = copy }
                answered = records
            } catch {
                throw .shop(error)
            }
            let changed: StoredOrder?
            do { changed = try await orders.changedSince(stored, answered: answered, bill: bill) } catch { throw .shop(error) }
            if let changed {
                guard restarts < 3 else { throw .payment(.orderChanged(order: stored.order.pickupNumber)) }
                return try await payOverTheAPI(changed, method: method, tendered: tendered, by: staff, restarts: restarts + 1)
            }
            let holds: Bool
            var guardedAgainstCancel = false, refusedAsCancelled = false
            // The ledger after this payment was taken back, where a cancel had marked it (see below).
            var withdrawnBeforeSettled: [MoneyRecord]?
            // Whether the ledger read back after the payment holds a cancel mark (nil: no read-back).
            var markedCancelled: Bool?
            do {
                if payments.keepsKeysUnique {
                    // The server keeps payments' keys unique: the key names the order and how many entries the
                    // ledger the payment was worked out from held, so of two payments worked out from one state of
                    // the ledger the server takes one and refuses the other (which reads the ledger and tries
                    // again). What the server took holds: no read-back.
                    record.ref = "\(stored.orderRef)#\(ledger.count)"
                    switch try await payments.create(record) {
                    case .created:
                        holds = true
                        // Said in the answer to this create: the server took it only if the order was not cancelled.
                        guardedAgainstCancel = payments.refusesCancelledOrders
                    case .keyTaken:
                        holds = false
                    case .orderCancelled:
                        holds = false
                        refusedAsCancelled = true
                    }
                } else {
                    let id = try await payments.addOne(record)
                    let now = try await payments.entries(ofOrder: stored.orderRef)
                    // Only a rival payment makes this one give way: refunds and cancel marks come from a cancel,
                    // whose settling may already count this payment, so it must stand and be given back, never be
                    // taken back. For the same reason a payment that finds the order marked cancelled stands even
                    // beside a rival (both are given back).
                    let marked = now.contains(where: \.isCancelMark)
                    if let place = now.firstIndex(where: { $0.id == id }),
                       marked || (Array(now[..<place]).paid == ledger.paid && !Self.tied(now[place], in: now, basis: ledger)) {
                        holds = true
                        markedCancelled = marked
                    } else {
                        try await payments.withdraw(id)
                        holds = false
                        // A cancel that read the ledger before this payment was taken back may have given it back too:
                        // read again, and where the order is marked cancelled, no refund stays above what stands paid.
                        let after = try await payments.entries(ofOrder: stored.orderRef)
                        if after.contains(where: \.isCancelMark) {
                            withdrawnBeforeSettled = after.compactMap(\.money)
                        }
                    }
                }
            } catch {
                throw .shop(error)
            }
            if let withdrawnBeforeSettled {
                _ = try await balanceRefunds(of: stored, records: withdrawnBeforeSettled,
                                             reason: "cancelled at another counter while paying", by: staff, bill: bill, raising: false)
            }
            if refusedAsCancelled {
                // Cancelled at another counter since the copy was written: the server took nothing. The copy written
                // ahead is put right from the ledger (best effort, as when the ledger refuses a payment).
                let now: [LedgerEntry]
                do { now = try await payments.entries(ofOrder: stored.orderRef) } catch { throw .shop(error) }
                let money = try Self.money(of: stored, total: total, records: now.compactMap(\.money))
                let ledgerCopy = TillCopy(money, bill: bill)
                if ledgerCopy != copyOnOrder, money.paid - money.refunded <= money.total {
                    _ = try? await orders.records.writeCells(of: stored, [:], extra: OrderRecord.cells(of: ledgerCopy))
                }
                throw .payment(.orderVoided(order: stored.order.pickupNumber))
            }
            if holds {
                // Cancelled at another counter meanwhile? Then the money goes back at once (the cancel's own
                // settling may give the same refund: refunds are keyed by order and method, so it is given once).
                // A server that refuses payments for cancelled orders in the payment's commit has answered that
                // already: a cancel written after the payment reads the ledger and gives the money back itself.
                // Where the payment was read back, the ledger answered it too: a cancel marks the ledger before
                // reading it (`CommitStrategy.marksCancelsInLedger`), so either the mark is in what was read back,
                // or the cancel's read of the ledger finds this payment and gives it back.
                let cancelled: Bool
                if guardedAgainstCancel {
                    cancelled = false
                } else if let markedCancelled {
                    cancelled = markedCancelled
                } else {
                    cancelled = try await isCancelledNow(stored)
                }
                if cancelled {
                    let refunds = try await settleLatePayments(of: stored, reason: "cancelled at another counter while paying",
                                                               by: staff, bill: bill).added
                    throw .paidWhileCancelled(order: stored.order.pickupNumber, refunds: refunds)
                }
                // The member's stamps once the order is paid in full (the settling reads whether it still stands).
                var settled = stored
                settled.till = TillCopy(after, bill: bill)
                try await stamps.settle(StampKeeping.Facts(settled, money: after))
                var paidOrder = stored
                if copyOnOrder == copy { paidOrder.till = copy }
                return PaymentReceipt(order: paidOrder, payment: payment, money: after)
            }
            // Counters that lost together wait apart before trying again (a refused key needs no wait: the payment
            // that holds it is in the ledger already).
            if !payments.keepsKeysUnique {
                try? await Task.sleep(for: .milliseconds(Int.random(in: 5...(20 << min(attempt, 4)))))
            }
        }
        throw .payment(.orderChanged(order: stored.order.pickupNumber))
    }

    /// Whether `mine` shares its creation time with a payment it was not worked out from.
    private static func tied(_ mine: LedgerEntry, in ledger: [LedgerEntry], basis: [LedgerEntry]) -> Bool {
        let known = Set(basis.map(\.id))
        return ledger.contains { $0.id != mine.id && !known.contains($0.id) && $0.createdTime == mine.createdTime && $0.isPayment }
    }

    /// Whether the order is cancelled in the store now (one read of its first line).
    private func isCancelledNow(_ stored: StoredOrder) async throws(TillError) -> Bool {
        guard let first = stored.recordIDs.first else { return false }
        do {
            let record = try await payments.store.getRecord(in: ShopSchema.orderTable, id: first, options: ReadOptions())
            return record.fields[OrderField.status]?.stringValue == OrderStatus.cancelled.rawValue
        } catch {
            throw .shop(.store(error))
        }
    }
}
