import Airtable
import DrinkShopCore
import Foundation

/// Cancelling and voiding an order already found, and where the audit entries of the order desk's changes
/// go: on the order itself, in the write of the change (an edit, a cancel, a void), or to the AuditLog table
/// (a delete, an unsent order, an order of an earlier day).
extension OrderDesk {
    /// `found` cancelled (nothing written yet).
    func cancelled(_ found: StoredOrder, reason: String?) throws(ShopError) -> StoredOrder {
        var stored = found
        do { try stored.order.cancel(reason: reason ?? "cancelled at the counter") } catch { throw .status(error) }
        return stored
    }

    /// `found` voided by `staff` (nothing written yet).
    func voided(_ found: StoredOrder, reason: String, by staff: String) throws(ShopError) -> StoredOrder {
        var stored = found
        do { try stored.order.void(by: staff, reason: reason) } catch { throw .status(error) }
        return stored
    }

    /// Writes a cancellation or void (`changed`, made from `before` by `cancelled` or `voided`): the status,
    /// its audit entry, the refunds' entry and the till's copy (`till`, when the till gave money back) in one
    /// write of the order's records.
    func saveCancellation(_ changed: StoredOrder, from before: StoredOrder, by staff: String, refunds: [Refund] = [],
                          till: TillCopy? = nil) async throws(ShopError) -> StoredOrder
    {
        var stored = changed
        let reason = stored.order.cancelReason ?? ""
        // One entry for one change: a void (or a cancel that gives money back, which every report counts as a
        // void) names what it gave back in its own detail.
        let given = refunds.isEmpty ? "" : " (refunded " + refunds.map { "\($0.amount) \($0.method.rawValue)" }.joined(separator: ", ") + ")"
        let entries: [AuditEntry]
        if stored.order.isVoided {
            entries = [entry(.void, stored, by: staff, detail: "\(before.order.status.rawValue), $\(stored.order.total): \(reason)" + given)]
        } else {
            entries = [entry(refunds.isEmpty ? .cancelOrder : .void, stored, by: staff, detail: reason + given)]
        }
        if stored.isUnsent {
            try await save(stored, menu: try await catalog.snapshot(refresh: false).menu)
            try await note(entries, about: stored)
            return stored
        }
        let onTheOrder = auditCells(entries, on: stored)
        var extra = onTheOrder ?? [:]
        if let till { extra.merge(OrderRecord.cells(of: till)) { $1 } }
        // An earlier day's order: its entries go to AuditLog, in the same commit on the embedded store.
        let logging = onTheOrder == nil ? entries : []
        let (answered, written, logged) = try await records.writeStatus(of: stored, extra: extra, logging: logging, trail: audit)
        if written, let till { stored.till = till }
        // The till's copy as the store holds it after this write: another counter's payment may have written
        // its copy since this one was read (the till then gives that money back too).
        if till == nil, let cells = answered.first?.fields, let held = OrderRecord.tillCopy(from: cells) { stored.till = held }
        if !logged { try await settle(entries, on: &stored, written: written && extra[OrderField.audit] != nil) }
        return stored
    }

    /// An audit entry about `stored`, now.
    func entry(_ action: ShopAction, _ stored: StoredOrder, by staff: String, detail: String) -> AuditEntry {
        let subject = stored.businessDay == clock.today ? stored.number?.description : stored.numberWithDay?.description
        return AuditEntry(at: clock.now(), by: staff, action: action, subject: subject ?? stored.orderRef, detail: detail)
    }

    /// The cells that put `entries` on the order itself, in the write of the change they record; nil when
    /// they go to the AuditLog table instead: an unsent order, or one of an earlier business day (a day's
    /// entries are found with that day's orders, `AuditTrail.entries(fromDay:throughDay:)`).
    func auditCells(_ entries: [AuditEntry], on stored: StoredOrder) -> Fields? {
        guard !stored.isUnsent, entries.allSatisfy({ clock.businessDay(of: $0.at) == stored.businessDay }) else { return nil }
        return Fields([OrderField.audit: .string(OrderAuditCell.appending(entries, to: stored.auditText))])
    }

    /// After the change is written: the entries are on the order (`written`), or go to the AuditLog table.
    func settle(_ entries: [AuditEntry], on stored: inout StoredOrder, written: Bool) async throws(ShopError) {
        if written {
            stored.auditText = OrderAuditCell.appending(entries, to: stored.auditText)
        } else {
            try await note(entries)
        }
    }

    /// Entries about an order still in this counter's outbox wait there with it, even while the store answers,
    /// so they reach the store after the order, under its number then (`sendUnsent`: `#14 (was A-P1)`).
    func note(_ entries: [AuditEntry], about stored: StoredOrder) async throws(ShopError) {
        guard stored.isUnsent, let outbox = delivery.outbox, let first = entries.first else { return try await note(entries) }
        do { try await outbox.keepAudit(entries.map(audit.cells(of:))) } catch { throw .auditNotWritten(first, error) }
    }

    /// Writes audit entries to the AuditLog table. The change itself is already saved: a trail that cannot
    /// be written is reported, not rolled back.
    func note(_ entries: [AuditEntry]) async throws(ShopError) {
        guard let first = entries.first else { return }
        // Kept in the outbox while the store cannot be reached; any other failure is told, never dropped.
        do { try await audit.record(entries) } catch { throw .auditNotWritten(first, error) }
    }
}
